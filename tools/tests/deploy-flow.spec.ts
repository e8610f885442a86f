/**
 * deploy.yml's flow, run step by step as Actions would (bash -eo pipefail) against stand-ins: a fake `gh`
 * answering GitHub's REST API from files (through the real `jq`, as gh's --jq does), the recording `pulumi`,
 * and small git repositories. Covers the deployed baseline, the re-plan against it, the promotion to prod,
 * the saved update plan, the bootstrap check and the required reviewers of prod.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expectedArgv, NODE_DIR, run, RUNNER, standIn, tempDir, WORKSPACE } from './helpers';

interface Step {
  name?: string;
  id?: string;
  run?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Job {
  steps: Step[];
}
const deploy = parse(readFileSync(join(WORKSPACE, '.github', 'workflows', 'deploy.yml'), 'utf8')) as {
  jobs: Record<string, Job>;
};
const step = (jobId: string, name: string): Step => {
  const found = deploy.jobs[jobId]?.steps.find((s) => s.name === name || s.name?.startsWith(name));
  if (!found) throw new Error(`deploy.yml ${jobId} has no step ${name}`);
  return found;
};
const SCRIPTS = join(WORKSPACE, 'tools', 'pulumi');

/**
 * A fake `gh`: `api PATH [--jq EXPR]` answers <root>/api/<PATH with / ? & = as _>.json (404 without one),
 * `run download ID --repo R --name N --dir D` copies <root>/artifacts/N into D; every call is logged.
 */
function fakeGitHub(api: Record<string, unknown>, artifacts: Record<string, Record<string, string>> = {}) {
  const root = tempDir('fake-gh-');
  const bin = join(root, 'bin');
  mkdirSync(bin);
  mkdirSync(join(root, 'api'));
  for (const [path, body] of Object.entries(api)) {
    writeFileSync(join(root, 'api', `${path.replace(/[/?&=]/g, '_')}.json`), JSON.stringify(body));
  }
  for (const [name, files] of Object.entries(artifacts)) {
    mkdirSync(join(root, 'artifacts', name), { recursive: true });
    for (const [file, content] of Object.entries(files))
      writeFileSync(join(root, 'artifacts', name, file), content);
  }
  const log = join(root, 'calls.log');
  writeFileSync(
    join(bin, 'gh'),
    [
      '#!/bin/sh',
      `printf '%s\\n' "$*" >> '${log}'`,
      'if [ "$1" = api ]; then',
      `  file="${root}/api/$(printf %s "$2" | tr '/?&=' '____').json"`,
      '  [ -f "$file" ] || { echo "gh: Not Found (HTTP 404)" >&2; exit 1; }',
      '  if [ "$3" = --jq ]; then jq -r "$4" "$file"; else cat "$file"; fi',
      '  exit 0',
      'fi',
      'if [ "$1 $2" = "run download" ]; then',
      `  mkdir -p "$9" && cp -R "${root}/artifacts/$7/." "$9/"; exit 0`,
      'fi',
      'exit 1',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return { bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

/** Runs a script as a workflow step would: bash, the fake gh and `extraBins` first on PATH. */
function step$(script: string, env: Record<string, string>, bins: string[], cwd?: string) {
  const output = join(tempDir('output-'), 'output');
  writeFileSync(output, '');
  const result = run('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    ...(cwd ? { cwd } : {}),
    env: {
      PATH: [...bins, NODE_DIR, '/usr/bin', '/bin'].join(':'),
      GITHUB_REPOSITORY: 'acme/store',
      GITHUB_OUTPUT: output,
      GH_TOKEN: 'token',
      ...env,
    },
  });
  return { ...result, output: readFileSync(output, 'utf8') };
}

const artifactsOf = (name: string, body: unknown) => ({
  [`repos/acme/store/actions/artifacts?name=${name}&per_page=1`]: body,
});
const deployedIn = (runId: number) => ({
  total_count: 1,
  artifacts: [{ id: 9, name: 'x', expired: false, workflow_run: { id: runId } }],
});

describe('the deployed baseline (tools/pulumi/deployed-baseline.sh)', () => {
  const baseline = (gh: ReturnType<typeof fakeGitHub>, dir: string) =>
    step$(`'${SCRIPTS}/deployed-baseline.sh' aws-s3 dev '${dir}'`, {}, [gh.bin]);

  it("fetches the newest deploy's render and the commit it deployed", () => {
    const gh = fakeGitHub(artifactsOf('deployed-aws-s3-dev', deployedIn(42)), {
      'deployed-aws-s3-dev': { 'render.json': '{"resources":[]}', commit: 'c0ffee\n' },
    });
    const dir = tempDir('baseline-');
    const result = baseline(gh, dir);
    expect(result.status).toBe(0);
    expect(readFileSync(join(dir, 'aws-s3', 'dev.json'), 'utf8')).toBe('{"resources":[]}');
    expect(readFileSync(join(dir, 'aws-s3', 'dev.commit'), 'utf8')).toBe('c0ffee\n');
    expect(gh.calls()).toContain(
      'run download 42 --repo acme/store --name deployed-aws-s3-dev --dir ' +
        gh.calls()[1]?.split('--dir ')[1],
    );
  });

  it('a stack never deployed: nothing written, exit 0, planned as new', () => {
    const gh = fakeGitHub(artifactsOf('deployed-aws-s3-dev', { total_count: 0, artifacts: [] }));
    const dir = tempDir('baseline-');
    const result = baseline(gh, dir);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('::notice title=Never deployed::aws-s3/dev');
    expect(existsSync(join(dir, 'aws-s3'))).toBe(false);
  });

  it.each([
    [
      'the newest baseline expired',
      artifactsOf('deployed-aws-s3-dev', {
        total_count: 1,
        artifacts: [{ expired: true, workflow_run: { id: 1 } }],
      }),
      'Deployed baseline expired',
    ],
    ['GitHub does not answer', {}, 'Deployed baseline unknown'],
  ])('%s: fails closed', (_, api, title) => {
    const result = baseline(fakeGitHub(api), tempDir('baseline-'));
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`::error title=${title}::`);
  });
});

describe('every deploy re-plans against the deployed baseline before up', () => {
  /** A fake npx that logs its argv and exits $NPX_EXIT. */
  function fakeNpx() {
    const bin = tempDir('npx-');
    const log = join(bin, 'calls.log');
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexit "\${NPX_EXIT:-0}"\n`, {
      mode: 0o755,
    });
    return { bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
  }
  const replan = (
    jobId: string,
    gh: ReturnType<typeof fakeGitHub>,
    npx: ReturnType<typeof fakeNpx>,
    exit = '0',
  ) => {
    const temp = tempDir('runner-temp-');
    const script = step(jobId, 'Re-plan against the deployed baseline').run ?? 'exit 99';
    return {
      temp,
      ...step$(
        script,
        { PROJECT: 'aws-s3', STACK: 'prod', RUNNER_TEMP: temp, NPX_EXIT: exit },
        [npx.bin, gh.bin],
        WORKSPACE,
      ),
    };
  };
  const deployed = () =>
    fakeGitHub(artifactsOf('deployed-aws-s3-prod', deployedIn(7)), {
      'deployed-aws-s3-prod': { 'render.json': '{"resources":[]}', commit: 'abc\n' },
    });

  it('with a baseline: synth --base against it', () => {
    const npx = fakeNpx();
    const result = replan('deploy-prod', deployed(), npx);
    expect(result.status).toBe(0);
    expect(npx.calls()).toEqual([
      `nx run aws-s3:synth --stack=prod --base=${result.temp}/deployed/aws-s3/prod.json`,
    ]);
  });

  it('never deployed: a plain render (nothing to lose)', () => {
    const npx = fakeNpx();
    const gh = fakeGitHub(artifactsOf('deployed-aws-s3-prod', { total_count: 0, artifacts: [] }));
    expect(replan('deploy-dev', gh, npx).status).toBe(0);
    expect(npx.calls()).toEqual(['nx run aws-s3:synth --stack=prod']);
  });

  it.each([
    ['data loss', '4'],
    ['a change the deployed stores refuse', '2'],
    ['a mandatory policy', '1'],
  ])('%s (synth exit %s) stops the deploy before up', (_, exit) => {
    expect(replan('deploy-staging', deployed(), fakeNpx(), exit).status).toBe(Number(exit));
  });

  it('a baseline that cannot be read stops the deploy without rendering', () => {
    const npx = fakeNpx();
    expect(replan('deploy-prod', fakeGitHub({}), npx).status).toBe(1);
    expect(npx.calls()).toEqual([]);
  });
});

/** A repository with the given commits, each writing one file; returns its folder and the commits' SHAs. */
function repository(commits: [string, string][]): { dir: string; shas: string[] } {
  const dir = tempDir('repo-');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@x', ...args], {
      cwd: dir,
      encoding: 'utf8',
    }).trim();
  git('init', '--quiet', '--initial-branch=main');
  const shas = commits.map(([file, content]) => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), content);
    git('add', '-A');
    git('commit', '--quiet', '-m', file);
    return git('rev-parse', 'HEAD');
  });
  return { dir, shas };
}

describe('prod is a promotion of the last commit deployed to dev', () => {
  const promote = (gh: ReturnType<typeof fakeGitHub>, cwd: string, sha: string) =>
    step$(
      step('preview-prod', 'The commit to promote').run ?? 'exit 99',
      { PROJECT: 'aws-s3', RUNNER_TEMP: tempDir('t-'), GITHUB_SHA: sha },
      [gh.bin],
      cwd,
    );

  it("checks out dev's last deployed commit, says so when it is not this run's, and outputs it", () => {
    const { dir, shas } = repository([
      ['a', '1'],
      ['b', '2'],
    ]);
    cpSync(join(SCRIPTS, 'promote.sh'), join(dir, 'tools', 'pulumi', 'promote.sh'));
    cpSync(join(SCRIPTS, 'deployed-baseline.sh'), join(dir, 'tools', 'pulumi', 'deployed-baseline.sh'));
    const [older = '', newer = ''] = shas;
    const gh = fakeGitHub(artifactsOf('deployed-aws-s3-dev', deployedIn(3)), {
      'deployed-aws-s3-dev': { 'render.json': '{}', commit: `${older}\n` },
    });
    const result = promote(gh, dir, newer);
    expect(result.status).toBe(0);
    expect(result.output).toBe(`commit=${older}\n`);
    expect(result.stdout).toContain(
      `::notice title=Promoting an earlier commit::aws-s3: dev last deployed ${older}`,
    );
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim()).toBe(older);
  });

  it('dev never deployed: nothing to promote, prod stops', () => {
    const { dir, shas } = repository([['a', '1']]);
    cpSync(join(SCRIPTS, 'promote.sh'), join(dir, 'tools', 'pulumi', 'promote.sh'));
    cpSync(join(SCRIPTS, 'deployed-baseline.sh'), join(dir, 'tools', 'pulumi', 'deployed-baseline.sh'));
    const gh = fakeGitHub(artifactsOf('deployed-aws-s3-dev', { total_count: 0, artifacts: [] }));
    const result = promote(gh, dir, shas[0] ?? '');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('::error title=Nothing to promote::aws-s3 has never deployed to dev');
  });

  it('deploy-prod checks out the commit the approved plan was made from', () => {
    expect(step('deploy-prod', 'Check out the promoted commit').run).toBe(
      'git checkout --detach "$(cat "$RUNNER_TEMP/plan/commit")"',
    );
  });
});

describe('the approved prod preview is saved as an update plan and applied with it', () => {
  it('preview --save-plan reaches the Pulumi CLI, and the preview is in the job summary', () => {
    const pulumi = standIn();
    const temp = tempDir('runner-temp-');
    const npx = tempDir('npx-');
    writeFileSync(join(npx, 'npx'), `#!/bin/sh\nshift\nexec node '${RUNNER}' "$@"\n`, { mode: 0o755 });
    const env = {
      PROJECT: 'aws-s3',
      STACK: 'prod',
      WORK_DIR: 'stacks/aws-s3',
      RUNNER_TEMP: temp,
      FAKE_PULUMI_STDOUT: 'Previewing update (prod): 1 to update',
    };
    const preview = step$(
      step('preview-prod', 'pulumi preview --stack=prod --save-plan').run ?? 'exit 99',
      env,
      [pulumi.bin, npx],
      WORKSPACE,
    );
    expect(preview.status).toBe(0);
    expect(pulumi.commands().map((call) => call.argv)).toEqual([
      expectedArgv('preview', 'prod', [`--save-plan=${temp}/plan/plan.json`]),
    ]);
    const summary = join(temp, 'summary.md');
    const shown = step$(
      step('preview-prod', 'The approved preview, in the job summary').run ?? 'exit 99',
      { ...env, GITHUB_STEP_SUMMARY: summary },
      [],
    );
    expect(shown.status).toBe(0);
    const text = readFileSync(summary, 'utf8');
    expect(text).toContain('### aws-s3 (prod): the update plan to approve');
    expect(text).toContain('Previewing update (prod): 1 to update');
    expect(text).toContain(`Commit \`${readFileSync(join(temp, 'plan', 'commit'), 'utf8').trim()}\``);
  });

  it('deploy-prod downloads that plan and runs up --plan with it, which the runner hands to Pulumi', () => {
    const upload = deploy.jobs['preview-prod']?.steps.find((s) =>
      s.uses?.startsWith('actions/upload-artifact@'),
    );
    const download = deploy.jobs['deploy-prod']?.steps.find((s) =>
      s.uses?.startsWith('actions/download-artifact@'),
    );
    expect(download?.with).toEqual({ name: upload?.with?.['name'], path: upload?.with?.['path'] });
    const up = step('deploy-prod', 'nx run ${{ matrix.project }}:up --stack=prod --plan');
    expect(up.run).toBe('npx nx run "${PROJECT}:up" --stack="${STACK}" --plan="$RUNNER_TEMP/plan/plan.json"');
    const pulumi = standIn();
    const result = run(
      process.execPath,
      [RUNNER, 'up', '--stack=prod', '--cwd=stacks/aws-s3', '--plan=/tmp/plan.json'],
      {
        env: { PATH: [pulumi.bin, NODE_DIR, '/usr/bin', '/bin'].join(':'), CI: 'true' },
      },
    );
    expect(result.status).toBe(0);
    expect(pulumi.commands().map((call) => call.argv)).toEqual([
      expectedArgv('up', 'prod', ['--plan=/tmp/plan.json']),
    ]);
  });
});

describe('stack deploys stop when the applied bootstrap is older than the bootstrap of their commit', () => {
  const { dir, shas } = repository([
    ['bootstrap/index.ts', '1'],
    ['bootstrap/index.ts', '2'],
    ['stacks/aws-s3/index.ts', '3'],
  ]);
  const [first = '', bootstrapChanged = '', stacksChanged = ''] = shas;
  const check = (applied: string | undefined) =>
    step$(`'${SCRIPTS}/bootstrap-applied.sh'`, applied === undefined ? {} : { APPLIED: applied }, [], dir);

  it.each([
    ['applied from the commit that last changed it', 0, bootstrapChanged],
    ['applied from a later commit', 0, stacksChanged],
    ['applied before its last change', 1, first],
    ['no commit of this repository', 1, 'f'.repeat(40)],
  ])('%s: exit %i', (_, status, applied) => {
    const result = check(applied);
    expect(result.status).toBe(status);
    if (applied === first)
      expect(result.stdout).toContain(
        `::error title=Bootstrap older than the stacks::the bootstrap was applied from ${first}, before ${bootstrapChanged} changed it`,
      );
  });

  it('not recorded at all: fails closed, naming the variable', () => {
    const result = check(undefined);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('BOOTSTRAP_APPLIED_COMMIT is not set');
  });

  it('every deploy job runs the check before its up', () => {
    for (const id of ['deploy-dev', 'deploy-staging', 'deploy-prod']) {
      expect(step(id, "The applied bootstrap is not older than this commit's").run).toBe(
        'tools/pulumi/bootstrap-applied.sh',
      );
    }
  });
});

describe('prod must require reviewers, read from GitHub (fail closed)', () => {
  const environment = (rules: unknown[]) => ({
    'repos/acme/store/environments/prod': { name: 'prod', protection_rules: rules },
  });
  const check = (api: Record<string, unknown>) =>
    step$(step('preview-prod', 'The prod environment requires reviewers').run ?? 'exit 99', {}, [
      fakeGitHub(api).bin,
    ]);

  it('a required_reviewers rule with a reviewer passes', () => {
    expect(
      check(
        environment([
          { type: 'required_reviewers', reviewers: [{ type: 'Team', reviewer: { name: 'sre' } }] },
        ]),
      ).status,
    ).toBe(0);
  });

  it.each([
    ['no rule at all', environment([]), 'Prod has no required reviewers'],
    [
      'only a wait timer',
      environment([{ type: 'wait_timer', wait_timer: 30 }]),
      'Prod has no required reviewers',
    ],
    ['the environment cannot be read', {}, 'Prod approval unknown'],
  ])('%s: fails', (_, api, title) => {
    const result = check(api);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`::error title=${title}::`);
  });
});
