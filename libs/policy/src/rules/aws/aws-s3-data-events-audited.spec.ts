import { violationsOf } from '../../../testing';
import { awsS3DataEventsAudited } from './aws-s3-data-events-audited';
import { STORE_URN, storeFixture } from '../../../testing/aws';

const trail = (fieldSelectors: object[], extra: Record<string, unknown> = {}) => ({
  type: 'aws:cloudtrail/trail:Trail',
  name: 'audit-trail',
  props: { name: 'stack-trail', advancedEventSelectors: [{ fieldSelectors }], ...extra },
});
const objects = (extra: object[] = []) => [
  { field: 'eventCategory', equals: ['Data'] },
  { field: 'resources.type', equals: ['AWS::S3::Object'] },
  { field: 'resources.ARN', startsWiths: ['arn:aws:s3:::ckpt-bucket/'] },
  ...extra,
];
const MISSING = (what: string) =>
  `store ckpt: no logging trail records the ${what} of its objects (arn:aws:s3:::ckpt-bucket); expected an advanced event selector with eventCategory Data, resources.type AWS::S3::Object and resources.ARN StartsWith arn:aws:s3:::ckpt-bucket/, or checkpoints:organizationTrail`;

describe('aws-s3-data-events-audited', () => {
  it('passes an audited store whose reads and writes a trail selects', async () => {
    expect(await violationsOf(awsS3DataEventsAudited, [...storeFixture({}), trail(objects())])).toEqual([]);
  });

  it("flags an audited store whose replica's objects no trail records, and passes it once a selector names the replica", async () => {
    const REPLICA = 'urn:pulumi:test::spec::checkpoints:aws:StoreReplica::ckpt-replica';
    const replicated = [
      ...storeFixture({}),
      { type: 'checkpoints:aws:StoreReplica', name: 'ckpt-replica', props: {}, parent: STORE_URN },
      {
        type: 'aws:s3/bucket:Bucket',
        name: 'ckpt-replica-bucket',
        props: { bucket: 'ckpt-replica' },
        parent: REPLICA,
      },
    ];
    expect(await violationsOf(awsS3DataEventsAudited, [...replicated, trail(objects())])).toEqual([
      "store ckpt: no logging trail records the reads and writes of its replica's objects (arn:aws:s3:::ckpt-replica); expected an advanced event selector with eventCategory Data, resources.type AWS::S3::Object and resources.ARN StartsWith arn:aws:s3:::ckpt-replica/, or checkpoints:organizationTrail",
    ]);
    const both = [
      { field: 'eventCategory', equals: ['Data'] },
      { field: 'resources.type', equals: ['AWS::S3::Object'] },
      { field: 'resources.ARN', startsWiths: ['arn:aws:s3:::ckpt-bucket/', 'arn:aws:s3:::ckpt-replica/'] },
    ];
    expect(await violationsOf(awsS3DataEventsAudited, [...replicated, trail(both)])).toEqual([]);
  });

  it('passes a store that is not audited, and any store when an organization trail is declared', async () => {
    expect(
      await violationsOf(awsS3DataEventsAudited, storeFixture({ audit: false, environment: 'dev' })),
    ).toEqual([]);
    const declared = {
      type: 'checkpoints:aws:StackAudit',
      name: 'audit',
      props: { organizationTrail: 'arn:aws:cloudtrail:us-east-1:123456789012:trail/org' },
    };
    expect(await violationsOf(awsS3DataEventsAudited, [...storeFixture({}), declared])).toEqual([]);
  });

  it.each([
    ['no trail', [], 'reads and writes'],
    ['a trail of reads only', [trail(objects([{ field: 'readOnly', equals: ['true'] }]))], 'writes'],
    [
      'a trail of another bucket',
      [
        trail(
          objects()
            .slice(0, 2)
            .concat([{ field: 'resources.ARN', startsWiths: ['arn:aws:s3:::other/'] }]),
        ),
      ],
      'reads and writes',
    ],
    ['a trail that stopped logging', [trail(objects(), { enableLogging: false })], 'reads and writes'],
  ])('flags an audited store with %s', async (_title, trails, what) => {
    expect(await violationsOf(awsS3DataEventsAudited, [...storeFixture({}), ...trails])).toEqual([
      MISSING(what),
    ]);
  });
});
