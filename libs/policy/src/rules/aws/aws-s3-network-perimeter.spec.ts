import { violationsOf } from '../../../testing';
import { awsS3NetworkPerimeter } from './aws-s3-network-perimeter';
import { FIXTURE_BUCKET, storeFixture } from '../../../testing/aws';

const OBJECTS = `arn:aws:s3:::${FIXTURE_BUCKET}/*`;
const writer = [
  { Sid: 'ReadWrite', Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: [OBJECTS] },
];
const perimeter = {
  Sid: 'DenyDataOutsidePerimeter',
  Effect: 'Deny',
  Principal: '*',
  Action: ['s3:GetObject*', 's3:PutObject*', 's3:DeleteObject*'],
  Resource: [OBJECTS],
  Condition: {
    StringNotEqualsIfExists: { 'aws:SourceVpce': ['vpce-0a1b2c3d4e5f60718'] },
    BoolIfExists: { 'aws:PrincipalIsAWSService': 'false' },
  },
};

describe('aws-s3-network-perimeter', () => {
  it('passes a prod store whose bucket policy denies data outside its endpoint', async () => {
    expect(await violationsOf(awsS3NetworkPerimeter, storeFixture({ policy: [perimeter], writer }))).toEqual(
      [],
    );
  });

  it('passes a store declared public, and a dev store', async () => {
    expect(await violationsOf(awsS3NetworkPerimeter, storeFixture({ publicNetwork: true, writer }))).toEqual(
      [],
    );
    expect(await violationsOf(awsS3NetworkPerimeter, storeFixture({ environment: 'dev', writer }))).toEqual(
      [],
    );
  });

  it('flags a prod store whose writer reads and writes from anywhere', async () => {
    const messages = await violationsOf(awsS3NetworkPerimeter, storeFixture({ writer }));
    expect(
      messages.filter((message) => message.startsWith('store ckpt: writer can read from the internet')),
    ).toHaveLength(1);
    expect(
      messages.filter((message) => message.startsWith('store ckpt: writer can write from another VPC')),
    ).toHaveLength(1);
  });

  it('flags a perimeter that only covers writes: reads still leave', async () => {
    const writesOnly = { ...perimeter, Action: ['s3:PutObject*'] };
    const messages = await violationsOf(
      awsS3NetworkPerimeter,
      storeFixture({ policy: [writesOnly], writer }),
    );
    expect(
      messages.some((message) => message.startsWith('store ckpt: writer can read from the internet')),
    ).toBe(true);
    expect(messages.some((message) => message.includes('can write'))).toBe(false);
  });
});
