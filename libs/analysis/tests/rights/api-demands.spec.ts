import type { RenderedResource } from '@checkpoints/render';
import { missingDeployRights } from '../../src';

const ACCOUNT = '123456789012';
const ROOT = `arn:aws:iam::${ACCOUNT}:root`;
const DEPLOY_ROLE = 'checkpoints-ci-deploy-prod';
const DEPLOY_ARN = `arn:aws:iam::${ACCOUNT}:role/${DEPLOY_ROLE}`;

const base = { parent: null, protect: true, retainOnDelete: true, dependsOn: [] as string[] };
const resource = (type: string, name: string, inputs: Record<string, unknown>): RenderedResource => ({
  ...base,
  urn: `urn:${type}::${name}`,
  type,
  name,
  inputs,
});

/** The deploy role: every key action but PutKeyPolicy, as the bootstrap grants it (no key policy changes). */
const bootstrap = {
  resources: [
    resource('aws:iam/role:Role', 'deploy-prod', { name: DEPLOY_ROLE }),
    resource('aws:iam/rolePolicy:RolePolicy', 'deploy-prod-permissions', {
      role: DEPLOY_ROLE,
      name: 'permissions',
      policy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: [
              'kms:CreateKey',
              'kms:TagResource',
              'kms:UntagResource',
              'kms:EnableKeyRotation',
              'kms:DescribeKey',
              'kms:UpdateKeyDescription',
              'kms:GetKeyPolicy',
              'kms:GetKeyRotationStatus',
              'kms:ListResourceTags',
            ],
            Resource: '*',
          },
        ],
      }),
    }),
  ],
};

const accountStatement = {
  Sid: 'Enable IAM User Permissions',
  Effect: 'Allow',
  Principal: { AWS: ROOT },
  Action: 'kms:*',
  Resource: '*',
};

function keyRender(policy?: object) {
  return {
    resources: [
      resource('aws:kms/key:Key', 'audit-key', {
        ...(policy ? { policy: JSON.stringify(policy) } : {}),
      }),
    ],
  };
}

const lockout = async (policy?: object) =>
  (await missingDeployRights('aws', keyRender(policy), bootstrap, 'prod')).filter(
    (missing) => missing.permission === 'kms:PutKeyPolicy',
  );

describe('API demands: the KMS key policy lockout check', () => {
  it('fails a key whose policy only delegates to IAM when the deploy role may not PutKeyPolicy', async () => {
    const found = await lockout({ Version: '2012-10-17', Statement: [accountStatement] });
    expect(found.map((m) => [m.operation, m.identity])).toEqual([
      ['create', 'ci deploy-prod'],
      ['update', 'ci deploy-prod'],
    ]);
  });

  it('passes a key whose policy names the deploy role for PutKeyPolicy', async () => {
    const named = {
      Sid: 'AllowTheDeployRoleToKeepThisKeyPolicy',
      Effect: 'Allow',
      Principal: { AWS: DEPLOY_ARN },
      Action: ['kms:GetKeyPolicy', 'kms:PutKeyPolicy'],
      Resource: '*',
    };
    expect(await lockout({ Version: '2012-10-17', Statement: [accountStatement, named] })).toEqual([]);
  });

  it('fails one that names another role', async () => {
    const other = {
      Effect: 'Allow',
      Principal: { AWS: `arn:aws:iam::${ACCOUNT}:role/someone-else` },
      Action: 'kms:PutKeyPolicy',
      Resource: '*',
    };
    expect(await lockout({ Version: '2012-10-17', Statement: [accountStatement, other] })).toHaveLength(2);
  });

  it("demands nothing of a key created past the check on purpose: its policy is out of the deploy role's reach", async () => {
    const render = keyRender({ Version: '2012-10-17', Statement: [accountStatement] });
    render.resources[0]!.inputs['bypassPolicyLockoutSafetyCheck'] = true;
    const found = (await missingDeployRights('aws', render, bootstrap, 'prod')).filter(
      (missing) => missing.permission === 'kms:PutKeyPolicy',
    );
    expect(found).toEqual([]);
  });

  it('demands nothing of a key with the default key policy (no policy given: no check)', async () => {
    expect(await lockout()).toEqual([]);
  });
});

describe('API demands: a directory bucket encrypted with its key (PutBucketEncryption, SSE-KMS)', () => {
  const BUCKET = 'checkpoints-aws-prod-fast-0a1b2c--use1-az4--x-s3';
  const KEY = `arn:aws:kms:us-east-1:${ACCOUNT}:key/0a1b2c3d-0000-4000-8000-000000000001`;
  const encryption = (bucket: string, sseAlgorithm: string) =>
    resource(
      'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
      'fast-encryption',
      {
        bucket,
        rules: [
          {
            applyServerSideEncryptionByDefault: {
              sseAlgorithm,
              ...(sseAlgorithm === 'aws:kms' ? { kmsMasterKeyId: KEY } : {}),
            },
          },
        ],
      },
    );
  const deployRole = (keyStatement?: object) => ({
    resources: [
      resource('aws:iam/role:Role', 'deploy-prod', { name: DEPLOY_ROLE }),
      resource('aws:iam/rolePolicy:RolePolicy', 'deploy-prod-permissions', {
        role: DEPLOY_ROLE,
        name: 'permissions',
        policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Action: ['s3express:PutEncryptionConfiguration', 's3express:GetEncryptionConfiguration'],
              Resource: `arn:aws:s3express:us-east-1:${ACCOUNT}:bucket/*`,
            },
            ...(keyStatement ? [keyStatement] : []),
          ],
        }),
      }),
    ],
  });
  const pinned = (viaService: string) => ({
    Effect: 'Allow',
    Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
    Resource: `arn:aws:kms:*:${ACCOUNT}:key/*`,
    Condition: {
      StringLike: {
        'kms:ViaService': viaService,
        'kms:EncryptionContext:aws:s3express:arn': `arn:aws:s3express:*:${ACCOUNT}:bucket/checkpoints-aws-prod-*--x-s3`,
      },
    },
  });
  const missingOf = async (render: { resources: RenderedResource[] }, keyStatement?: object) =>
    (await missingDeployRights('aws', render, deployRole(keyStatement), 'prod'))
      .filter((missing) => missing.identity === 'ci deploy-prod')
      .map((missing) => `${missing.operation} ${missing.permission} ${missing.on}`);

  it('demands kms:GenerateDataKey and kms:Decrypt on the key, on create and update, of a deploy role without them', async () => {
    expect(await missingOf({ resources: [encryption(BUCKET, 'aws:kms')] })).toEqual([
      `create kms:GenerateDataKey ${KEY}`,
      `create kms:Decrypt ${KEY}`,
      `update kms:GenerateDataKey ${KEY}`,
      `update kms:Decrypt ${KEY}`,
    ]);
  });

  it('as S3 Express calls KMS for the bucket: a grant through S3 (general purpose) does not do', async () => {
    const render = { resources: [encryption(BUCKET, 'aws:kms')] };
    expect(await missingOf(render, pinned('s3.*.amazonaws.com'))).toHaveLength(4);
    expect(await missingOf(render, pinned('s3express.*.amazonaws.com'))).toEqual([]);
  });

  it('demands no key of SSE-S3, nor of a general purpose bucket (PutBucketEncryption there names the key only)', async () => {
    const keyDemands = async (resources: RenderedResource[]) =>
      (await missingDeployRights('aws', { resources }, deployRole(), 'prod')).filter((missing) =>
        missing.permission.startsWith('kms:'),
      );
    expect(await keyDemands([encryption(BUCKET, 'AES256')])).toEqual([]);
    expect(await keyDemands([encryption('checkpoints-aws-prod-fast-0a1b2c', 'aws:kms')])).toEqual([]);
  });
});

describe("a service role's trust and deletion: an administrator's, not rights CI must hold", () => {
  // The deploy role holds no IAM rights: every right a role's create, update and delete needs is missing.
  const roleRender = (trusted: object) => ({
    resources: [
      {
        ...resource('aws:iam/role:Role', 'replication', {
          name: 'checkpoints-aws-prod-llm-pretrain-replication-0d2516',
          assumeRolePolicy: JSON.stringify({
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow', Principal: trusted, Action: 'sts:AssumeRole' }],
          }),
        }),
        protect: false,
        retainOnDelete: false,
      },
    ],
  });
  const missing = async (trusted: object) =>
    (await missingDeployRights('aws', roleRender(trusted), bootstrap, 'prod'))
      .filter((right) => right.identity === 'ci deploy-prod')
      .map((right) => right.permission);

  it('demands neither a new trust nor deletion of a role only S3 may assume', async () => {
    const demanded = await missing({ Service: 's3.amazonaws.com' });
    expect(demanded).toContain('iam:CreateRole');
    expect(demanded).not.toContain('iam:UpdateAssumeRolePolicy');
    expect(demanded).not.toContain('iam:DeleteRole');
  });

  it('demands both of a role another principal may assume', async () => {
    const demanded = await missing({ AWS: ROOT });
    expect(demanded).toEqual(expect.arrayContaining(['iam:UpdateAssumeRolePolicy', 'iam:DeleteRole']));
  });
});
