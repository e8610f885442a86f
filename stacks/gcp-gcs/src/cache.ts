import type * as pulumi from '@pulumi/pulumi';
import { AnywhereCache } from '@pulumi/gcp/storage/anywhereCache';
import type { Bucket } from '@pulumi/gcp/storage/bucket';

/**
 * How long a checkpoint read once stays cached: a day covers a job restarting after preemption and the
 * evaluation jobs that read the same checkpoint soon after it lands.
 */
export const CACHE_TTL = '86400s';

/**
 * A zonal SSD read cache next to the accelerators. The cache fills on the first read (the admission
 * policy input is deprecated and left unset), not on write: ingesting every checkpoint as it is written
 * would pay the ingest fee on the many checkpoints that are never read back.
 */
export function createAnywhereCache(
  parent: pulumi.Resource,
  name: string,
  bucket: Bucket,
  zone: string,
): AnywhereCache {
  return new AnywhereCache(
    `${name}-cache-${zone}`,
    { bucket: bucket.name, zone, ttl: CACHE_TTL, ingestOnWrite: false },
    { parent },
  );
}
