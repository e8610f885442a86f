import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsS3TlsOnly } from './aws-s3-tls-only';
import {
  BUCKET_ARN,
  compliantBucket,
  compliantDirectoryBucket,
  DIRECTORY_ARN,
  doc,
  tlsDenyStatement,
} from '../../../testing/aws';

const GENERAL =
  'expected a Deny for Principal "*" of s3:* on the bucket and its objects when aws:SecureTransport is "false"';
const DIRECTORY =
  'expected a Deny for Principal "*" of s3express:CreateSession on the bucket when aws:SecureTransport is "false"';
const everything = [BUCKET_ARN, `${BUCKET_ARN}/*`];

describe('aws-s3-tls-only', () => {
  it('passes buckets of both kinds whose policy denies insecure transport', async () => {
    expect(await violationsOf(awsS3TlsOnly, [...compliantBucket(), ...compliantDirectoryBucket()])).toEqual(
      [],
    );
  });

  it('passes the usual variants: {"AWS": "*"}, Action "*", a wildcard ARN, BoolIfExists, a boolean false', async () => {
    const statement = {
      Effect: 'Deny',
      Principal: { AWS: ['*'] },
      Action: '*',
      Resource: 'arn:aws:s3:::ckpt-*',
      Condition: { BoolIfExists: { 'aws:SecureTransport': false } },
    };
    const resources = compliantBucket({ bucketPolicy: { policy: doc(statement) } });
    expect(await violationsOf(awsS3TlsOnly, resources)).toEqual([]);
  });

  it('passes a first preview, where the policy text (built from the ARN) is unknown', async () => {
    const resources = compliantBucket({ bucketPolicy: { policy: UNKNOWN_STRING } });
    expect(await violationsOf(awsS3TlsOnly, onPreview(resources))).toEqual([]);
  });

  it('flags buckets of both kinds with no bucket policy', async () => {
    const missing = 'has no BucketPolicy; expected one that denies requests with aws:SecureTransport "false"';
    expect(
      await violationsOf(awsS3TlsOnly, [
        ...compliantBucket({ bucketPolicy: null }),
        ...compliantDirectoryBucket({ bucketPolicy: null }),
      ]),
    ).toEqual([`bucket 'ckpt-bucket' ${missing}`, `bucket 'ckpt--use1-az4--x-s3' ${missing}`]);
  });

  it.each([
    ['an Allow instead of a Deny', { ...tlsDenyStatement(['s3:*'], everything), Effect: 'Allow' }],
    ['a deny of GetObject only', tlsDenyStatement(['s3:GetObject'], everything)],
    ['a deny that misses the objects', tlsDenyStatement(['s3:*'], [BUCKET_ARN])],
    ['a deny of another bucket', tlsDenyStatement(['s3:*'], ['arn:aws:s3:::other', 'arn:aws:s3:::other/*'])],
    [
      'a deny on TLS version only',
      {
        ...tlsDenyStatement(['s3:*'], everything),
        Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
      },
    ],
    [
      'a deny for one account only',
      { ...tlsDenyStatement(['s3:*'], everything), Principal: { AWS: ['111122223333'] } },
    ],
  ])('flags a general purpose bucket policy with %s', async (_title, statement) => {
    expect(
      await violationsOf(awsS3TlsOnly, compliantBucket({ bucketPolicy: { policy: doc(statement) } })),
    ).toEqual([
      `BucketPolicy 'ckpt-bucket-bucketPolicy': policy does not deny insecure transport; ${GENERAL}`,
    ]);
  });

  it('flags a directory bucket policy that only denies s3 actions, which directory buckets never see', async () => {
    const policy = doc(tlsDenyStatement(['s3:*'], [DIRECTORY_ARN]));
    expect(await violationsOf(awsS3TlsOnly, compliantDirectoryBucket({ bucketPolicy: { policy } }))).toEqual([
      `BucketPolicy 'fast-bucket-bucketPolicy': policy does not deny insecure transport; ${DIRECTORY}`,
    ]);
  });

  it('flags a policy that is not JSON', async () => {
    expect(
      await violationsOf(awsS3TlsOnly, compliantBucket({ bucketPolicy: { policy: 'deny http' } })),
    ).toEqual([`BucketPolicy 'ckpt-bucket-bucketPolicy': policy is not a JSON policy document; ${GENERAL}`]);
  });
});
