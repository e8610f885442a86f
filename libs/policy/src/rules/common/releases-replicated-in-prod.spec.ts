import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { STORE_URN, storeFixture } from '../../../testing/aws';
import { releasesReplicatedInProd } from './releases-replicated-in-prod';

/** The fixture store as a store of released checkpoints (a retention lock), with or without its replica. */
function releases(environment: string, replicated: boolean): ResourceUnderTest[] {
  const [component, ...rest] = storeFixture({ environment });
  const replica = 'urn:pulumi:test::spec::checkpoints:aws:StoreReplica::ckpt-replica';
  return [
    { ...component!, props: { ...component!.props, retentionLock: { days: 365 } } },
    ...rest,
    ...(replicated
      ? [
          {
            type: 'checkpoints:aws:StoreReplica',
            name: 'ckpt-replica',
            props: { replicaRegion: 'us-west-2' },
            parent: STORE_URN,
          },
          {
            type: 'aws:s3/bucket:Bucket',
            name: 'ckpt-replica-bucket',
            props: { bucket: 'ckpt-replica' },
            parent: replica,
          },
        ]
      : []),
  ];
}

describe('releases-replicated-in-prod', () => {
  it('passes a prod store of released checkpoints with a replica, and one outside prod without', async () => {
    expect(await violationsOf(releasesReplicatedInProd, releases('prod', true))).toEqual([]);
    expect(await violationsOf(releasesReplicatedInProd, releases('dev', false))).toEqual([]);
  });

  it('flags a prod store of released checkpoints in one region', async () => {
    expect(await violationsOf(releasesReplicatedInProd, releases('prod', false))).toEqual([
      'store ckpt: a prod store of released checkpoints with no replica (checkpoints releases-replicated (AWS))',
    ]);
  });

  it('leaves a prod store without a retention lock alone', async () => {
    expect(await violationsOf(releasesReplicatedInProd, storeFixture({}))).toEqual([]);
  });
});
