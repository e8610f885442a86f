import { violationsOf } from '../../../testing';
import { awsS3StoreKeyOnly } from './aws-s3-store-key-only';
import { FIXTURE_BUCKET, FIXTURE_KEY, storeFixture } from '../../../testing/aws';

const OBJECTS = `arn:aws:s3:::${FIXTURE_BUCKET}/*`;
const DIRECTORY = `arn:aws:s3express:us-east-1:123456789012:bucket/${FIXTURE_BUCKET}--use1-az4--x-s3`;
const deny = (action: string, resource: string, key: string, value: string) => ({
  Sid: `Deny-${key}`,
  Effect: 'Deny',
  Principal: '*',
  Action: [action],
  Resource: [resource],
  Condition: { StringNotEquals: { [key]: value }, Null: { [key]: 'false' } },
});
const generalPurpose = [
  deny('s3:PutObject', OBJECTS, 's3:x-amz-server-side-encryption', 'aws:kms'),
  deny('s3:PutObject', OBJECTS, 's3:x-amz-server-side-encryption-aws-kms-key-id', FIXTURE_KEY),
];
const directory = [
  deny('s3express:CreateSession', DIRECTORY, 's3express:x-amz-server-side-encryption', 'aws:kms'),
  deny(
    's3express:CreateSession',
    DIRECTORY,
    's3express:x-amz-server-side-encryption-aws-kms-key-id',
    FIXTURE_KEY,
  ),
];

describe('aws-s3-store-key-only', () => {
  it('passes stores of both tiers whose bucket policy refuses another encryption and another key', async () => {
    expect(
      await violationsOf(awsS3StoreKeyOnly, storeFixture({ key: true, policy: generalPurpose })),
    ).toEqual([]);
    expect(
      await violationsOf(awsS3StoreKeyOnly, storeFixture({ key: true, directory: true, policy: directory })),
    ).toEqual([]);
  });

  it('passes a store without a key of its own', async () => {
    expect(await violationsOf(awsS3StoreKeyOnly, storeFixture({}))).toEqual([]);
  });

  it('flags a directory bucket that only refuses SSE-S3: a session naming another key gets through', async () => {
    const messages = await violationsOf(
      awsS3StoreKeyOnly,
      storeFixture({ key: true, directory: true, policy: directory.slice(0, 1) }),
    );
    expect(messages.map((message) => message.split(' is not refused')[0])).toEqual([
      'store ckpt: a session asking for another KMS key',
    ]);
  });

  it('flags a general purpose bucket without a policy, for both', async () => {
    const messages = await violationsOf(awsS3StoreKeyOnly, storeFixture({ key: true }));
    expect(messages.map((message) => message.split(' is not refused')[0])).toEqual([
      'store ckpt: an upload asking for SSE-S3',
      'store ckpt: an upload asking for another KMS key',
    ]);
  });
});
