import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_ARRAY, UNKNOWN_NUMBER } from '../../../testing/rules';
import { gcpGcsLifecycleAbortIncompleteUploads } from './gcp-gcs-lifecycle-abort-incomplete-uploads';
import { BUCKET, hierarchicalBucket, versionedBucket } from '../../../testing/gcp';

const MISSING =
  'lifecycleRules has no AbortIncompleteMultipartUpload action; must include one, e.g. { action: { type: "AbortIncompleteMultipartUpload" }, condition: { age: 1 } }';

describe('gcp-gcs-lifecycle-abort-incomplete-uploads', () => {
  it('passes both tiers of the store bucket', async () => {
    expect(
      await violationsOf(gcpGcsLifecycleAbortIncompleteUploads, [
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: hierarchicalBucket() },
      ]),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no lifecycle rules', versionedBucket({ lifecycleRules: undefined }), MISSING],
    [
      'expiry without aborting uploads',
      versionedBucket({ lifecycleRules: [{ action: { type: 'Delete' }, condition: { age: 14 } }] }),
      MISSING,
    ],
    [
      'rules unknown in synth',
      versionedBucket({ lifecycleRules: '[unknown]' }),
      'lifecycleRules is unknown during preview; must literally include an AbortIncompleteMultipartUpload rule',
    ],
    [
      'rules unknown on a real preview',
      previewProps(versionedBucket({ lifecycleRules: UNKNOWN_ARRAY })),
      'lifecycleRules is unknown during preview; must literally include an AbortIncompleteMultipartUpload rule',
    ],
  ])('flags %s', async (_title, props, message) => {
    expect(await violationsOf(gcpGcsLifecycleAbortIncompleteUploads, [{ type: BUCKET, props }])).toEqual([
      message,
    ]);
  });

  it('reads each rule on its own on a real preview: an unknown condition does not hide the abort action', async () => {
    const props = previewProps(
      versionedBucket({
        lifecycleRules: [
          { action: { type: 'Delete' }, condition: { age: UNKNOWN_NUMBER } },
          { action: { type: 'AbortIncompleteMultipartUpload' }, condition: { age: 1 } },
        ],
      }),
    );
    expect(await violationsOf(gcpGcsLifecycleAbortIncompleteUploads, [{ type: BUCKET, props }])).toEqual([]);
  });
});
