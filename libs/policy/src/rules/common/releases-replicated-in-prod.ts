import { complianceRule } from '../compliance';

/**
 * A prod store of released checkpoints (`recovery.retentionLock`) keeps a copy in a second region: a release is
 * the checkpoint teams restart from, so it survives the loss of the store's region. Judged by the compliance
 * checks of the releases-replicated baseline control: an S3 replica (which takes the store's Object Lock), a GCS
 * dual-region, an Azure geo-redundant SKU.
 */
export const releasesReplicatedInProd = complianceRule({
  name: 'releases-replicated-in-prod',
  description:
    'A prod store with a retention lock (released checkpoints) has a copy in a second region: an S3 replica bucket, a GCS dual-region, or a geo-redundant Azure SKU',
  source:
    'Amazon S3 User Guide: Replicating objects within and across Regions; Cloud Storage: Bucket locations (dual-regions); Azure Storage redundancy (geo-redundant storage)',
});
