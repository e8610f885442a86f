/**
 * The bootstrap's preflight, on every cloud its stack sets up, against each SDK's own mocking hook
 * (aws-sdk-client-mock, google-auth-library's transporter, the Azure pipelines' httpClient): what it
 * reports for each missing prerequisite of the bootstrap's first up, and that every call is a read.
 */
import { mockClient } from 'aws-sdk-client-mock';
import { STSClient, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import {
  IAMClient,
  GetOpenIDConnectProviderCommand,
  ListOpenIDConnectProvidersCommand,
} from '@aws-sdk/client-iam';
import { S3Client, HeadBucketCommand } from '@aws-sdk/client-s3';
import { main } from '../preflight/run.cjs';
import { GCP_CI_APIS } from '../preflight/bootstrap.cjs';
import { WORKSPACE } from './helpers';
import {
  azureConnection,
  azureWorld,
  changedRepository,
  github,
  googleClient,
  googleWorld,
  output,
  SUBSCRIPTION,
  type FakeApi,
} from './preflight-fakes';

const OIDC_ARN = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';

function awsMocks() {
  const sts = mockClient(STSClient);
  const iam = mockClient(IAMClient);
  const s3 = mockClient(S3Client);
  sts
    .on(GetCallerIdentityCommand)
    .resolves({ Account: '123456789012', Arn: 'arn:aws:iam::123456789012:user/admin' });
  iam.on(ListOpenIDConnectProvidersCommand).resolves({ OpenIDConnectProviderList: [] });
  s3.on(HeadBucketCommand).resolves({});
  const calls = () =>
    [...sts.calls(), ...iam.calls(), ...s3.calls()].map((call) => call.args[0].constructor.name);
  return {
    iam,
    clients: () => ({ sts: new STSClient({}), iam: new IAMClient({}), s3: new S3Client({}) }),
    calls,
    restore: () => [sts, iam, s3].forEach((mock) => mock.restore()),
  };
}

interface World {
  google: FakeApi;
  azure: FakeApi;
  aws: ReturnType<typeof awsMocks>;
}

async function preflight(world: World, { cwd = WORKSPACE, environments = ['dev', 'prod', 'drift'] } = {}) {
  const run = output();
  const fetch = github(environments);
  try {
    const code = await main(['--stack=ci'], run.io(cwd, { GITHUB_TOKEN: 'token' }), {
      clients: world.aws.clients,
      gcp: googleClient(world.google),
      azure: azureConnection(world.azure),
      fetch,
    });
    // Whatever it found, the preflight only read, on every cloud.
    expect(world.google.methods().filter((method) => method !== 'GET')).toEqual([]);
    expect(world.azure.methods().filter((method) => method !== 'GET')).toEqual([]);
    expect(world.aws.calls().every((name) => /^(Get|List|Head)/.test(name))).toBe(true);
    return { code, out: run.out(), fetch };
  } finally {
    world.aws.restore();
  }
}

const world = (): World => ({ google: googleWorld(), azure: azureWorld(), aws: awsMocks() });

describe('checkpoints-preflight (bootstrap)', () => {
  it('passes on every cloud of bootstrap:clouds when what its first up needs is there, and asks for the repository environments', async () => {
    const { code, out, fetch } = await preflight(world());
    expect(out).not.toContain('FAIL');
    expect(code).toBe(0);
    expect(out).toContain('ok   AWS: who am I: arn:aws:iam::123456789012:user/admin');
    expect(out).toContain(
      'ok   AWS: GitHub OIDC provider (token.actions.githubusercontent.com): none yet: the bootstrap creates it',
    );
    expect(out).toContain('ok   GCP: CI project acme-checkpoints-ci exists');
    expect(out).toContain('ok   GCP: API serviceusage.googleapis.com enabled in ml-platform-prod-7310');
    expect(out).toContain('ok   Azure: resource provider Microsoft.ManagedIdentity registered');
    expect(out).toContain('ok   Azure: stack resource group rg-checkpoints-dev (dev) exists');
    for (const environment of ['dev', 'prod', 'drift']) {
      expect(fetch).toHaveBeenCalledWith(
        `https://api.github.com/repos/acme/checkpoint-storage/environments/${environment}`,
        expect.objectContaining({ method: 'GET' }),
      );
    }
  });

  it('reports the APIs the bootstrap enables itself without failing on them', async () => {
    const state = world();
    state.google.prefer(/services\/(iam|iamcredentials|sts)\.googleapis\.com$/, {
      status: 200,
      body: { state: 'DISABLED' },
    });
    const { code, out } = await preflight(state);
    expect(code).toBe(0);
    for (const service of GCP_CI_APIS) {
      expect(out).toContain(`ok   GCP: API ${service} in acme-checkpoints-ci: off: the bootstrap enables it`);
    }
  });

  const missing: Array<[string, (state: World) => void, string]> = [
    [
      'an existing OIDC provider the config does not reuse',
      (state) =>
        state.aws.iam
          .on(ListOpenIDConnectProvidersCommand)
          .resolves({ OpenIDConnectProviderList: [{ Arn: OIDC_ARN }] }),
      `FAIL AWS: GitHub OIDC provider (token.actions.githubusercontent.com): the account has one already (${OIDC_ARN}), so creating it fails with EntityAlreadyExists: set bootstrap:aws.oidcProviderArn to it`,
    ],
    [
      'the CI project',
      (state) => state.google.prefer(/v3\/projects\/acme-checkpoints-ci$/, { status: 404 }),
      'FAIL GCP: CI project acme-checkpoints-ci exists: project acme-checkpoints-ci does not exist or you cannot see it (HTTP 404: ',
    ],
    [
      'Service Usage in a stack project',
      (state) =>
        state.google.prefer(/ml-platform-prod-7310\/services\/serviceusage\.googleapis\.com$/, {
          status: 200,
          body: { state: 'DISABLED' },
        }),
      'FAIL GCP: API serviceusage.googleapis.com enabled in ml-platform-prod-7310: off, and the bootstrap does not enable it',
    ],
    [
      'the Organization Policy API in a stack project',
      (state) =>
        state.google.prefer(/ml-platform-dev-4821\/services\/orgpolicy\.googleapis\.com$/, {
          status: 200,
          body: { state: 'DISABLED' },
        }),
      'FAIL GCP: API orgpolicy.googleapis.com enabled in ml-platform-dev-4821',
    ],
    [
      'the Managed Identity provider',
      (state) =>
        state.azure.prefer(/\/providers\/Microsoft\.ManagedIdentity\?/, {
          status: 200,
          body: { registrationState: 'NotRegistered' },
        }),
      'FAIL Azure: resource provider Microsoft.ManagedIdentity registered: NotRegistered',
    ],
    [
      "a stack's resource group",
      (state) => state.azure.prefer(/\/resourcegroups\/rg-checkpoints-prod\?/i, { status: 404 }),
      'FAIL Azure: stack resource group rg-checkpoints-prod (prod) exists: no resource group rg-checkpoints-prod: create it first',
    ],
  ];

  it.each(missing)('fails naming %s, and asks the rest anyway', async (_what, take, line) => {
    const state = world();
    take(state);
    const { code, out } = await preflight(state);
    expect(code).toBe(1);
    expect(out).toContain(line);
    expect(out.match(/^FAIL/gm)?.length).toBe(1);
    expect(out).toContain('ok   GitHub environment drift');
  });

  it('checks a reused OIDC provider by its ARN, and fails when it is gone', async () => {
    const cwd = changedRepository('aws-s3', 'prod', {
      bootstrap: { 'bootstrap:aws': { oidcProviderArn: OIDC_ARN } },
    });
    const state = world();
    state.aws.iam
      .on(GetOpenIDConnectProviderCommand)
      .rejects(Object.assign(new Error('not found'), { name: 'NoSuchEntityException' }));
    const { code, out } = await preflight(state, { cwd: `${cwd}/../..` });
    expect(code).toBe(1);
    expect(out).toContain(
      `FAIL AWS: GitHub OIDC provider (token.actions.githubusercontent.com): bootstrap:aws.oidcProviderArn ${OIDC_ARN} does not exist`,
    );
  });

  describe('with a self-managed state backend on every cloud', () => {
    const cwd = () =>
      `${changedRepository('aws-s3', 'prod', {
        bootstrap: {
          'bootstrap:aws.stateBucket': 'acme-aws-state',
          'bootstrap:gcp.stateBucket': 'acme-state',
          'bootstrap:azure.stateContainer': {
            storageAccountId: `/subscriptions/${SUBSCRIPTION}/resourceGroups/state/providers/Microsoft.Storage/storageAccounts/acmestate`,
            container: 'pulumi-state',
          },
        },
      })}/../..`;

    it('asks that each answers, the GCS bucket with the uniform bucket-level access its grants need', async () => {
      const state = world();
      state.google.prefer(/storage\/v1\/b\/acme-state$/, {
        status: 200,
        body: { iamConfiguration: { uniformBucketLevelAccess: { enabled: true } } },
      });
      const { code, out } = await preflight(state, { cwd: cwd() });
      expect(out).not.toContain('FAIL');
      expect(code).toBe(0);
      expect(out).toContain('ok   AWS: state backend s3://acme-aws-state reachable');
      expect(out).toContain(
        'ok   GCP: state backend gs://acme-state reachable, with uniform bucket-level access',
      );
      expect(out).toContain('ok   Azure: state backend azblob://pulumi-state in acmestate reachable');
    });

    it('fails a GCS state bucket without uniform bucket-level access', async () => {
      const { code, out } = await preflight(world(), { cwd: cwd() });
      expect(code).toBe(1);
      expect(out).toContain(
        'FAIL GCP: state backend gs://acme-state reachable, with uniform bucket-level access: it has no uniform bucket-level access',
      );
    });
  });

  describe('with an independent copy of the prod GCP stores', () => {
    const cwd = () =>
      `${changedRepository('aws-s3', 'prod', {
        bootstrap: {
          'bootstrap:gcp.independentCopy': {
            prod: {
              project: 'ml-platform-copies-2291',
              location: 'us-central1',
              retentionDays: 14,
              stores: ['llm-secret'],
            },
          },
        },
      })}/../..`;

    it('asks that the copy project exists with the APIs the bootstrap calls there', async () => {
      const { code, out } = await preflight(world(), { cwd: cwd() });
      expect(out).not.toContain('FAIL');
      expect(code).toBe(0);
      expect(out).toContain('ok   GCP: copy project ml-platform-copies-2291 (prod) exists');
      expect(out).toContain('ok   GCP: API serviceusage.googleapis.com enabled in ml-platform-copies-2291');
    });

    it('fails a copy project that does not exist', async () => {
      const state = world();
      state.google.prefer(/v3\/projects\/ml-platform-copies-2291$/, { status: 404 });
      const { code, out } = await preflight(state, { cwd: cwd() });
      expect(code).toBe(1);
      expect(out).toContain('FAIL GCP: copy project ml-platform-copies-2291 (prod) exists');
    });
  });

  it('fails naming the missing drift environment', async () => {
    const { code, out } = await preflight(world(), { environments: ['dev', 'prod'] });
    expect(code).toBe(1);
    expect(out).toContain('FAIL GitHub environment drift: acme/checkpoint-storage has no environment drift');
  });

  it('asks only the clouds bootstrap:clouds names', async () => {
    const cwd = changedRepository('aws-s3', 'prod', {
      bootstrap: { 'bootstrap:clouds': ['azure'] },
    });
    const state = world();
    const { code, out } = await preflight(state, { cwd: `${cwd}/../..` });
    expect(code).toBe(0);
    expect(out).not.toMatch(/AWS:|GCP:/);
    expect(state.google.requests).toEqual([]);
  });

  it('refuses a bad --stack with the value and what is allowed', async () => {
    const run = output();
    expect(await main(['--stack='], run.io(WORKSPACE), {})).toBe(2);
    expect(run.err()).toContain(
      "--stack: '' given; allowed: a stack name such as dev or prod (--stack=prod), ci for the bootstrap",
    );
  });
});
