import type { StackValidationArgs } from '@pulumi/policy';
import { plain } from '../inputs';
import { GCP_STORE_COMPONENT } from './tokens';

type PolicyResource = StackValidationArgs['resources'][number];

/** A GCP store as the stack rules see it: its component's inputs and the resources it parents. */
export interface GcpStoreResources {
  name: string;
  urn: string;
  inputs: Record<string, unknown>;
  children: PolicyResource[];
}

/** Each resource's children by its URN, in render order: one pass over the render, not one per store. */
export function childrenByParent(args: StackValidationArgs): ReadonlyMap<string, PolicyResource[]> {
  const children = new Map<string, PolicyResource[]>();
  for (const resource of args.resources) {
    const parent = resource.parent?.urn;
    if (parent === undefined) continue;
    const siblings = children.get(parent);
    if (siblings) siblings.push(resource);
    else children.set(parent, [resource]);
  }
  return children;
}

export function gcpStoresOf(args: StackValidationArgs): GcpStoreResources[] {
  const children = childrenByParent(args);
  return args.resources
    .filter((resource) => resource.type === GCP_STORE_COMPONENT)
    .map((component) => ({
      name: component.name,
      urn: component.urn,
      inputs: (plain(component.props) ?? {}) as Record<string, unknown>,
      children: children.get(component.urn) ?? [],
    }));
}
