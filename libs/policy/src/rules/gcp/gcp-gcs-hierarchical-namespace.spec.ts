import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { gcpGcsHierarchicalNamespace } from './gcp-gcs-hierarchical-namespace';
import { BUCKET, hierarchicalBucket, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-hierarchical-namespace', () => {
  it('passes a hierarchical-namespace bucket with versioning off or unset, and a flat versioned bucket', async () => {
    expect(
      await violationsOf(gcpGcsHierarchicalNamespace, [
        { type: BUCKET, props: hierarchicalBucket() },
        { type: BUCKET, props: hierarchicalBucket({ versioning: undefined }) },
        { type: BUCKET, props: versionedBucket() },
      ]),
    ).toEqual([]);
  });

  it('flags versioning on a hierarchical-namespace bucket, which Cloud Storage rejects', async () => {
    expect(
      await violationsOf(gcpGcsHierarchicalNamespace, [
        { type: BUCKET, props: hierarchicalBucket({ versioning: { enabled: true } }) },
      ]),
    ).toEqual([
      'hierarchicalNamespace.enabled is true and versioning.enabled is true; versioning must be false or unset (Cloud Storage rejects versioning on a hierarchical-namespace bucket; soft delete recovers it)',
    ]);
  });

  it('flags versioning unknown on a real preview', async () => {
    const props = previewProps(hierarchicalBucket({ versioning: { enabled: UNKNOWN_BOOLEAN } }));
    expect(await violationsOf(gcpGcsHierarchicalNamespace, [{ type: BUCKET, props }])).toEqual([
      'hierarchicalNamespace.enabled is true and versioning.enabled is unknown during preview; versioning must be false or unset (Cloud Storage rejects versioning on a hierarchical-namespace bucket; soft delete recovers it)',
    ]);
  });
});
