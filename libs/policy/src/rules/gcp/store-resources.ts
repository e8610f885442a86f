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

export function gcpStoresOf(args: StackValidationArgs): GcpStoreResources[] {
  return args.resources
    .filter((resource) => resource.type === GCP_STORE_COMPONENT)
    .map((component) => ({
      name: component.name,
      urn: component.urn,
      inputs: (plain(component.props) ?? {}) as Record<string, unknown>,
      children: args.resources.filter((resource) => resource.parent?.urn === component.urn),
    }));
}
