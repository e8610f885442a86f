import type { Cloud } from '@checkpoints/config';
import { storeCloudOf } from './components';

/**
 * One resource of a render, as `synth` writes it to `dist/synth/<project>/<stack>.json` and as a policy
 * pack's stack rule sees it on a real preview: every analysis reads only these fields.
 */
export interface RenderedResource {
  urn: string;
  type: string;
  name: string;
  /** False for a component resource (synth writes it; absent where the source does not say). */
  custom?: boolean;
  parent: string | null;
  protect: boolean;
  retainOnDelete: boolean;
  /** Every resource this one waits for: explicit `dependsOn` and those its inputs come from. */
  dependsOn: string[];
  /** Per input property, the resources its value comes from (what policies see as propertyDependencies). */
  propertyDependencies?: Record<string, string[]>;
  /**
   * The former URNs this resource answers to under its own type (Pulumi aliases, those inherited from its
   * parent included); absent when none.
   */
  aliases?: string[];
  /** Provider reference, when one was passed explicitly. */
  provider?: string;
  /** Inputs as the provider receives them; secrets as SECRET_MARK, values unknown on a preview as UNKNOWN_MARK. */
  inputs: Record<string, unknown>;
}

/** How a render writes a secret value: never the value itself. */
export const SECRET_MARK = '[secret]';
/** How a render writes a value not known until the deploy. */
export const UNKNOWN_MARK = '[unknown]';

/** The type of a render's root resource, the stack itself; a policy pack is handed the stack's outputs as its props. */
export const ROOT_STACK_TYPE = 'pulumi:pulumi:Stack';

/** A rendered stack: the input of every analysis. */
export interface Render {
  project: string;
  stack: string;
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
}

/** One checkpoint store of a render: its component and every resource below it. */
export interface RenderedStore {
  /** The store's name in the spec (the component's name). */
  name: string;
  cloud: Cloud;
  urn: string;
  resources: RenderedResource[];
}

/** The stores of a render, in render order, each with the resources its component parents (at any depth). */
export function storesOf(render: Pick<Render, 'resources'>): RenderedStore[] {
  const byUrn = new Map(render.resources.map((resource) => [resource.urn, resource]));
  const stores = new Map<string, RenderedStore>();
  for (const resource of render.resources) {
    const cloud = storeCloudOf(resource.type);
    if (cloud === undefined) continue;
    stores.set(resource.urn, { name: resource.name, cloud, urn: resource.urn, resources: [] });
  }
  for (const resource of render.resources) {
    const store = storeAncestor(resource, byUrn, stores);
    store?.resources.push(resource);
  }
  return [...stores.values()];
}

function storeAncestor(
  resource: RenderedResource,
  byUrn: ReadonlyMap<string, RenderedResource>,
  stores: ReadonlyMap<string, RenderedStore>,
): RenderedStore | undefined {
  const seen = new Set<string>();
  let parent = resource.parent;
  while (parent !== null && !seen.has(parent)) {
    const store = stores.get(parent);
    if (store) return store;
    seen.add(parent);
    parent = byUrn.get(parent)?.parent ?? null;
  }
  return undefined;
}

/** The resources of one type token, e.g. `aws:s3/bucket:Bucket`. */
export function resourcesOfType(resources: readonly RenderedResource[], type: string): RenderedResource[] {
  return resources.filter((resource) => resource.type === type);
}
