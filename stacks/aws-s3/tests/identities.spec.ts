import { customResources, ofType, type RenderedResource, type Snapshot } from '@checkpoints/synth';
import type { AwsPolicyDocument } from '@checkpoints/translate';
import { ACCOUNT, ACCOUNT_ROOT, documentOf, renderStack, resource, TYPES } from './render-stack';

const trainingRole = `arn:aws:iam::${ACCOUNT}:role/ml-training-jobs`;
const evaluationRole = `arn:aws:iam::${ACCOUNT}:role/ml/evaluation`;
const partnerAccount = 'arn:aws:iam::210987654321:root';

/** Every action a role may take, with the resources and conditions it applies to. */
function grants(document: AwsPolicyDocument): string[] {
  return document.Statement.flatMap((statement) => {
    expect(statement.Effect).toBe('Allow');
    const condition = statement.Condition ? ` if ${JSON.stringify(statement.Condition)}` : '';
    return statement.Action.flatMap((action) =>
      (statement.Resource ?? []).map((target) => `${action} on ${target}${condition}`),
    );
  }).sort();
}

function accessPolicy(snapshot: Snapshot, role: string): { role: unknown; grants: string[] } {
  const policy = resource(snapshot, 'rolePolicy', `${role}-access`);
  return { role: policy.inputs['role'], grants: grants(documentOf(policy)) };
}

describe('standard store roles', () => {
  let snapshot: Snapshot;
  let keyArn: string;
  const bucketArn = 'arn:aws:s3:::checkpoints-aws-prod-llm-pretrain-0d2516';
  const viaS3 = ' if {"StringEquals":{"kms:ViaService":"s3.us-east-1.amazonaws.com"}}';

  beforeAll(async () => {
    snapshot = await renderStack({
      environment: 'prod',
      stores: [
        {
          name: 'llm-pretrain',
          dataClassification: 'confidential',
          access: {
            writers: ['sagemaker.amazonaws.com', trainingRole, 'pods.eks.amazonaws.com'],
            readers: [evaluationRole, partnerAccount],
          },
        },
      ],
      // Another account's principal on a prod store is listed with why, or refused.
      extra: {
        'checkpoints:externalPrincipals': JSON.stringify([
          { principal: partnerAccount, reason: 'the evaluation partner reads released checkpoints' },
        ]),
      },
    });
    const keyId = resource(snapshot, 'alias', 'llm-pretrain-key-alias').inputs['targetKeyId'] as string;
    keyArn = `arn:aws:kms:us-east-1:${ACCOUNT}:key/${keyId}`;
  });

  it('names the roles per store and purpose', () => {
    expect(resource(snapshot, 'role', 'llm-pretrain-writer').inputs['name']).toBe(
      'checkpoints-aws-prod-llm-pretrain-writer-0d2516',
    );
    expect(resource(snapshot, 'role', 'llm-pretrain-reader').inputs['name']).toBe(
      'checkpoints-aws-prod-llm-pretrain-reader-0d2516',
    );
  });

  it('writer: lists, gets, puts, deletes objects, handles multipart uploads, uses the key through S3', () => {
    expect(accessPolicy(snapshot, 'llm-pretrain-writer')).toEqual({
      role: 'checkpoints-aws-prod-llm-pretrain-writer-0d2516',
      grants: [
        `kms:Decrypt on ${keyArn}${viaS3}`,
        `kms:GenerateDataKey on ${keyArn}${viaS3}`,
        `s3:AbortMultipartUpload on ${bucketArn}/*`,
        `s3:DeleteObject on ${bucketArn}/*`,
        `s3:GetObject on ${bucketArn}/*`,
        `s3:ListBucket on ${bucketArn}`,
        `s3:ListBucketMultipartUploads on ${bucketArn}`,
        `s3:ListMultipartUploadParts on ${bucketArn}/*`,
        `s3:PutObject on ${bucketArn}/*`,
      ],
    });
  });

  it('reader: lists, gets and decrypts, nothing else', () => {
    expect(accessPolicy(snapshot, 'llm-pretrain-reader')).toEqual({
      role: 'checkpoints-aws-prod-llm-pretrain-reader-0d2516',
      grants: [
        `kms:Decrypt on ${keyArn}${viaS3}`,
        `s3:GetObject on ${bucketArn}/*`,
        `s3:ListBucket on ${bucketArn}`,
      ],
    });
  });

  it('writer trust: exactly the configured principals, IAM ARNs and services apart, services for the deploying account only', () => {
    expect(documentOf(resource(snapshot, 'role', 'llm-pretrain-writer'), 'assumeRolePolicy')).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'ConfiguredPrincipals',
          Effect: 'Allow',
          Principal: { AWS: [trainingRole] },
          Action: ['sts:AssumeRole'],
        },
        {
          Sid: 'ConfiguredServices',
          Effect: 'Allow',
          Principal: { Service: ['sagemaker.amazonaws.com'] },
          Action: ['sts:AssumeRole'],
          // The account getCallerIdentity reports, i.e. the one the stack deploys to.
          Condition: { StringEquals: { 'aws:SourceAccount': ACCOUNT } },
        },
        {
          Sid: 'ConfiguredSessionTaggingServices',
          Effect: 'Allow',
          Principal: { Service: ['pods.eks.amazonaws.com'] },
          Action: ['sts:AssumeRole', 'sts:TagSession'],
        },
      ],
    });
  });

  it('reader trust: exactly the configured principals', () => {
    expect(documentOf(resource(snapshot, 'role', 'llm-pretrain-reader'), 'assumeRolePolicy')).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'ConfiguredPrincipals',
          Effect: 'Allow',
          Principal: { AWS: [evaluationRole, partnerAccount] },
          Action: ['sts:AssumeRole'],
        },
      ],
    });
  });

  it('caps both roles with the prod stack’s permissions boundary, which bootstrap creates', () => {
    const boundary = `arn:aws:iam::${ACCOUNT}:policy/checkpoints-aws-prod-store-role-boundary-24b5b6`;
    expect(resource(snapshot, 'role', 'llm-pretrain-writer').inputs['permissionsBoundary']).toBe(boundary);
    expect(resource(snapshot, 'role', 'llm-pretrain-reader').inputs['permissionsBoundary']).toBe(boundary);
  });

  it('creates no IAM user, access key or standalone policy', () => {
    const types = new Set(customResources(snapshot).map((r: RenderedResource) => r.type));
    expect([...types].filter((type) => type.startsWith('aws:iam/')).sort()).toEqual([
      'aws:iam/role:Role',
      'aws:iam/rolePolicy:RolePolicy',
    ]);
  });
});

describe('roles of a store with no configured principals', () => {
  it('trust only the deploying account, leaving access to explicit IAM policies', async () => {
    const snapshot = await renderStack({
      stores: [{ name: 'llm-pretrain', dataClassification: 'internal' }],
    });
    for (const purpose of ['writer', 'reader']) {
      expect(documentOf(resource(snapshot, 'role', `llm-pretrain-${purpose}`), 'assumeRolePolicy')).toEqual({
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'AccountIdentityPolicies',
            Effect: 'Allow',
            Principal: { AWS: [ACCOUNT_ROOT] },
            Action: ['sts:AssumeRole'],
          },
        ],
      });
    }
  });
});

describe('high-throughput store roles', () => {
  let snapshot: Snapshot;
  let bucketArn: string;
  let keyArn: string;

  beforeAll(async () => {
    snapshot = await renderStack({
      stores: [
        {
          name: 'fast-ckpt',
          dataClassification: 'internal',
          tier: 'high-throughput',
          zone: 'use1-az5',
          encryption: 'customer-managed',
          access: { writers: [trainingRole] },
        },
      ],
    });
    const bucketName = resource(snapshot, 'directoryBucket', 'fast-ckpt-bucket').inputs['bucket'] as string;
    expect(bucketName).toMatch(/^checkpoints-aws-dev-fast-ckpt-[0-9a-f]{6}--use1-az5--x-s3$/);
    bucketArn = `arn:aws:s3express:us-east-1:${ACCOUNT}:bucket/${bucketName}`;
    const keyId = resource(snapshot, 'alias', 'fast-ckpt-key-alias').inputs['targetKeyId'] as string;
    keyArn = `arn:aws:kms:us-east-1:${ACCOUNT}:key/${keyId}`;
  });

  it('writer: a read-write session on that bucket, and the key', () => {
    expect(accessPolicy(snapshot, 'fast-ckpt-writer').grants).toEqual([
      `kms:Decrypt on ${keyArn}`,
      `kms:GenerateDataKey on ${keyArn}`,
      `s3express:CreateSession on ${bucketArn}`,
    ]);
  });

  it('caps both roles with the dev stack’s permissions boundary', () => {
    for (const role of ['fast-ckpt-writer', 'fast-ckpt-reader']) {
      expect(resource(snapshot, 'role', role).inputs['permissionsBoundary']).toBe(
        `arn:aws:iam::${ACCOUNT}:policy/checkpoints-aws-dev-store-role-boundary-cd7eb4`,
      );
    }
  });

  it('reader: read-only sessions only, and decrypt', () => {
    expect(accessPolicy(snapshot, 'fast-ckpt-reader').grants).toEqual([
      `kms:Decrypt on ${keyArn}`,
      `s3express:CreateSession on ${bucketArn} if {"StringEquals":{"s3express:SessionMode":"ReadOnly"}}`,
    ]);
  });
});

describe('permissions boundaries', () => {
  it('are set on every role of the stack: the policy named after the project and stack, in the account getCallerIdentity reports', async () => {
    const snapshot = await renderStack({
      stack: 'team-a.eu',
      environment: 'staging',
      stores: [
        { name: 'one', dataClassification: 'internal' },
        { name: 'two', dataClassification: 'internal', tier: 'high-throughput', zone: 'use1-az4' },
      ],
    });
    const roles = ofType(snapshot, TYPES.role);
    expect(roles).toHaveLength(4);
    expect([...new Set(roles.map((role) => role.inputs['permissionsBoundary']))]).toEqual([
      `arn:aws:iam::${ACCOUNT}:policy/checkpoints-aws-team-a-eu-store-role-boundary-58f702`,
    ]);
  });
});
