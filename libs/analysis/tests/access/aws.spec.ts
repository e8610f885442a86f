import { storesOf, type RenderedResource } from '@checkpoints/render';
import { analyzeAccess, awsStoreAccess, type AwsNetworkOrigin, type Operation } from '../../src';
import { renderOf, resource } from './fixtures';

/**
 * The AWS model, one row per documented rule of IAM, S3 and KMS authorization. Each row renders a store
 * with one principal's policies and asks whether the principal can perform one operation.
 */
const ACCOUNT = '123456789012';
const BUCKET = 'ckpt-bucket';
const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/1111-2222`;
const TAGS = { environment: 'prod', 'pulumi-project': 'checkpoints-aws', 'pulumi-stack': 'prod' };
const doc = (...statements: object[]) => JSON.stringify({ Version: '2012-10-17', Statement: statements });
const allow = (Action: string[], Resource: string[], Condition?: object) => ({
  Effect: 'Allow',
  Action,
  Resource,
  ...(Condition ? { Condition } : {}),
});
const deny = (Action: string[], Resource: string[]) => ({ Effect: 'Deny', Action, Resource });

interface Row {
  rule: string;
  source: string;
  /** The store's writer role: its inline policy and, optionally, its boundary. */
  writer?: { policy: object[]; boundary?: object[] };
  /** A CI deploy role of `environment`, from a bootstrap render. */
  ci?: { environment: string; policy: object[] };
  keyPolicy?: object[];
  /** The bucket's own policy (absent: none). */
  bucketPolicy?: object[];
  /** Where the requests come from (absent: inside the bucket policy's perimeter, if any). */
  origin?: AwsNetworkOrigin;
  directory?: boolean;
  principal: string;
  operation: Operation;
  expected: boolean;
}

const rows: Row[] = [
  {
    rule: 'reading an SSE-KMS object needs kms:Decrypt on its key as well as s3:GetObject',
    source: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingKMSEncryption.html',
    writer: { policy: [allow(['s3:GetObject'], [`arn:aws:s3:::${BUCKET}/*`])] },
    principal: 'writer',
    operation: 'read',
    expected: false,
  },
  {
    rule: 'with kms:Decrypt through S3 and the default key policy, the same writer reads',
    source: 'https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html',
    writer: {
      policy: [
        allow(['s3:GetObject'], [`arn:aws:s3:::${BUCKET}/*`]),
        allow(['kms:Decrypt'], [KEY], { StringEquals: { 'kms:ViaService': 's3.us-east-1.amazonaws.com' } }),
      ],
    },
    principal: 'writer',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'a key policy without the account statement shuts the account’s IAM policies out of the key',
    source:
      'https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html#key-policy-default-allow-root-enable-iam',
    keyPolicy: [
      {
        Sid: 'OnlyAService',
        Effect: 'Allow',
        Principal: { Service: 's3.amazonaws.com' },
        Action: 'kms:Decrypt',
        Resource: '*',
      },
    ],
    principal: 'account administrators',
    operation: 'destroy-key',
    expected: false,
  },
  {
    rule: 'with the default key policy an account administrator may schedule the key’s deletion',
    source: 'https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html',
    principal: 'account administrators',
    operation: 'destroy-key',
    expected: true,
  },
  {
    rule: 'a permissions boundary caps what the identity policy allows',
    source: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html',
    writer: {
      policy: [allow(['s3:DeleteBucket'], [`arn:aws:s3:::${BUCKET}`])],
      boundary: [allow(['s3:ListBucket'], [`arn:aws:s3:::${BUCKET}`])],
    },
    principal: 'writer',
    operation: 'delete-store',
    expected: false,
  },
  {
    rule: 'an explicit deny overrides every allow',
    source: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html',
    ci: {
      environment: 'prod',
      policy: [allow(['s3:DeleteBucket'], ['arn:aws:s3:::*']), deny(['s3:DeleteBucket'], ['*'])],
    },
    principal: 'ci deploy-prod',
    operation: 'delete-store',
    expected: false,
  },
  {
    rule: 'a ReadOnly session on a directory bucket cannot write',
    source: 'https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateSession.html',
    directory: true,
    writer: {
      policy: [
        allow(
          ['s3express:CreateSession'],
          [`arn:aws:s3express:us-east-1:${ACCOUNT}:bucket/${BUCKET}--use1-az4--x-s3`],
          {
            StringEquals: { 's3express:SessionMode': 'ReadOnly' },
          },
        ),
      ],
    },
    principal: 'writer',
    operation: 'write',
    expected: false,
  },
  {
    rule: 'tags govern key access (ABAC): tagging any key with one’s own environment’s tags changes another environment’s key',
    source: 'https://docs.aws.amazon.com/kms/latest/developerguide/abac.html',
    ci: {
      environment: 'dev',
      policy: [
        allow(['kms:TagResource'], [`arn:aws:kms:*:${ACCOUNT}:key/*`], {
          StringEquals: { 'aws:RequestTag/pulumi-stack': 'dev' },
        }),
      ],
    },
    principal: 'ci deploy-dev',
    operation: 'change-access',
    expected: true,
  },
  {
    rule: 'requiring the key’s own tags, if any, to be one’s environment’s stops it',
    source:
      'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_IfExists',
    ci: {
      environment: 'dev',
      policy: [
        allow(['kms:TagResource'], [`arn:aws:kms:*:${ACCOUNT}:key/*`], {
          StringEquals: { 'aws:RequestTag/pulumi-stack': 'dev' },
          StringEqualsIfExists: { 'aws:ResourceTag/pulumi-stack': 'dev' },
        }),
      ],
    },
    principal: 'ci deploy-dev',
    operation: 'change-access',
    expected: false,
  },
  {
    rule: 'whoever may rewrite a role’s trust policy to name itself may assume the role (same account)',
    source:
      'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic-cross-account.html',
    ci: {
      environment: 'prod',
      policy: [allow(['iam:UpdateAssumeRolePolicy'], [`arn:aws:iam::${ACCOUNT}:role/*`])],
    },
    principal: 'ci deploy-prod',
    operation: 'act-as',
    expected: true,
  },
  {
    rule: 'an explicit deny of sts:AssumeRole keeps it out even then',
    source: 'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html',
    ci: {
      environment: 'prod',
      policy: [
        allow(['iam:UpdateAssumeRolePolicy'], [`arn:aws:iam::${ACCOUNT}:role/*`]),
        deny(['sts:AssumeRole'], ['*']),
      ],
    },
    principal: 'ci deploy-prod',
    operation: 'act-as',
    expected: false,
  },
  {
    rule: 'a bucket policy in the same account grants on its own: whoever may write it may give itself the data',
    source: 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-policy-language-overview.html',
    ci: {
      environment: 'prod',
      policy: [allow(['s3:PutBucketPolicy'], ['arn:aws:s3:::*']), allow(['kms:Decrypt'], ['*'])],
    },
    principal: 'ci deploy-prod',
    operation: 'self-grant',
    expected: true,
  },
];

/** A writer that may read the store, the starting point of the perimeter rows. */
const READING_WRITER = {
  policy: [
    allow(['s3:GetObject'], [`arn:aws:s3:::${BUCKET}/*`]),
    allow(['kms:Decrypt'], [KEY], { StringEquals: { 'kms:ViaService': 's3.us-east-1.amazonaws.com' } }),
  ],
};
const ENDPOINT = 'vpce-0a1b2c3d4e5f60718';
const VPC = 'vpc-0a1b2c3d4e5f60718';
/** The perimeter statement of AWS's data perimeter examples: deny unless from the listed endpoint or range. */
const perimeterDeny = (condition: object) => ({
  Sid: 'DenyDataOutsidePerimeter',
  Effect: 'Deny',
  Principal: '*',
  Action: ['s3:GetObject*', 's3:PutObject*'],
  Resource: [`arn:aws:s3:::${BUCKET}/*`],
  Condition: { ...condition, BoolIfExists: { 'aws:PrincipalIsAWSService': 'false' } },
});
const VPCE_OR_RANGE = perimeterDeny({
  StringNotEqualsIfExists: { 'aws:SourceVpce': [ENDPOINT] },
  NotIpAddressIfExists: { 'aws:SourceIp': ['203.0.113.0/24'] },
});
const IP_SOURCE =
  'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-sourceip';
const VPCE_SOURCE =
  'https://docs.aws.amazon.com/AmazonS3/latest/userguide/example-bucket-policies-vpc-endpoint.html';

rows.push(
  {
    rule: 'perimeter: a request through the listed VPC endpoint is allowed',
    source: VPCE_SOURCE,
    writer: READING_WRITER,
    bucketPolicy: [VPCE_OR_RANGE],
    origin: { vpcEndpoint: ENDPOINT, vpc: VPC },
    principal: 'writer',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'perimeter: through another VPC endpoint it is denied',
    source: VPCE_SOURCE,
    writer: READING_WRITER,
    bucketPolicy: [VPCE_OR_RANGE],
    origin: { vpcEndpoint: 'vpce-11111111111111111', vpc: VPC },
    principal: 'writer',
    operation: 'read',
    expected: false,
  },
  {
    rule: 'perimeter: from the internet outside the listed range it is denied, even for the account',
    source: IP_SOURCE,
    writer: READING_WRITER,
    bucketPolicy: [VPCE_OR_RANGE],
    origin: { sourceIp: '198.51.100.7' },
    principal: 'writer',
    operation: 'read',
    expected: false,
  },
  {
    rule: 'perimeter: from an address of the listed range it is allowed (no endpoint: aws:SourceVpce absent)',
    source: IP_SOURCE,
    writer: READING_WRITER,
    bucketPolicy: [VPCE_OR_RANGE],
    origin: { sourceIp: '203.0.113.9' },
    principal: 'writer',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'perimeter: a listed VPC admits every endpoint of it (aws:SourceVpc)',
    source:
      'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-sourcevpc',
    writer: READING_WRITER,
    bucketPolicy: [perimeterDeny({ StringNotEqualsIfExists: { 'aws:SourceVpc': [VPC] } })],
    origin: { vpcEndpoint: 'vpce-11111111111111111', vpc: VPC },
    principal: 'writer',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'perimeter: one statement ANDs its keys, so listing endpoint and range in two statements would deny both',
    source:
      'https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-logic-multiple-context-keys-or-values.html',
    writer: READING_WRITER,
    bucketPolicy: [
      perimeterDeny({ StringNotEqualsIfExists: { 'aws:SourceVpce': [ENDPOINT] } }),
      perimeterDeny({ NotIpAddressIfExists: { 'aws:SourceIp': ['203.0.113.0/24'] } }),
    ],
    origin: { vpcEndpoint: ENDPOINT, vpc: VPC },
    principal: 'writer',
    operation: 'read',
    expected: false,
  },
);

function storeRender(row: Row) {
  const bucketName = row.directory ? `${BUCKET}--use1-az4--x-s3` : BUCKET;
  const writerName = 'ckpt-writer-role';
  return renderOf({ type: 'checkpoints:aws:CheckpointStore' }, [
    resource(
      row.directory ? 'aws:s3/directoryBucket:DirectoryBucket' : 'aws:s3/bucket:Bucket',
      'ckpt-bucket',
      { bucket: bucketName, tags: TAGS },
    ),
    resource('aws:kms/key:Key', 'ckpt-key', {
      tags: TAGS,
      ...(row.keyPolicy ? { policy: doc(...row.keyPolicy) } : {}),
    }),
    resource(
      'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
      'ckpt-encryption',
      {
        bucket: bucketName,
        rules: [{ applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: KEY } }],
      },
    ),
    resource('aws:iam/role:Role', 'ckpt-writer', {
      name: writerName,
      assumeRolePolicy: doc({
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:role/trainer` },
        Action: 'sts:AssumeRole',
      }),
      ...(row.writer?.boundary ? { permissionsBoundary: `arn:aws:iam::${ACCOUNT}:policy/boundary` } : {}),
    }),
    resource('aws:iam/rolePolicy:RolePolicy', 'ckpt-writer-access', {
      role: writerName,
      name: 'access',
      policy: doc(...(row.writer?.policy ?? [])),
    }),
    ...(row.bucketPolicy
      ? [
          resource('aws:s3/bucketPolicy:BucketPolicy', 'ckpt-policy', {
            bucket: bucketName,
            policy: doc(...row.bucketPolicy),
          }),
        ]
      : []),
  ]);
}

function bootstrapRender(row: Row) {
  const resources = [
    ...(row.writer?.boundary
      ? [
          resource('aws:iam/policy:Policy', 'boundary', {
            name: 'boundary',
            policy: doc(...row.writer.boundary),
          }),
        ]
      : []),
    ...(row.ci
      ? [
          resource('aws:iam/role:Role', `deploy-${row.ci.environment}`, {
            name: `ci-deploy-${row.ci.environment}`,
          }),
          resource('aws:iam/rolePolicy:RolePolicy', 'permissions', {
            role: `ci-deploy-${row.ci.environment}`,
            name: 'ci',
            policy: doc(...row.ci.policy),
          }),
        ]
      : []),
  ];
  return renderOf({ type: 'checkpoints:bootstrap:AwsCiIdentities', name: 'aws' }, resources);
}

describe('AWS effective access', () => {
  it.each(rows.map((row) => [row.rule, row] as const))('%s', async (_rule, row) => {
    const render = storeRender(row);
    const bootstrap = bootstrapRender(row);
    const [rendered] = storesOf(render);
    const grants = row.origin
      ? await awsStoreAccess({ store: rendered!, render, bootstrap }, row.origin)
      : (await analyzeAccess(render, bootstrap)).stores[0]?.grants;
    const granted = grants?.some(
      (grant) => grant.principal.label === row.principal && grant.operation === row.operation,
    );
    expect([row.source, granted]).toEqual([row.source, row.expected]);
  });

  it('with operations, gives exactly the grants of the whole analysis that name one of them', async () => {
    const subsets: Operation[][] = [
      ['read', 'write', 'delete', 'open-session'],
      ['act-as'],
      ['self-grant', 'use-key'],
    ];
    let compared = 0;
    for (const row of rows) {
      const render = storeRender(row);
      const bootstrap = bootstrapRender(row);
      const [rendered] = storesOf(render);
      const input = { store: rendered!, render, bootstrap };
      const all = await awsStoreAccess(input, row.origin);
      for (const operations of subsets) {
        const expected = all.filter((grant) => operations.includes(grant.operation));
        expect(await awsStoreAccess(input, row.origin, operations)).toEqual(expected);
        compared += expected.length;
      }
    }
    // The fixtures grant each kind of subset somewhere, so the comparison is not of empty lists only.
    expect(compared).toBeGreaterThan(rows.length);
  });

  it('a boundary in a frozen list caps the writer on every call; one removed from a list that may change no longer does', async () => {
    const [row] = rows.filter(
      (r) => r.rule === 'a permissions boundary caps what the identity policy allows',
    );
    const render = storeRender(row!);
    const [rendered] = storesOf(render);
    const writerMay = async (bootstrap: { resources: RenderedResource[] }) =>
      (await awsStoreAccess({ store: rendered!, render, bootstrap })).some(
        (grant) => grant.principal.label === 'writer' && grant.operation === 'delete-store',
      );
    const frozen = bootstrapRender(row!);
    Object.freeze(frozen.resources);
    expect(await writerMay(frozen)).toBe(false);
    expect(await writerMay(frozen)).toBe(false);
    // The same list without the boundary policy: the writer's own policy is no longer capped.
    const changing = bootstrapRender(row!);
    expect(await writerMay(changing)).toBe(false);
    changing.resources.splice(
      changing.resources.findIndex((r) => r.type === 'aws:iam/policy:Policy'),
      1,
    );
    expect(await writerMay(changing)).toBe(true);
  });

  it('names the statement that grants, and lets the principals the trust policy names act through the role', async () => {
    const [row] = rows.filter((r) => r.rule.startsWith('with kms:Decrypt'));
    const [store] = (await analyzeAccess(storeRender(row!), bootstrapRender(row!))).stores;
    const trainer = store?.grants.find(
      (grant) => grant.principal.id === `arn:aws:iam::${ACCOUNT}:role/trainer` && grant.operation === 'read',
    );
    expect(trainer?.principal.kind).toBe('declared');
    expect(trainer?.reason).toMatch(
      /^assumes writer \(its trust policy, a statement\), which s3:GetObject: policy access #1; kms:Decrypt: policy access #2, key policy Enable IAM User Permissions$/,
    );
  });
});
