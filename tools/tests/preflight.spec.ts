/**
 * The AWS preflight against the SDK's own mock (aws-sdk-client-mock) and a stand-in for GitHub's REST API:
 * what it reports, and that every call it makes is a read.
 */
import { join } from 'node:path';
import { mockClient } from 'aws-sdk-client-mock';
import { STSClient, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { IAMClient, GetRoleCommand } from '@aws-sdk/client-iam';
import { S3Client, HeadBucketCommand } from '@aws-sdk/client-s3';
import { main } from '../preflight/run.cjs';

const AWS_STACK = join(__dirname, '..', '..', 'stacks', 'aws-s3');

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      cwd: AWS_STACK,
      env,
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      stdinIsTTY: false,
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

function mocks() {
  const sts = mockClient(STSClient);
  const iam = mockClient(IAMClient);
  const s3 = mockClient(S3Client);
  sts.on(GetCallerIdentityCommand).resolves({
    Account: '123456789012',
    Arn: 'arn:aws:sts::123456789012:assumed-role/admin/me',
  });
  iam.on(GetRoleCommand).resolves({
    Role: {
      RoleName: 'checkpoints-ci-deploy-prod',
      Arn: 'arn:aws:iam::123456789012:role/checkpoints-ci-deploy-prod',
      Path: '/',
      RoleId: 'AROAEXAMPLE',
      CreateDate: new Date(0),
    },
  });
  s3.on(HeadBucketCommand).resolves({});
  const clients = () => ({ sts: new STSClient({}), iam: new IAMClient({}), s3: new S3Client({}) });
  const calls = () =>
    [...sts.calls(), ...iam.calls(), ...s3.calls()].map((call) => call.args[0].constructor.name);
  return { sts, iam, s3, clients, calls, restore: () => [sts, iam, s3].forEach((mock) => mock.restore()) };
}

const github = (status: number) => jest.fn(async () => ({ status, ok: status < 300 }) as Response);
const ENV = {
  GITHUB_REPOSITORY: 'acme/checkpoint-storage',
  GITHUB_TOKEN: 'token',
  PULUMI_BACKEND_URL: 's3://acme-state',
};

describe('checkpoints-preflight (AWS)', () => {
  it('passes when the caller, the deploy role, the state bucket and the GitHub environment are there, with reads only', async () => {
    const aws = mocks();
    const fetch = github(200);
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { clients: aws.clients, fetch })).toBe(0);
      expect(run.out()).toContain('ok   who am I: arn:aws:sts::123456789012:assumed-role/admin/me');
      expect(run.out()).toContain('ok   bootstrap applied: deploy role checkpoints-ci-deploy-prod');
      expect(run.out()).toContain('ok   state backend s3://acme-state reachable');
      expect(aws.calls()).toEqual(['GetCallerIdentityCommand', 'GetRoleCommand', 'HeadBucketCommand']);
      expect(aws.calls().every((name) => /^(Get|List|Head|Describe)/.test(name))).toBe(true);
      expect(fetch).toHaveBeenCalledWith(
        'https://api.github.com/repos/acme/checkpoint-storage/environments/prod',
        expect.objectContaining({ method: 'GET' }),
      );
    } finally {
      aws.restore();
    }
  });

  it('fails naming each missing piece, and asks the rest anyway', async () => {
    const aws = mocks();
    aws.iam
      .on(GetRoleCommand)
      .rejects(Object.assign(new Error('role not found'), { name: 'NoSuchEntityException' }));
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { clients: aws.clients, fetch: github(404) })).toBe(1);
      expect(run.out()).toContain(
        'FAIL bootstrap applied: deploy role checkpoints-ci-deploy-prod: NoSuchEntityException',
      );
      expect(run.out()).toContain(
        'FAIL GitHub environment prod: acme/checkpoint-storage has no environment prod',
      );
      expect(aws.calls()).toContain('HeadBucketCommand');
    } finally {
      aws.restore();
    }
  });

  it('says what to do when there are no credentials, and when there is no GitHub token', async () => {
    const aws = mocks();
    aws.sts
      .on(GetCallerIdentityCommand)
      .rejects(
        Object.assign(new Error('Could not load credentials from any providers'), {
          name: 'CredentialsProviderError',
        }),
      );
    const run = io({});
    try {
      expect(await main(['--stack=prod'], run.io, { clients: aws.clients, fetch: github(200) })).toBe(1);
      expect(run.out()).toContain('FAIL who am I: no AWS credentials: sign in');
      expect(run.out()).toContain('FAIL GitHub environment prod: GITHUB_REPOSITORY is not set');
    } finally {
      aws.restore();
    }
  });

  it('refuses a bad --stack with the value and what is allowed', async () => {
    const run = io();
    expect(await main(['--stack=pr od'], run.io, {})).toBe(2);
    expect(run.err()).toContain("--stack: 'pr od' given; allowed: a stack name such as dev or prod");
  });
});
