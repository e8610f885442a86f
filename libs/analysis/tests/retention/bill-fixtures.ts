import type { Cloud } from '@checkpoints/config';
import type { RenderedResource } from '@checkpoints/render';
import { retentionOf, type StoreBill } from '../../src';

/** A rendered resource of a test render; `parent` 'store' puts it under the store component. */
export function rendered(
  urn: string,
  type: string,
  parent: string | null,
  inputs: Record<string, unknown>,
): RenderedResource {
  return { urn, type, name: urn, parent, protect: false, retainOnDelete: false, dependsOn: [], inputs };
}

/** A resource of the store `store`. */
export function child(name: string, type: string, inputs: Record<string, unknown>): RenderedResource {
  return rendered(name, type, 'store', inputs);
}

/** A retention block with every lifecycle day at 0 (nothing tiers, expires or is kept beyond the job). */
export const NO_RETENTION = {
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  coolAfterDays: 0,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  softDeleteDays: 0,
  keptPrefixes: [],
  expirePrefixes: [],
};

/** The bill of the one store of a render made of its component, its resources and the stack's others. */
export function billOf(
  cloud: Cloud,
  children: RenderedResource[],
  component: Record<string, unknown>,
  others: RenderedResource[] = [],
): StoreBill {
  const store = rendered('store', `checkpoints:${cloud}:CheckpointStore`, null, component);
  const [result] = retentionOf({ resources: [store, ...children, ...others] });
  if (!result) throw new Error('no store in the render');
  return result.projection.bill;
}
