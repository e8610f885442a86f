/**
 * The bootstrap's preflight, on every cloud its stack sets up, against each SDK's own mocking hook
 * (aws-sdk-client-mock, google-auth-library's transporter, the Azure pipelines' httpClient): what it
 * reports for each missing prerequisite of the bootstrap's first up, each difference between the CI
 * identities' rights in the bootstrap's render and in the cloud, and that every call is a read.
 */
import { mockClient } from 'aws-sdk-client-mock';
import { STSClient, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  IAMClient,
  GetOpenIDConnectProviderCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListOpenIDConnectProvidersCommand,
  ListRolePoliciesCommand,
} from '@aws-sdk/client-iam';
import { S3Client, HeadBucketCommand } from '@aws-sdk/client-s3';
import { BackupClient, DescribeBackupVaultCommand } from '@aws-sdk/client-backup';
import { main } from '../preflight/run.cjs';
import { GCP_CI_APIS } from '../preflight/bootstrap.cjs';
import { policyDocument } from '../preflight/bootstrap-render.cjs';
import { tempDir, WORKSPACE } from './helpers';
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
import {
  awsAsRendered,
  azureAsRendered,
  bootstrapRender,
  googleAsRendered,
  iamDocument,
  ofType,
  type BootstrapRender,
} from './bootstrap-render-fakes';

const OIDC_ARN = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';

function awsMocks() {
  const sts = mockClient(STSClient);
  const iam = mockClient(IAMClient);
  const s3 = mockClient(S3Client);
  const backup = mockClient(BackupClient);
  sts
    .on(GetCallerIdentityCommand)
    .resolves({ Account: '123456789012', Arn: 'arn:aws:iam::123456789012:user/admin' });
  iam.on(ListOpenIDConnectProvidersCommand).resolves({ OpenIDConnectProviderList: [] });
  s3.on(HeadBucketCommand).resolves({});
  const calls = () =>
    [...sts.calls(), ...iam.calls(), ...s3.calls(), ...backup.calls()].map(
      (call) => call.args[0].constructor.name,
    );
  return {
    sts,
    iam,
    backup,
    clients: () => ({ sts: new STSClient({}), iam: new IAMClient({}), s3: new S3Client({}) }),
    calls,
    restore: () => [sts, iam, s3, backup].forEach((mock) => mock.restore()),
  };
}

interface World {
  google: FakeApi;
  azure: FakeApi;
  aws: ReturnType<typeof awsMocks>;
}

async function preflight(
  world: World,
  { cwd = WORKSPACE, environments = ['dev', 'prod', 'drift'], render = bootstrapRender().path } = {},
) {
  const run = output();
  const fetch = github(environments);
  try {
    const code = await main(['--stack=ci', `--render=${render}`], run.io(cwd, { GITHUB_TOKEN: 'token' }), {
      clients: world.aws.clients,
      gcp: googleClient(world.google),
      azure: azureConnection(world.azure),
      fetch,
    });
    // Whatever it found, the preflight only read, on every cloud.
    expect(world.google.methods().filter((method) => method !== 'GET')).toEqual([]);
    expect(world.azure.methods().filter((method) => method !== 'GET')).toEqual([]);
    expect(world.aws.calls().every((name) => /^(Get|List|Head|Describe)/.test(name))).toBe(true);
    return { code, out: run.out(), fetch };
  } finally {
    world.aws.restore();
  }
}

/** The clouds holding what the bootstrap's first up needs, and what its render says it applied. */
function world(account = '123456789012', { applied = true } = {}): World {
  const state = { google: googleWorld(), azure: azureWorld(), aws: awsMocks() };
  const { render } = bootstrapRender();
  state.aws.sts
    .on(GetCallerIdentityCommand)
    .resolves({ Account: account, Arn: `arn:aws:iam::${account}:user/admin` });
  if (!applied) {
    // Before the first up: IAM and AWS Backup answer as for a name they do not hold; Google and Azure 404.
    state.aws.iam
      .on(GetRoleCommand)
      .rejects(Object.assign(new Error('no role'), { name: 'NoSuchEntityException' }));
    state.aws.backup
      .on(DescribeBackupVaultCommand)
      .rejects(Object.assign(new Error('no vault'), { name: 'ResourceNotFoundException' }));
    return state;
  }
  awsAsRendered(render, state.aws, account);
  googleAsRendered(render, state.google, '418230967154');
  azureAsRendered(render, state.azure, SUBSCRIPTION);
  return state;
}

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

  // Each with the lines it fails, one unless what is missing makes another check unanswerable.
  const missing: Array<[string, (state: World) => void, string, ...string[]]> = [
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
      'FAIL GCP: project acme-checkpoints-ci under organization 123456789: HTTP 404: ',
      "FAIL GCP: workload identity provider checkpoints-ci/github-actions as rendered: the CI project acme-checkpoints-ci's number, which the rendered values name, cannot be read (HTTP 404: ",
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

  it.each(missing)('fails naming %s, and asks the rest anyway', async (_what, take, ...lines) => {
    const state = world();
    take(state);
    const { code, out } = await preflight(state);
    expect(code).toBe(1);
    for (const line of lines) expect(out).toContain(line);
    expect(out.match(/^FAIL.*/gm)?.length).toBe(lines.length);
    expect(out).toContain('ok   GitHub environment drift');
  });

  describe('the GCP organization (bootstrap:gcp.organizationId)', () => {
    const projects = ['acme-checkpoints-ci', 'ml-platform-dev-4821', 'ml-platform-prod-7310'];

    it('checks that it answers, that every project sits under it and that its log sinks can be read', async () => {
      const { code, out } = await preflight(world());
      expect(code).toBe(0);
      expect(out).toContain('ok   GCP: organization 123456789 readable: acme.example, ACTIVE');
      for (const project of projects) {
        expect(out).toContain(
          `ok   GCP: project ${project} under organization 123456789: under organizations/123456789`,
        );
      }
      expect(out).toContain(
        "ok   GCP: organization 123456789's log sinks readable: 1 sink(s) on the first page",
      );
    });

    it('fails a project under another organization, naming both', async () => {
      const state = world();
      state.google.prefer(/v3\/projects\/ml-platform-prod-7310$/, {
        status: 200,
        body: { name: 'projects/55', state: 'ACTIVE', parent: 'organizations/999' },
      });
      const { code, out } = await preflight(state);
      expect(code).toBe(1);
      expect(out).toContain(
        'FAIL GCP: project ml-platform-prod-7310 under organization 123456789: it sits under organizations/999, not organizations/123456789',
      );
      expect(out.match(/^FAIL.*/gm)?.length).toBe(1);
    });

    it('fails an organization the caller cannot see, saying what to fix', async () => {
      const state = world();
      state.google.prefer(/v3\/organizations\/123456789$/, { status: 403 });
      const { code, out } = await preflight(state);
      expect(code).toBe(1);
      expect(out).toContain(
        'FAIL GCP: organization 123456789 readable: organizations/123456789 does not exist or you cannot see it (HTTP 403: ',
      );
    });

    it('without the key, says what it could not check', async () => {
      const cwd = changedRepository('aws-s3', 'prod', {
        bootstrap: { 'bootstrap:gcp.organizationId': undefined },
      });
      const { code, out } = await preflight(world(), { cwd: `${cwd}/../..` });
      expect(code).toBe(0);
      expect(out).toContain(
        `ok   GCP: organization (bootstrap:gcp.organizationId): not set, so not checked: that ${projects.join(', ')} sit under one organization, nor that you can read it and its log sinks`,
      );
      expect(out).not.toContain('under organization');
    });
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

describe("checkpoints-preflight (bootstrap): the CI identities' rights as rendered", () => {
  const LIVE_ACCOUNT = '210987654321';
  const ROLE = 'checkpoints-ci-deploy-prod';
  const { render } = bootstrapRender();
  const inlinePolicy = ofType(render, 'aws:iam/rolePolicy:RolePolicy').find(
    (each) => each.inputs['role'] === ROLE,
  );
  const trust = ofType(render, 'aws:iam/role:Role').find((each) => each.inputs['name'] === ROLE);
  const preview = ofType(render, 'aws:iam/role:Role').find(
    (each) => each.inputs['name'] === 'checkpoints-ci-preview',
  );
  const devVault = String(
    ofType(render, 'aws:backup/vault:Vault').find((each) => each.name === 'backup-vault-dev')?.inputs['name'],
  );
  if (!inlinePolicy || !trust || !preview || !devVault)
    throw new Error(`the render has no ${ROLE}, its inline policy, the preview role or a dev vault`);

  /** A render changed as given, written where the preflight reads it. */
  function changedRender(edit: (copy: BootstrapRender) => void): string {
    const copy = JSON.parse(JSON.stringify(render)) as BootstrapRender;
    edit(copy);
    const path = join(tempDir('bootstrap-render-'), 'ci.json');
    writeFileSync(path, JSON.stringify(copy));
    return path;
  }

  it('passes when every cloud holds the rendered rights, written its own way, and says what it compared', async () => {
    const { code, out } = await preflight(world(LIVE_ACCOUNT));
    expect(out).not.toContain('FAIL');
    expect(code).toBe(0);
    for (const name of [
      'checkpoints-ci-deploy-dev',
      'checkpoints-ci-deploy-prod',
      'checkpoints-ci-preview',
    ]) {
      expect(out).toMatch(
        new RegExp(
          `^ok   AWS: CI role ${name} as rendered: trust, 1 inline and \\d attached policies as rendered$`,
          'm',
        ),
      );
    }
    expect(out).toContain(
      'ok   AWS: CI role checkpoints-ci-deploy-prod as rendered: trust, 1 inline and 1 attached policies as rendered',
    );
    expect(out).toMatch(
      /^ok {3}AWS: backup vault checkpoints-aws-prod-backup-\w+ lock as rendered: lock as rendered$/m,
    );
    expect(out).toContain(
      'ok   GCP: custom role checkpointsStoreKeys in ml-platform-prod-7310 as rendered: 14 permissions as rendered',
    );
    expect(out).toContain(
      'ok   GCP: deny policy checkpoints-ci-guards on cloudresourcemanager.googleapis.com/projects/ml-platform-prod-7310 as rendered: 3 rules as rendered',
    );
    expect(out).toContain('ok   GCP: workload identity provider checkpoints-ci/github-actions as rendered');
    expect(out).toMatch(
      /^ok {3}Azure: custom role checkpoints-deploy-prod-\w+ as rendered: actions, data actions and assignable scopes as rendered$/m,
    );
    expect(out).toContain(
      'ok   Azure: identity checkpoints-ci-preview federated credentials as rendered: 2 federated credentials as rendered',
    );
  });

  const mutations: Array<[string, (state: World) => void, RegExp]> = [
    [
      'a statement added live to an inline policy',
      (state) =>
        state.aws.iam.on(GetRolePolicyCommand, { RoleName: ROLE, PolicyName: 'checkpoint-stacks' }).resolves({
          PolicyDocument: iamDocument(inlinePolicy.inputs['policy'], LIVE_ACCOUNT, (document) =>
            document.Statement.push({
              Sid: 'AddedLive',
              Effect: 'Allow',
              Action: 's3:DeleteObjectVersion',
              Resource: '*',
            }),
          ),
        }),
      /^FAIL AWS: CI role checkpoints-ci-deploy-prod as rendered: inline policy checkpoint-stacks statement AddedLive added live: rendered \(none\), live \{"Action":\["s3:DeleteObjectVersion"\],"Effect":"Allow","Resource":\["\*"\],"Sid":"AddedLive"\}$/m,
    ],
    [
      'a trust widened live to every ref of the repository',
      (state) =>
        state.aws.iam.on(GetRoleCommand, { RoleName: ROLE }).resolves({
          Role: {
            RoleName: ROLE,
            Arn: `arn:aws:iam::${LIVE_ACCOUNT}:role/${ROLE}`,
            Path: '/',
            RoleId: 'AROAEXAMPLE',
            CreateDate: new Date(),
            AssumeRolePolicyDocument: iamDocument(
              trust.inputs['assumeRolePolicy'],
              LIVE_ACCOUNT,
              (document) => {
                const equals = document.Statement[0]?.Condition?.['StringEquals'];
                if (!equals) throw new Error('the trust policy has no StringEquals condition');
                equals['token.actions.githubusercontent.com:sub'] = 'repo:acme/checkpoint-storage:*';
              },
            ),
          },
        }),
      /^FAIL AWS: CI role checkpoints-ci-deploy-prod as rendered: trust policy statement #1 changed: rendered .*"repo:acme\/checkpoint-storage:environment:prod".*, live .*"repo:acme\/checkpoint-storage:\*"/m,
    ],
    [
      'a trust statement added live for another account',
      (state) =>
        state.aws.iam.on(GetRoleCommand, { RoleName: 'checkpoints-ci-preview' }).resolves({
          Role: {
            RoleName: 'checkpoints-ci-preview',
            Arn: `arn:aws:iam::${LIVE_ACCOUNT}:role/checkpoints-ci-preview`,
            Path: '/',
            RoleId: 'AROAEXAMPLE',
            CreateDate: new Date(),
            AssumeRolePolicyDocument: iamDocument(
              preview.inputs['assumeRolePolicy'],
              LIVE_ACCOUNT,
              (document) => {
                document.Statement.push({
                  Effect: 'Allow',
                  Principal: { AWS: 'arn:aws:iam::999999999999:root' },
                  Action: 'sts:AssumeRole',
                });
              },
            ),
          },
        }),
      /^FAIL AWS: CI role checkpoints-ci-preview as rendered: trust policy statement #1 added live: rendered \(none\), live \{"Action":\["sts:AssumeRole"\],"Effect":"Allow","Principal":\{"AWS":\["arn:aws:iam::999999999999:root"\]\}\}$/m,
    ],
    [
      'a managed policy attached live',
      (state) =>
        state.aws.iam.on(ListAttachedRolePoliciesCommand, { RoleName: 'checkpoints-ci-preview' }).resolves({
          AttachedPolicies: [{ PolicyArn: 'arn:aws:iam::aws:policy/AdministratorAccess' }],
        }),
      /^FAIL AWS: CI role checkpoints-ci-preview as rendered: attached managed policies: rendered \(none\), live \["arn:aws:iam::aws:policy\/AdministratorAccess"\]$/m,
    ],
    [
      'a vault lock left in governance mode',
      (state) =>
        state.aws.backup
          .on(DescribeBackupVaultCommand, { BackupVaultName: devVault })
          .resolves({ Locked: true, MinRetentionDays: 7 }),
      /^FAIL AWS: backup vault checkpoints-aws-dev-backup-\w+ lock as rendered: mode: rendered "compliance", live "governance"$/m,
    ],
    [
      'a permission removed from a custom role',
      (state) =>
        state.google.prefer(
          /iam\.googleapis\.com\/v1\/projects\/ml-platform-dev-4821\/roles\/checkpointsStoreIdentities$/,
          {
            status: 200,
            body: { includedPermissions: ['iam.serviceAccounts.get', 'iam.serviceAccounts.list'] },
          },
        ),
      /^FAIL GCP: custom role checkpointsStoreIdentities in ml-platform-dev-4821 as rendered: includedPermissions: rendered \["iam.serviceAccounts.create",.*\], live \["iam.serviceAccounts.get","iam.serviceAccounts.list"\]$/m,
    ],
    [
      'a deny rule narrowed live',
      (state) =>
        state.google.prefer(/projects\/ml-platform-dev-4821\/denypolicies\/checkpoints-ci-guards$/, {
          status: 200,
          body: { rules: [] },
        }),
      /^FAIL GCP: deny policy checkpoints-ci-guards on cloudresourcemanager.googleapis.com\/projects\/ml-platform-dev-4821 as rendered: rule "CI never touches checkpoint data" missing live: rendered \{.*\}, live \(none\)/m,
    ],
    [
      "a widened workload identity provider's condition",
      (state) =>
        state.google.prefer(/workloadIdentityPools\/checkpoints-ci\/providers\/github-actions$/, {
          status: 200,
          body: { state: 'ACTIVE', attributeCondition: "assertion.repository_owner == 'acme'" },
        }),
      /^FAIL GCP: workload identity provider checkpoints-ci\/github-actions as rendered: attributeCondition: rendered "assertion.repository == 'acme\/checkpoint-storage' && .*", live "assertion.repository_owner == 'acme'"; attributeMapping: /m,
    ],
    [
      'an action added live to a custom role definition',
      (state) =>
        state.azure.prefer(
          /\/resourceGroups\/ml-network\/providers\/Microsoft\.Authorization\/roleDefinitions\//,
          {
            status: 200,
            body: {
              properties: {
                roleName: ofType(render, 'azure-native:authorization:RoleDefinition').find(
                  (each) => each.name === 'deploy-prod-network-role',
                )?.inputs['roleName'],
                permissions: [{ actions: ['Microsoft.Network/*'] }],
                assignableScopes: [`/subscriptions/${SUBSCRIPTION}/resourceGroups/ml-network`],
              },
            },
          },
        ),
      /^FAIL Azure: custom role checkpoints-join-subnets-prod-\w+ as rendered: actions: rendered \["Microsoft.Network\/virtualNetworks\/subnets\/join\/action",.*\], live \["Microsoft.Network\/\*"\]$/m,
    ],
    [
      'a federated credential added live',
      (state) =>
        state.azure.prefer(
          /userAssignedIdentities\/checkpoints-ci-deploy-prod\/federatedIdentityCredentials\?/,
          {
            status: 200,
            body: {
              value: [
                {
                  name: 'github-environment-prod',
                  properties: {
                    issuer: 'https://token.actions.githubusercontent.com',
                    subject: 'repo:acme/checkpoint-storage:environment:prod',
                    audiences: ['api://AzureADTokenExchange'],
                  },
                },
                {
                  name: 'any-branch',
                  properties: {
                    issuer: 'https://token.actions.githubusercontent.com',
                    subject: 'repo:acme/checkpoint-storage:ref:refs/heads/main',
                    audiences: ['api://AzureADTokenExchange'],
                  },
                },
              ],
            },
          },
        ),
      /^FAIL Azure: identity checkpoints-ci-deploy-prod federated credentials as rendered: federated credential any-branch added live: rendered \(none\), live \{"audiences":\["api:\/\/AzureADTokenExchange"\],"issuer":"https:\/\/token.actions.githubusercontent.com","name":"any-branch","subject":"repo:acme\/checkpoint-storage:ref:refs\/heads\/main"\}$/m,
    ],
  ];

  it.each(mutations)(
    'fails on %s, naming the resource, the field and both values',
    async (_what, take, line) => {
      const state = world(LIVE_ACCOUNT);
      take(state);
      const { code, out } = await preflight(state);
      expect(code).toBe(1);
      expect(out).toMatch(line);
      expect(out.match(/^FAIL.*/gm)?.length).toBe(1);
    },
  );

  it("reads every page of a role's inline policies: one added live on the second fails", async () => {
    const state = world(LIVE_ACCOUNT);
    state.aws.iam
      .on(ListRolePoliciesCommand, { RoleName: ROLE })
      .resolves({ PolicyNames: ['checkpoint-stacks'], IsTruncated: true, Marker: 'page-2' })
      .on(ListRolePoliciesCommand, { RoleName: ROLE, Marker: 'page-2' })
      .resolves({ PolicyNames: ['added-by-hand'] });
    const { code, out } = await preflight(state);
    expect(code).toBe(1);
    expect(out).toContain(
      'FAIL AWS: CI role checkpoints-ci-deploy-prod as rendered: inline policy names: rendered ["checkpoint-stacks"], live ["added-by-hand","checkpoint-stacks"]',
    );
    expect(out.match(/^FAIL.*/gm)?.length).toBe(1);
  });

  it('before the first up (or with credentials of elsewhere), fails per cloud saying nothing is verified', async () => {
    const { code, out } = await preflight(world(LIVE_ACCOUNT, { applied: false }));
    expect(code).not.toBe(0);
    for (const [cloud, count] of [
      ['AWS', 5],
      ['GCP', 11],
      ['Azure', 9],
    ] as const) {
      expect(out).toContain(
        `FAIL ${cloud}: bootstrap applied as rendered: none of its ${count} rendered CI identities and guards exists here, nothing is verified: the bootstrap is not applied yet`,
      );
    }
  });

  it('fails a rendered identity the cloud does not hold when others exist', async () => {
    const state = world(LIVE_ACCOUNT);
    state.aws.iam
      .on(GetRoleCommand, { RoleName: 'checkpoints-ci-preview' })
      .rejects(Object.assign(new Error('no role'), { name: 'NoSuchEntityException' }));
    const { code, out } = await preflight(state);
    expect(code).toBe(1);
    expect(out).toContain(
      'FAIL AWS: CI role checkpoints-ci-preview as rendered: no role checkpoints-ci-preview, which the render holds: apply the bootstrap (npx nx run bootstrap:admin-up)',
    );
    expect(out.match(/^FAIL.*/gm)?.length).toBe(1);
  });

  it('does not compare a value unknown at render, and says so', async () => {
    const path = changedRender((copy) => {
      const role = copy.resources.find(
        (each) => each.type === 'aws:iam/role:Role' && each.inputs['name'] === ROLE,
      );
      if (role) role.inputs['assumeRolePolicy'] = '[unknown]';
    });
    const { code, out } = await preflight(world(LIVE_ACCOUNT), { render: path });
    expect(code).toBe(0);
    expect(out).toContain(
      'ok   AWS: CI role checkpoints-ci-deploy-prod as rendered: trust, 1 inline and 1 attached policies as rendered; not compared, unknown or secret at render: trust policy',
    );
  });

  it('fails on each cloud without a render, saying how to make one', async () => {
    const missingPath = join(tempDir('no-render-'), 'ci.json');
    const { code, out } = await preflight(world(), { render: missingPath });
    expect(code).toBe(1);
    for (const cloud of ['AWS', 'GCP', 'Azure']) {
      expect(out).toContain(
        `FAIL ${cloud}: bootstrap applied as rendered: no render at ${missingPath}: run npx nx run bootstrap:synth first`,
      );
    }
  });

  it('fails a stale render, of another placement', async () => {
    const path = changedRender((copy) => {
      copy.placement['aws:region'] = 'eu-west-1';
    });
    const { code, out } = await preflight(world(), { render: path });
    expect(code).toBe(1);
    expect(out).toContain(
      `FAIL AWS: bootstrap applied as rendered: ${path} is stale: aws:region rendered eu-west-1, configured us-east-1; run npx nx run bootstrap:synth`,
    );
  });
});

describe('IAM policy documents compared as IAM reads them', () => {
  it('the same rights compare equal URL-encoded, reordered, with one-element lists as strings', () => {
    const rendered = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'A',
          Effect: 'Allow',
          Action: ['s3:GetObject', 's3:ListBucket'],
          Resource: ['arn:aws:s3:::b'],
        },
        {
          Sid: 'B',
          Effect: 'Deny',
          Action: ['s3:DeleteBucket'],
          Resource: '*',
          Condition: { Bool: { 'aws:SecureTransport': false } },
        },
      ],
    });
    const live = encodeURIComponent(
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            Resource: '*',
            Action: 's3:DeleteBucket',
            Effect: 'Deny',
            Sid: 'B',
          },
          {
            Sid: 'A',
            Effect: 'Allow',
            Action: ['s3:ListBucket', 's3:GetObject'],
            Resource: 'arn:aws:s3:::b',
          },
        ],
      }),
    );
    expect(policyDocument(live)).toEqual(policyDocument(rendered));
    expect(policyDocument(live.replace('ListBucket', 'PutObject'))).not.toEqual(policyDocument(rendered));
  });
});
