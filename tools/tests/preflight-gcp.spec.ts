/**
 * The GCP stack's preflight against Google's APIs behind google-auth-library's own transporter hook: what
 * it reports for each missing prerequisite, and that every request it makes is a GET.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../preflight/run.cjs';
import { GCP_STACK_APIS } from '../preflight/gcp.cjs';
import { WORKSPACE } from './helpers';
import {
  changedRepository,
  github,
  googleClient,
  googleWorld,
  output,
  type FakeApi,
} from './preflight-fakes';

const GCP_STACK = join(WORKSPACE, 'stacks', 'gcp-gcs');
const SINKS = 'logging\\.googleapis\\.com\\/v2\\/organizations\\/123456789\\/sinks$';
const THREAT_DETECTION =
  'securitycentermanagement\\.googleapis\\.com\\/v1\\/projects\\/[a-z0-9-]+\\/locations\\/global\\/securityCenterServices\\/event-threat-detection$';
const ENV = {
  GITHUB_REPOSITORY: 'acme/checkpoint-storage',
  GITHUB_TOKEN: 'token',
  PULUMI_BACKEND_URL: 'gs://acme-state',
};

async function preflight(api: FakeApi, { cwd = GCP_STACK, stack = 'prod', environments = ['prod'] } = {}) {
  const run = output();
  const code = await main([`--stack=${stack}`], run.io(cwd, ENV), {
    gcp: googleClient(api),
    fetch: github(environments),
  });
  // Whatever it found, the preflight only read.
  expect(api.methods()).toEqual(['GET']);
  return { code, out: run.out(), err: run.err() };
}

describe('checkpoints-preflight (GCP)', () => {
  it('passes when the caller, the project, its APIs, the deploy account, the state bucket, the runner network and the GitHub environment are there', async () => {
    const api = googleWorld();
    const { code, out } = await preflight(api);
    expect(out).not.toContain('FAIL');
    expect(code).toBe(0);
    expect(out).toContain('ok   who am I: admin@acme.example');
    expect(out).toContain(
      'ok   bootstrap applied: deploy service account checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com',
    );
    for (const service of GCP_STACK_APIS)
      expect(out).toContain(`ok   API ${service} enabled in ml-platform-prod-7310`);
    expect(out).toContain('ok   state backend gs://acme-state reachable');
    expect(out).toContain(
      'ok   CI runners inside the IP filter of llm-pretrain, llm-pretrain-hot, llm-releases',
    );
    expect(out).toContain(
      "ok   runner network projects/ml-platform-prod-7310/global/networks/ci-runners exists in the stack's organization",
    );
    expect(out).toContain(
      "ok   the organization's aggregated sink of every log entry (CIS GCP 2.2): all-logs in organizations/123456789",
    );
    expect(out).toContain(
      'ok   Security Command Center Event Threat Detection on for the stack project (checkpoints malware-scan (GCP)): ENABLED for ml-platform-prod-7310',
    );
    expect(out).toContain('ok   GitHub environment prod');
  });

  it('finds the sink of every log entry on a later page of the organization sinks', async () => {
    const api = googleWorld();
    api.set(SINKS, {
      status: 200,
      body: { sinks: [{ name: 'audit-only', filter: 'logName:cloudaudit' }], nextPageToken: 'page 2' },
    });
    api.prefer(/organizations\/123456789\/sinks\?pageToken=page 2$/, {
      status: 200,
      body: { sinks: [{ name: 'all-logs', includeChildren: true }] },
    });
    const { code, out } = await preflight(api);
    expect(out).toContain('(CIS GCP 2.2): all-logs in organizations/123456789');
    expect(code).toBe(0);
  });

  it('asks for the APIs the bootstrap enables in the stack projects, every one of them', () => {
    const services = readFileSync(join(WORKSPACE, 'bootstrap', 'src', 'gcp', 'services.ts'), 'utf8');
    const block = /GCP_STACK_APIS = \[([^\]]*)\]/.exec(services)?.[1] ?? '';
    const enabled = [...block.matchAll(/'([a-z0-9.]+)'/g)].map((match) => match[1]);
    expect(enabled.length).toBeGreaterThan(0);
    expect([...GCP_STACK_APIS].sort()).toEqual(enabled.sort());
  });

  // What is taken away, and the FAIL line naming it: the only failure, but for the stack project, which
  // the runner network's organization check reads too.
  const missing: Array<[string, (api: FakeApi) => void, string]> = [
    [
      'the stack project',
      (api) =>
        api.set('cloudresourcemanager\\.googleapis\\.com\\/v3\\/projects\\/[a-z0-9-]+$', { status: 403 }),
      'FAIL stack project ml-platform-prod-7310 exists: project ml-platform-prod-7310 does not exist or you cannot see it (HTTP 403: ',
    ],
    ...GCP_STACK_APIS.map((service): [string, (api: FakeApi) => void, string] => [
      `the API ${service}`,
      (api) =>
        api.prefer(new RegExp(`services/${service.replace(/\./g, '\\.')}$`), {
          status: 200,
          body: { state: 'DISABLED' },
        }),
      `FAIL API ${service} enabled in ml-platform-prod-7310: off: apply the bootstrap (it enables it), or gcloud services enable ${service} --project=ml-platform-prod-7310`,
    ]),
    [
      'the deploy service account',
      (api) =>
        api.set(
          'iam\\.googleapis\\.com\\/v1\\/projects\\/acme-checkpoints-ci\\/serviceAccounts\\/checkpoints-ci-deploy-prod@',
          { status: 404 },
        ),
      'FAIL bootstrap applied: deploy service account checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com: no checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com: apply the bootstrap',
    ],
    [
      'an enabled deploy service account',
      (api) =>
        api.set(
          'iam\\.googleapis\\.com\\/v1\\/projects\\/acme-checkpoints-ci\\/serviceAccounts\\/checkpoints-ci-deploy-prod@',
          { status: 200, body: { disabled: true } },
        ),
      'is disabled: enable it',
    ],
    [
      'the state bucket',
      (api) => api.set('storage\\.googleapis\\.com\\/storage\\/v1\\/b\\/acme-state$', { status: 404 }),
      'FAIL state backend gs://acme-state reachable: no bucket acme-state: create it, or fix PULUMI_BACKEND_URL',
    ],
    [
      'the runner network',
      (api) =>
        api.set(
          'compute\\.googleapis\\.com\\/compute\\/v1\\/projects\\/ml-platform-prod-7310\\/global\\/networks\\/ci-runners$',
          { status: 404 },
        ),
      'no network projects/ml-platform-prod-7310/global/networks/ci-runners: fix checkpoints:ciRunners.networks',
    ],
    [
      "the runner network in the stack's organization",
      (api) =>
        api.set('cloudresourcemanager\\.googleapis\\.com\\/v3\\/folders\\/42$', {
          status: 200,
          body: { parent: '' },
        }),
      'the filter admits networks of its own organization only',
    ],
    [
      'a sink of every log entry (one with a filter)',
      (api) =>
        api.set(SINKS, {
          status: 200,
          body: { sinks: [{ name: 'audit-only', filter: 'logName:cloudaudit', includeChildren: true }] },
        }),
      "FAIL the organization's aggregated sink of every log entry (CIS GCP 2.2): organizations/123456789 has no sink without a filter or exclusions that includes its children (audit-only); to enable: gcloud logging sinks create NAME DESTINATION --organization=ORGANIZATION_ID --include-children",
    ],
    [
      'an aggregated sink (one without includeChildren)',
      (api) => api.set(SINKS, { status: 200, body: { sinks: [{ name: 'org-only', filter: '' }] } }),
      'organizations/123456789 has no sink without a filter or exclusions that includes its children (org-only)',
    ],
    [
      'a sink that exports everything (one with an exclusion)',
      (api) =>
        api.set(SINKS, {
          status: 200,
          body: {
            sinks: [
              { name: 'most', filter: '', includeChildren: true, exclusions: [{ filter: 'severity<ERROR' }] },
            ],
          },
        }),
      'no sink without a filter or exclusions that includes its children (most)',
    ],
    [
      'any organization sink',
      (api) => api.set(SINKS, { status: 200, body: {} }),
      'organizations/123456789 has no sink; to enable: gcloud logging sinks create',
    ],
    [
      'the organization sinks, unreadable',
      (api) => api.set(SINKS, { status: 403, body: { error: { message: 'logging.sinks.list denied' } } }),
      "FAIL the organization's aggregated sink of every log entry (CIS GCP 2.2): cannot be read (HTTP 403: ",
    ],
    [
      'Event Threat Detection',
      (api) =>
        api.set(THREAT_DETECTION, {
          status: 200,
          body: { intendedEnablementState: 'INHERITED', effectiveEnablementState: 'DISABLED' },
        }),
      'FAIL Security Command Center Event Threat Detection on for the stack project (checkpoints malware-scan (GCP)): Event Threat Detection is DISABLED for ml-platform-prod-7310; to enable: activate Security Command Center (Premium or Enterprise tier) for the organization, then gcloud scc manage services update event-threat-detection --project=ml-platform-prod-7310 --enablement-state=ENABLED',
    ],
    [
      'Security Command Center, unreadable',
      (api) => api.set(THREAT_DETECTION, { status: 403 }),
      'checkpoints malware-scan (GCP)): cannot be read (HTTP 403: ',
    ],
  ];

  it.each(missing)('fails naming %s, and asks the rest anyway', async (what, take, line) => {
    const api = googleWorld();
    take(api);
    const { code, out } = await preflight(api);
    expect(code).toBe(1);
    expect(out).toContain(line);
    // The organization sink is looked for through the project's ancestry, which these two take away.
    const failures = { 'the stack project': 3, "the runner network in the stack's organization": 2 };
    expect(out.match(/^FAIL/gm)?.length).toBe(failures[what as keyof typeof failures] ?? 1);
    expect(out).toContain('ok   GitHub environment prod');
  });

  it('fails when the GitHub environment is missing', async () => {
    const { code, out } = await preflight(googleWorld(), { environments: [] });
    expect(code).toBe(1);
    expect(out).toContain('FAIL GitHub environment prod: acme/checkpoint-storage has no environment prod');
  });

  it('fails an IP-filtered prod store when CI runs on GitHub-hosted runners, with what to set', async () => {
    const cwd = changedRepository('gcp-gcs', 'prod', {
      stack: { 'checkpoints:ciRunners': undefined },
    });
    const { code, out } = await preflight(googleWorld(), { cwd });
    expect(code).toBe(1);
    expect(out).toContain(
      'FAIL CI runners inside the IP filter of llm-pretrain, llm-pretrain-hot, llm-releases: CI runs on GitHub-hosted runners, outside the filter',
    );
    expect(out).toContain('Set checkpoints:ciRunners to self-hosted runners');
  });

  it('asks nothing of the runners for a stack without an IP filter (dev)', async () => {
    const { code, out } = await preflight(googleWorld(), { stack: 'dev', environments: ['dev'] });
    expect(out).not.toContain('CI runners');
    // The dev deploy account is not in the world: the one failure, named.
    expect(out).toContain('FAIL bootstrap applied: deploy service account checkpoints-ci-deploy-dev@');
    expect(code).toBe(1);
  });

  it('fails when the bootstrap grants the environment another project', async () => {
    const cwd = changedRepository('gcp-gcs', 'prod', {
      bootstrap: { 'bootstrap:gcp.stackProjects.prod': 'other-project' },
    });
    const { code, out } = await preflight(googleWorld(), { cwd });
    expect(code).toBe(1);
    expect(out).toContain(
      'FAIL bootstrap deploys environment prod into ml-platform-prod-7310: bootstrap:gcp.stackProjects.prod is other-project',
    );
  });

  it('says what to do when there are no credentials, on every question that needs them', async () => {
    const run = output();
    const code = await main(['--stack=prod'], run.io(GCP_STACK, ENV), {
      gcp: async () => {
        throw new Error(
          'Could not load the default credentials. Browse to https://cloud.google.com/docs/authentication',
        );
      },
      fetch: github(['prod']),
    });
    expect(code).toBe(1);
    expect(run.out()).toContain(
      'FAIL who am I: no usable Google credentials: run gcloud auth application-default login',
    );
    expect(run.out()).toContain(
      'FAIL stack project ml-platform-prod-7310 exists: no usable Google credentials',
    );
    expect(run.out()).toContain('ok   GitHub environment prod');
  });

  it('exits 2 naming the projects it knows for a folder of another project', async () => {
    const cwd = changedRepository('gcp-gcs', 'prod', {});
    writeFileSync(join(cwd, 'Pulumi.yaml'), 'name: checkpoints-other\nruntime: nodejs\n');
    const run = output();
    expect(await main(['--stack=prod'], run.io(cwd, ENV), { gcp: googleClient(googleWorld()) })).toBe(2);
    expect(run.err()).toContain(
      'project checkpoints-other: the preflight knows checkpoints-aws, checkpoints-gcp, checkpoints-azure, checkpoints-bootstrap',
    );
  });

  it('exits 2 naming the file when the bootstrap stack cannot be read', async () => {
    const cwd = changedRepository('gcp-gcs', 'prod', {});
    rmSync(join(cwd, '..', '..', 'bootstrap', 'Pulumi.ci.yaml'));
    const run = output();
    expect(await main(['--stack=prod'], run.io(cwd, ENV), { gcp: googleClient(googleWorld()) })).toBe(2);
    expect(run.err()).toContain('cannot read Pulumi.yaml and Pulumi.ci.yaml');
  });
});
