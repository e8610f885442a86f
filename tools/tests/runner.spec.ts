/**
 * The runner behind every preview/up/refresh/destroy/drift target, run as the targets run it:
 * `checkpoints-pulumi <target> [--stack=...] [flags]` in a stack folder, against a recording
 * stand-in for the Pulumi CLI. The runner runs in this process (run.cjs); the tests marked 'bin'
 * start it as the targets do, for what only a process shows: its exit status, its output, its folder.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../pulumi/run.cjs';
import {
  DIRECTORY_BUCKET_EXCLUDES,
  expectedArgv,
  inProcess,
  MINIMUM_VERSION,
  type Outcome,
  POLICY_PACK,
  pathWith,
  RUNNER,
  run,
  STACKS,
  standIn,
  tempDir,
  WORKSPACE,
} from './helpers';

const CLEAN = JSON.stringify({ steps: [], changeSummary: { same: 3 } });

/**
 * The runner as CI runs it (CI=true) unless `env` says otherwise, against the stand-in: in this
 * process, or through the bin in a process of its own.
 */
async function runner(
  args: string[],
  options: {
    cwd?: string;
    version?: string;
    exit?: number;
    path?: string;
    env?: Record<string, string | undefined>;
  } = {},
  through: 'main' | 'bin' = 'main',
) {
  const fake = standIn();
  const how = {
    cwd: options.cwd ?? join(WORKSPACE, 'stacks', 'aws-s3'),
    env: {
      PATH: options.path ?? pathWith(fake.bin),
      CI: 'true',
      PULUMI_BACKEND_URL: undefined,
      GITHUB_OUTPUT: undefined,
      FAKE_PULUMI_VERSION: options.version,
      FAKE_PULUMI_EXIT: options.exit === undefined ? undefined : String(options.exit),
      FAKE_PULUMI_STDOUT: CLEAN,
      ...options.env,
    },
  };
  const { status, stdout, stderr } =
    through === 'bin'
      ? run(process.execPath, [RUNNER, ...args], how)
      : await settled(inProcess(main, args, how));
  return { status, stdout, stderr, calls: fake.calls(), commands: fake.commands() };
}

/** An outcome whose status was a promise, once it is settled (its output is complete then). */
async function settled(outcome: Outcome<Promise<number>>): Promise<Outcome> {
  const status = await outcome.status;
  return { status, stdout: outcome.stdout, stderr: outcome.stderr };
}

describe('the argv each target hands the Pulumi CLI', () => {
  const cases: Array<[string, string[], string, string[]]> = [
    ['preview', [], 'dev', []],
    ['preview', ['--stack=prod'], 'prod', []],
    ['preview', ['--stack', 'prod'], 'prod', []],
    ['preview', ['-s', 'prod'], 'prod', []],
    ['up', [], 'dev', []],
    ['up', ['--stack=prod'], 'prod', []],
    ['refresh', ['--stack=dev'], 'dev', []],
    ['refresh', ['--stack=prod'], 'prod', []],
    ['destroy', ['--stack=dev'], 'dev', []],
    ['destroy', ['--stack=prod', '--yes'], 'prod', ['--yes']],
    ['drift', [], 'dev', []],
    ['drift', ['--stack=prod'], 'prod', []],
  ];

  it.each(STACKS.flatMap((stack) => cases.map((c) => [stack, ...c] as const)))(
    '%s: %s %j runs on stack %s',
    async (project, target, args, stack, extra) => {
      const folder = join(WORKSPACE, 'stacks', project);
      const result = await runner([target, ...args], { cwd: folder });
      expect(result.stderr).not.toMatch(/needs the stack|not on PATH/);
      expect(result.status).toBe(0);
      expect(result.commands).toEqual([{ argv: expectedArgv(target, stack, extra), cwd: folder }]);
    },
  );

  it('checks the CLI version, the backend and the stack before running anything', async () => {
    const result = await runner(['preview']);
    expect(result.calls.map((call) => call.argv.slice(0, 2).join(' '))).toEqual([
      'version',
      'whoami --json',
      'stack ls',
      'preview --stack',
    ]);
  });

  it('passes every other flag through unchanged and in order', async () => {
    const result = await runner([
      'up',
      '--stack=prod',
      '--target=urn:pulumi:prod::p::t::n',
      '--parallel=4',
      '-r',
    ]);
    expect(result.commands[0]?.argv).toEqual(
      expectedArgv('up', 'prod', ['--target=urn:pulumi:prod::p::t::n', '--parallel=4', '-r']),
    );
  });

  it('keeps a value with spaces as one argument', async () => {
    const result = await runner(['up', '--message=release 42: more stores']);
    expect(result.commands[0]?.argv).toEqual(
      expectedArgv('up', 'dev', ['--message=release 42: more stores']),
    );
  });

  it('lets a later --stack override the default nx puts first', async () => {
    const result = await runner(['preview', '--stack=dev', '--refresh', '--stack=prod']);
    expect(result.commands[0]?.argv).toEqual(expectedArgv('preview', 'prod', ['--refresh']));
  });

  it('runs in the folder given with --cwd (the bootstrap project runs from the workspace root)', async () => {
    const result = await runner(
      ['preview', '--stack=ci', `--cwd=${WORKSPACE}`],
      { cwd: join(WORKSPACE, 'bootstrap') },
      'bin',
    );
    expect(result.commands).toEqual([{ argv: expectedArgv('preview', 'ci'), cwd: WORKSPACE }]);
  });

  it('resolves a relative --cwd from the current folder', async () => {
    const result = await runner(
      ['drift', '--cwd', '../gcp-gcs'],
      { cwd: join(WORKSPACE, 'stacks', 'aws-s3') },
      'bin',
    );
    expect(result.commands[0]?.cwd).toBe(join(WORKSPACE, 'stacks', 'gcp-gcs'));
  });

  it('passes the policy pack as an absolute path, so it resolves from any stack folder', async () => {
    const result = await runner(['preview']);
    const argv = result.commands[0]?.argv ?? [];
    expect(argv[argv.indexOf('--policy-pack') + 1]).toBe(join(WORKSPACE, 'libs', 'policy'));
  });
});

describe('destroy', () => {
  it('refuses to guess the stack: it must be named', async () => {
    const result = await runner(['destroy', '--yes']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('destroy needs the stack named explicitly');
    expect(result.calls).toEqual([]);
  });

  it('adds no --yes of its own and says how to confirm', async () => {
    const result = await runner(['destroy', '--stack=dev']);
    expect(result.commands[0]?.argv).toEqual(['destroy', '--stack', 'dev', '--non-interactive']);
    expect(result.stderr).toContain('no --yes given');
  });
});

describe("the CLI's exit status is the target's", () => {
  it.each([1, 2, 255])('pulumi exits %i', async (status) => {
    const result = await runner(['up', '--stack=prod'], { exit: status }, 'bin');
    expect(result.commands).toHaveLength(1);
    expect(result.status).toBe(status);
  });
});

describe('a missing or too old CLI', () => {
  it('missing: a clear message with how to install it, and nothing run', async () => {
    const empty = tempDir('no-pulumi-');
    const result = await runner(['preview'], { path: empty });
    expect(result.status).toBe(127);
    expect(result.stderr).toContain("The Pulumi CLI ('pulumi') is not on PATH.");
    expect(result.stderr).toContain(`Install Pulumi CLI ${MINIMUM_VERSION} or newer`);
    expect(result.stderr).toContain(
      `curl -fsSL https://get.pulumi.com | sh -s -- --version ${MINIMUM_VERSION}`,
    );
    expect(result.stderr).toContain('brew install pulumi/tap/pulumi');
    expect(result.stderr).toContain('tools/pulumi/pulumi-version.txt');
  });

  it.each(['v3.100.0', 'v2.25.2', `v3.${Number(MINIMUM_VERSION.split('.')[1]) - 1}.99`])(
    'too old (%s): a clear message, and nothing run',
    async (version) => {
      const result = await runner(['up'], { version });
      expect(result.status).toBe(3);
      expect(result.stderr).toContain(
        `Pulumi CLI ${version} is older than the minimum ${MINIMUM_VERSION} this repository needs.`,
      );
      expect(result.stderr).toContain('curl -fsSL https://get.pulumi.com');
      expect(result.commands).toEqual([]);
    },
  );

  it.each([`v${MINIMUM_VERSION}`, `v${MINIMUM_VERSION}-dev.0`, 'v3.999.0', 'v4.0.0'])(
    'new enough (%s): runs',
    async (version) => {
      const result = await runner(['preview'], { version });
      expect(result.status).toBe(0);
      expect(result.commands).toHaveLength(1);
    },
  );

  it('a version it cannot read is refused with the same help', async () => {
    const result = await runner(['preview'], { version: 'unknown build' });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain("'pulumi version' did not report a version (unknown build)");
    expect(result.commands).toEqual([]);
  });
});

describe('usage errors', () => {
  it('an unknown target', async () => {
    const result = await runner(['apply'], {}, 'bin');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown target 'apply'");
    expect(result.calls).toEqual([]);
  });

  it('a flag of its own without a value', async () => {
    const result = await runner(['preview', '--stack']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--stack needs a value');
  });
});

describe('up asks before it changes anything, unless confirmed up front', () => {
  const local = { CI: undefined };

  it('locally without a terminal and without --yes: refuses, says how, and runs nothing', async () => {
    const result = await runner(['up', '--stack=prod'], { env: local });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('there is no terminal to ask in');
    expect(result.stderr).toContain("'nx run <project>:up --stack=prod --yes'");
    expect(result.calls).toEqual([]);
  });

  it.each(['--yes', '-y'])('locally with %s: applies, with that one confirmation', async (flag) => {
    const result = await runner(['up', '--stack=prod', flag], { env: local });
    expect(result.status).toBe(0);
    expect(result.commands.map((call) => call.argv)).toEqual([
      ['up', '--stack', 'prod', '--non-interactive', '--policy-pack', POLICY_PACK, '--diff', flag],
    ]);
  });

  it.each(['true', '1'])('in CI (CI=%s): applies with --yes', async (ci) => {
    const result = await runner(['up', '--stack=dev'], { env: { CI: ci } });
    expect(result.commands.map((call) => call.argv)).toEqual([expectedArgv('up', 'dev')]);
  });

  it('CI=false is not CI', async () => {
    const result = await runner(['up'], { env: { CI: 'false' } });
    expect(result.status).toBe(2);
    expect(result.calls).toEqual([]);
  });

  it('in a terminal: Pulumi runs interactively, so it shows the preview and asks (no --yes, no --non-interactive)', () => {
    const fake = standIn();
    const folder = join(WORKSPACE, 'stacks', 'gcp-gcs');
    // `script` gives the runner a pseudo-terminal as stdin, as a shell does.
    const result = run('script', ['-qec', `'${process.execPath}' '${RUNNER}' up --stack=prod`, '/dev/null'], {
      cwd: folder,
      env: { PATH: pathWith(fake.bin), CI: undefined, PULUMI_BACKEND_URL: undefined },
    });
    expect(result.status).toBe(0);
    expect(fake.commands()).toEqual([
      { argv: ['up', '--stack', 'prod', '--policy-pack', POLICY_PACK, '--diff'], cwd: folder },
    ]);
  });
});

describe('the backend and the stack are checked first, with the fix', () => {
  it('not logged in: says how to log in, and runs nothing', async () => {
    const result = await runner(['preview'], { env: { FAKE_PULUMI_WHOAMI_EXIT: '255' } });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain('the Pulumi CLI is not logged in to a state backend it can open');
    expect(result.stderr).toContain('PULUMI_ACCESS_TOKEN must be set for login');
    expect(result.stderr).toContain("Fix: log in once with 'pulumi login'");
    expect(result.commands).toEqual([]);
  });

  it('a configured backend it cannot open: names PULUMI_BACKEND_URL and what to check', async () => {
    const result = await runner(['drift'], {
      env: { FAKE_PULUMI_WHOAMI_EXIT: '255', PULUMI_BACKEND_URL: 's3://no-such-state-bucket' },
    });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain('PULUMI_BACKEND_URL is s3://no-such-state-bucket: check that the bucket');
    expect(result.commands).toEqual([]);
  });

  it('a stack that does not exist: names the backend, the stacks there and the stack init to run', async () => {
    const folder = join(WORKSPACE, 'stacks', 'azure-adls');
    const result = await runner(['preview', '--stack=prod'], {
      cwd: folder,
      env: { FAKE_PULUMI_STACKS: 'dev', FAKE_PULUMI_BACKEND: 's3://state' },
    });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain(
      "stack 'prod' does not exist in s3://state (stacks there for this project: dev).",
    );
    expect(result.stderr).toContain(`Fix: create it once, from ${folder}: 'pulumi stack init prod'`);
    expect(result.commands).toEqual([]);
  });

  it('finds a stack listed with its organization and project', async () => {
    const result = await runner(['preview', '--stack=prod'], {
      env: { FAKE_PULUMI_STACKS: 'acme/checkpoints-aws/dev acme/checkpoints-aws/prod' },
    });
    expect(result.status).toBe(0);
    expect(result.commands.map((call) => call.argv)).toEqual([expectedArgv('preview', 'prod')]);
  });

  it('a first deploy in CI on Pulumi Cloud creates the stack, then applies', async () => {
    const result = await runner(['up', '--stack=prod'], { env: { FAKE_PULUMI_STACKS: '-' } });
    expect(result.status).toBe(0);
    expect(result.commands.map((call) => call.argv)).toEqual([
      ['stack', 'init', 'prod', '--non-interactive'],
      expectedArgv('up', 'prod'),
    ]);
  });

  it.each([
    ['a self-managed backend in CI', { CI: 'true', FAKE_PULUMI_BACKEND: 'gs://state' }],
    ['Pulumi Cloud outside CI', { CI: undefined }],
  ])('no stack is created on %s', async (_, env) => {
    const result = await runner(['up', '--stack=prod', '--yes'], {
      env: { FAKE_PULUMI_STACKS: 'dev', ...env },
    });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain("'pulumi stack init prod'");
    expect(result.commands).toEqual([]);
  });
});

describe('refresh and drift leave the S3 Express directory buckets out unless asked', () => {
  const included = (target: string, stack: string, extra: string[] = []) =>
    expectedArgv(target, stack, extra).filter((arg) => !DIRECTORY_BUCKET_EXCLUDES.includes(arg));

  it('a refresh leaves them out by default, and says why and how to include them', async () => {
    const result = await runner(['refresh', '--stack=prod']);
    expect(result.commands[0]?.argv).toEqual(expectedArgv('refresh', 'prod'));
    expect(result.commands[0]?.argv.join(' ')).toContain(
      '--exclude **aws:s3/directoryBucket:DirectoryBucket::*',
    );
    expect(result.stderr).toContain('s3express:CreateSession');
    expect(result.stderr).toContain('Add --include-directory-buckets');
  });

  it.each(['refresh', 'drift'])(
    '%s --include-directory-buckets refreshes them too, and the flag never reaches Pulumi',
    async (target) => {
      const result = await runner([target, '--stack=prod', '--include-directory-buckets', '--parallel=2']);
      const argv = result.commands[0]?.argv ?? [];
      expect(argv).not.toContain('--exclude');
      expect(argv).not.toContain('--include-directory-buckets');
      expect(argv).toEqual(included(target, 'prod', ['--parallel=2']));
      expect(result.stderr).not.toContain('Add --include-directory-buckets');
    },
  );

  it('takes the flag as nx forwards it (--include-directory-buckets=true), and =false as its absence', async () => {
    const on = await runner(['refresh', '--stack=prod', '--include-directory-buckets=true']);
    expect(on.commands[0]?.argv).toEqual(included('refresh', 'prod'));
    const off = await runner(['refresh', '--stack=prod', '--include-directory-buckets=false']);
    expect(off.commands[0]?.argv).toEqual(expectedArgv('refresh', 'prod'));
  });

  it('a refresh that fails with them included points at the session it needs', async () => {
    const result = await runner(['refresh', '--stack=prod', '--include-directory-buckets'], { exit: 255 });
    expect(result.status).toBe(255);
    expect(result.stderr).toContain('may not open an S3 Express data session');
    const plain = await runner(['refresh', '--stack=prod'], { exit: 255 });
    expect(plain.stderr).not.toContain('may not open an S3 Express data session');
  });

  it.each(['preview', 'up', 'destroy'])('%s refuses the flag: it refreshes nothing', async (target) => {
    const result = await runner([target, '--stack=dev', '--include-directory-buckets']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      `--include-directory-buckets is for refresh and drift only, not ${target}`,
    );
    expect(result.commands).toEqual([]);
  });
});

describe('drift: the preview of a refresh, with drift and "could not check" told apart', () => {
  const digest = (summary: Record<string, number>, steps: unknown[] = []) =>
    JSON.stringify({ steps, changeSummary: summary });

  it('nothing differs: exit 0, and says so', async () => {
    const result = await runner(['drift', '--stack=prod'], {
      env: { FAKE_PULUMI_STDOUT: digest({ same: 12 }) },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("no drift: every resource of 'prod' matches its recorded state.");
  });

  it('a resource changed outside Pulumi: exit 1, with what and where', async () => {
    const changed = 'urn:pulumi:prod::checkpoints-aws::aws:s3/bucketVersioning:BucketVersioning::v';
    const result = await runner(
      ['drift', '--stack=prod'],
      {
        env: {
          FAKE_PULUMI_STDOUT: digest({ same: 11, update: 1 }, [
            { op: 'refresh', urn: 'urn:pulumi:prod::checkpoints-aws::aws:s3/bucket:Bucket::b' },
            { op: 'refresh', urn: changed, diffReasons: ['versioningConfiguration'] },
          ]),
        },
      },
      'bin',
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("DRIFT in 'prod': 1 to update");
    expect(result.stdout).toContain(`  refresh ${changed}`);
    expect(result.stdout).not.toContain('Bucket::b');
  });

  it('a resource deleted outside Pulumi is drift too', async () => {
    const result = await runner(['drift'], { env: { FAKE_PULUMI_STDOUT: digest({ same: 2, delete: 1 }) } });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("DRIFT in 'dev': 1 to delete");
  });

  it.each([
    ['pulumi fails', { FAKE_PULUMI_EXIT: '1', FAKE_PULUMI_STDOUT: '' }],
    ['pulumi fails after a summary', { FAKE_PULUMI_EXIT: '255' }],
    ['pulumi prints no change summary', { FAKE_PULUMI_STDOUT: 'not json' }],
  ])('%s: "could not check" (exit 5), never reported as drift', async (_, env) => {
    const result = await runner(['drift', '--stack=prod'], { env });
    expect(result.status).toBe(5);
    expect(result.stderr).toContain("drift of 'prod' could not be checked");
    expect(result.stdout).not.toContain('DRIFT');
  });

  it.each([
    ['clean', { FAKE_PULUMI_STDOUT: digest({ same: 1 }) }],
    ['drifted', { FAKE_PULUMI_STDOUT: digest({ same: 1, update: 2 }) }],
    ['unchecked', { FAKE_PULUMI_EXIT: '255' }],
  ])('in GitHub Actions the verdict is also the step output drift=%s', async (verdict, env) => {
    const output = join(tempDir('github-output-'), 'output');
    writeFileSync(output, '');
    await runner(['drift'], { env: { ...env, GITHUB_OUTPUT: output } });
    expect(readFileSync(output, 'utf8')).toBe(`drift=${verdict}\n`);
  });

  it('a stack that cannot be reached is "could not check" too, not drift', async () => {
    const result = await runner(['drift'], { env: { FAKE_PULUMI_WHOAMI_EXIT: '255' } });
    expect([0, 1]).not.toContain(result.status);
  });
});

describe('--summary: what a preview or up changed, for the pull-request report', () => {
  const events = [
    { sequence: 0, preludeEvent: { config: {} } },
    {
      sequence: 1,
      policyEvent: {
        resourceUrn: 'urn:pulumi:dev::checkpoints-aws::aws:s3/bucket:Bucket::b',
        message: 'public access\n',
        policyName: 's3-no-public-access',
        policyPackName: 'checkpoints',
        enforcementLevel: 'mandatory',
      },
    },
    {
      sequence: 2,
      summaryEvent: { resourceChanges: { create: 2, update: 1, replace: 1, same: 9 }, isPreview: true },
    },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n');

  it('reads the engine event log into the summary file, with the stack and the outcome', async () => {
    const file = join(tempDir('summary-'), 'aws-s3', 'dev.json');
    const result = await runner(['preview', `--summary=${file}`], { env: { FAKE_PULUMI_EVENTS: events } });
    expect(result.status).toBe(0);
    const argv = result.commands[0]?.argv ?? [];
    expect(argv.slice(0, -2)).toEqual(expectedArgv('preview', 'dev'));
    expect(argv.at(-2)).toBe('--event-log');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      stack: 'dev',
      command: 'preview',
      folder: join(WORKSPACE, 'stacks', 'aws-s3'),
      status: 'succeeded',
      exitStatus: 0,
      changes: { create: 2, update: 1, replace: 1, same: 9 },
      violations: [
        {
          policy: 's3-no-public-access',
          level: 'mandatory',
          urn: 'urn:pulumi:dev::checkpoints-aws::aws:s3/bucket:Bucket::b',
          message: 'public access',
        },
      ],
    });
  });

  it("a failed preview still leaves a summary that says so, with Pulumi's exit status", async () => {
    const file = join(tempDir('summary-'), 'failed.json');
    const result = await runner(['preview', '--stack=prod', `--summary=${file}`], {
      exit: 255,
      env: { FAKE_PULUMI_EVENTS: '' },
    });
    expect(result.status).toBe(255);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      stack: 'prod',
      status: 'failed',
      exitStatus: 255,
      changes: null,
      violations: [],
    });
  });

  it('in CI, a stack not on Pulumi Cloud yet is no preview failure: its first deploy creates it', async () => {
    const file = join(tempDir('summary-'), 'new.json');
    const result = await runner(['preview', '--stack=prod', `--summary=${file}`], {
      env: { FAKE_PULUMI_STACKS: 'dev' },
    });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain(
      "stack 'prod' does not exist in https://api.pulumi.com yet: its first deploy creates it",
    );
    expect(result.commands).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      stack: 'prod',
      status: 'new-stack',
      changes: null,
    });
  });

  it.each([
    ['on a self-managed backend, whose first deploy cannot create it', { FAKE_PULUMI_BACKEND: 's3://state' }],
    ['outside CI', { CI: undefined }],
  ])('but a preview of a missing stack fails %s', async (_, env) => {
    const result = await runner(['preview', '--stack=prod'], { env: { FAKE_PULUMI_STACKS: 'dev', ...env } });
    expect(result.status).toBe(4);
    expect(result.stderr).toContain("'pulumi stack init prod'");
  });

  it('is refused for targets that change nothing to summarize', async () => {
    const result = await runner(['drift', '--summary=x.json']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--summary is for preview and up only, not drift');
    expect(result.calls).toEqual([]);
  });
});
