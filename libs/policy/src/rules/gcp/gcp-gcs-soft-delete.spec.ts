import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_NUMBER } from '../../../testing/rules';
import { gcpGcsSoftDelete } from './gcp-gcs-soft-delete';
import { BUCKET, hierarchicalBucket, versionedBucket } from '../../../testing/gcp';

const withRetention = (retentionDurationSeconds: unknown) =>
  versionedBucket({ softDeletePolicy: { retentionDurationSeconds } });

describe('gcp-gcs-soft-delete', () => {
  it('passes 7, 14 and 90 days', async () => {
    expect(
      await violationsOf(gcpGcsSoftDelete, [
        { type: BUCKET, props: hierarchicalBucket() },
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: withRetention(7_776_000) },
      ]),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'no soft-delete policy (the project default)',
      versionedBucket({ softDeletePolicy: undefined }),
      'softDeletePolicy.retentionDurationSeconds is not set; must be set explicitly to at least 604800 (7 days), not left to the project default',
    ],
    [
      'soft delete off',
      withRetention(0),
      'softDeletePolicy.retentionDurationSeconds is 0 (soft delete off); must be at least 604800 (7 days)',
    ],
    [
      'three days',
      withRetention(259_200),
      'softDeletePolicy.retentionDurationSeconds is 259200 (3 days); must be at least 604800 (7 days)',
    ],
    [
      'more than Cloud Storage accepts',
      withRetention(8_640_000),
      'softDeletePolicy.retentionDurationSeconds is 8640000 (100 days); Cloud Storage accepts at most 7776000 (90 days)',
    ],
    [
      'unknown in synth',
      withRetention('[unknown]'),
      'softDeletePolicy.retentionDurationSeconds is unknown during preview; must be a literal 604800 (7 days) or more',
    ],
    [
      'unknown on a real preview',
      previewProps(withRetention(UNKNOWN_NUMBER)),
      'softDeletePolicy.retentionDurationSeconds is unknown during preview; must be a literal 604800 (7 days) or more',
    ],
  ])('flags %s', async (_title, props, message) => {
    expect(await violationsOf(gcpGcsSoftDelete, [{ type: BUCKET, props }])).toEqual([message]);
  });

  it('flags a hierarchical-namespace bucket without soft delete: it has no other recovery', async () => {
    expect(
      await violationsOf(gcpGcsSoftDelete, [
        { type: BUCKET, props: hierarchicalBucket({ softDeletePolicy: { retentionDurationSeconds: 0 } }) },
      ]),
    ).toEqual([
      'softDeletePolicy.retentionDurationSeconds is 0 (soft delete off); must be at least 604800 (7 days)',
    ]);
  });
});
