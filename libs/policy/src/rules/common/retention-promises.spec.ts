import { RETENTION_DEFAULTS, type RetentionSpec } from '@checkpoints/config';
import { s3LifecycleRules } from '../../aws/lifecycle';
import { violationsOf, type ResourceUnderTest } from '../../testing';
import { retentionPromises } from './retention-promises';

const STORE = 'checkpoints:aws:CheckpointStore';
const STORE_URN = `urn:pulumi:test::spec::${STORE}::llm-pretrain`;

const retention: RetentionSpec = { ...RETENTION_DEFAULTS, softDeleteDays: 0 };

/** An S3 store as a stack renders it: the component with its spec's retention, its bucket and lifecycle. */
function s3Stack(rules: unknown[]): ResourceUnderTest[] {
  const child = (type: string, name: string, props: Record<string, unknown>): ResourceUnderTest => ({
    type,
    name,
    props,
    parent: STORE_URN,
  });
  return [
    { type: STORE, name: 'llm-pretrain', props: { tier: 'standard', retention } },
    child('aws:s3/bucket:Bucket', 'llm-pretrain-bucket', {}),
    child('aws:s3/bucketVersioning:BucketVersioning', 'llm-pretrain-versioning', {
      versioningConfiguration: { status: 'Enabled' },
    }),
    child('aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration', 'llm-pretrain-lifecycle', {
      rules,
    }),
  ];
}

describe('retention-promises', () => {
  it('passes a store whose lifecycle keeps every promise of its spec', async () => {
    expect(await violationsOf(retentionPromises, s3Stack(s3LifecycleRules(retention)))).toEqual([]);
  });

  it('fails the old rule shape (the count in the only noncurrent rule), naming store, promise and day', async () => {
    const oldShape = [
      {
        id: 'expire-noncurrent-versions',
        status: 'Enabled',
        filter: {},
        noncurrentVersionExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 3 },
      },
      {
        id: 'remove-expired-delete-markers',
        status: 'Enabled',
        filter: {},
        expiration: { expiredObjectDeleteMarker: true },
      },
    ];
    expect(await violationsOf(retentionPromises, s3Stack(oldShape))).toEqual([
      expect.stringMatching(
        /^store llm-pretrain breaks the purge promise on day \d+: a checkpoint deleted by a job is still stored on day \d+ of the replay: nothing ever purges it$/,
      ),
    ]);
  });

  it('fails a store whose render does not carry its spec, rather than passing it unchecked', async () => {
    const [component, ...children] = s3Stack(s3LifecycleRules(retention));
    const withoutSpec = [{ ...component, props: {} } as ResourceUnderTest, ...children];
    expect(await violationsOf(retentionPromises, withoutSpec)).toEqual([
      "store llm-pretrain: the render does not carry the spec's retention, so its promises cannot be checked",
    ]);
  });
});
