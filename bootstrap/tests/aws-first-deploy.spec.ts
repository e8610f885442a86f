import { names } from '@checkpoints/naming';
import { AWS_ACCOUNT_ID } from '@checkpoints/synth';
import {
  awsRequestAllowed,
  type AwsPrincipal,
  type PolicyDocument as AnalysisPolicyDocument,
} from '@checkpoints/analysis';
import { deployPolicy, deployStatePolicy, previewPolicy, previewStatePolicy } from '../src/aws/policies';

const ACCOUNT = { partition: 'aws', accountId: AWS_ACCOUNT_ID };
const STATE_BUCKET = 'acme-pulumi-state';
const STATE = `arn:aws:s3:::${STATE_BUCKET}`;

const role = (label: string, kind: 'ci-deploy' | 'ci-preview', policies: object[]): AwsPrincipal => ({
  principal: { id: label, label, kind },
  arn: `arn:aws:iam::${AWS_ACCOUNT_ID}:role/checkpoints-ci-${label}`,
  policies: policies.map((policy, index) => ({
    name: `policy-${index}`,
    policy: policy as AnalysisPolicyDocument,
  })),
});

describe('a self-managed S3 state backend: the CI roles reach their state through their own data deny (iam-simulate)', () => {
  const deploy = role('deploy-prod', 'ci-deploy', [
    deployPolicy(ACCOUNT, 'prod', STATE_BUCKET),
    deployStatePolicy(ACCOUNT, STATE_BUCKET, 'prod'),
  ]);
  const preview = role('preview', 'ci-preview', [
    previewPolicy(ACCOUNT, ['dev', 'prod'], STATE_BUCKET),
    previewStatePolicy(ACCOUNT, STATE_BUCKET),
  ]);
  const ask = (principal: AwsPrincipal, action: string, resource: string) =>
    awsRequestAllowed(principal, { action, resource });

  it.each([
    ['s3:GetObject', `${STATE}/.pulumi/stacks/checkpoints-aws/prod.json`],
    ['s3:PutObject', `${STATE}/.pulumi/stacks/checkpoints-aws/prod.json`],
    ['s3:PutObject', `${STATE}/.pulumi/locks/organization/checkpoints-aws/prod/0a1b.json`],
    ['s3:GetObject', `${STATE}/.pulumi/meta.yaml`],
  ])('the prod deploy role may %s %s', async (action, resource) => {
    expect(await ask(deploy, action, resource)).toBeDefined();
  });

  it('the preview role reads the stacks’ state and takes their locks', async () => {
    expect(
      await ask(preview, 's3:GetObject', `${STATE}/.pulumi/stacks/checkpoints-aws/prod.json`),
    ).toBeDefined();
    expect(
      await ask(
        preview,
        's3:PutObject',
        `${STATE}/.pulumi/locks/organization/checkpoints-aws/prod/0a1b.json`,
      ),
    ).toBeDefined();
  });

  it('while checkpoint objects, other objects of the state bucket and every key stay denied', async () => {
    const store = names.s3Bucket({ project: 'checkpoints-aws', stack: 'prod', store: 'llm-pretrain' });
    // Grant the deploy role everything on top: the deny still wins.
    const greedy = role('deploy-prod', 'ci-deploy', [
      deployPolicy(ACCOUNT, 'prod', STATE_BUCKET),
      { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: ['s3:*', 'kms:*'], Resource: ['*'] }] },
    ]);
    expect(
      await ask(greedy, 's3:GetObject', `arn:aws:s3:::${store}/step-100/model.safetensors`),
    ).toBeUndefined();
    expect(await ask(greedy, 's3:GetObject', `${STATE}/not-state/secret.txt`)).toBeUndefined();
    expect(
      await ask(greedy, 'kms:Decrypt', `arn:aws:kms:us-east-1:${AWS_ACCOUNT_ID}:key/0a1b2c3d`),
    ).toBeUndefined();
  });
});
