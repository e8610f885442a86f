import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_OBJECT } from '../../../testing/rules';
import { gcpGcsVersioning } from './gcp-gcs-versioning';
import { BUCKET, hierarchicalBucket, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-versioning', () => {
  it('passes a versioned bucket, a hierarchical-namespace bucket and a bucket with a retention policy, without versions', async () => {
    expect(
      await violationsOf(gcpGcsVersioning, [
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: hierarchicalBucket() },
        {
          type: BUCKET,
          props: versionedBucket({
            versioning: { enabled: false },
            retentionPolicy: { retentionPeriod: '31536000', isLocked: false },
          }),
        },
      ]),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'versioning off',
      { versioning: { enabled: false } },
      'versioning.enabled is false; must be true on a bucket without a hierarchical namespace',
    ],
    [
      'versioning off beside a retention policy of 0 seconds',
      { versioning: { enabled: false }, retentionPolicy: { retentionPeriod: '0' } },
      'versioning.enabled is false; must be true on a bucket without a hierarchical namespace',
    ],
    [
      'no versioning block',
      { versioning: undefined },
      'versioning.enabled is not set; must be true on a bucket without a hierarchical namespace',
    ],
    [
      'hierarchical namespace explicitly off',
      { versioning: undefined, hierarchicalNamespace: { enabled: false } },
      'versioning.enabled is not set; must be true on a bucket without a hierarchical namespace',
    ],
  ])('flags a flat bucket with %s', async (_title, overrides, message) => {
    expect(
      await violationsOf(gcpGcsVersioning, [{ type: BUCKET, props: versionedBucket(overrides) }]),
    ).toEqual([message]);
  });

  it('flags versioning unknown on a real preview', async () => {
    const props = previewProps(versionedBucket({ versioning: UNKNOWN_OBJECT }));
    expect(await violationsOf(gcpGcsVersioning, [{ type: BUCKET, props }])).toEqual([
      'versioning.enabled is unknown during preview; must be true on a bucket without a hierarchical namespace',
    ]);
  });
});
