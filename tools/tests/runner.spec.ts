/**
 * The runner behind every preview/up/refresh/destroy/drift target, run as the targets run it:
 * `checkpoints-pulumi <target> [--stack=...] [flags]` in a stack folder, against a recording
 * stand-in for the Pulumi CLI.
 */
import { join } from 'node:path';
import {
  expectedArgv,
  MINIMUM_VERSION,
  pathWith,
  RUNNER,
  run,
  STACKS,
  standIn,
  tempDir,
  WORKSPACE,
} from './helpers';

function runner(
  args: string[],
  options: { cwd?: string; version?: string; exit?: number; path?: string } = {},
) {
  const fake = standIn();
  const result = run(process.execPath, [RUNNER, ...args], {
    cwd: options.cwd ?? join(WORKSPACE, 'stacks', 'aws-s3'),
    env: {
      PATH: options.path ?? pathWith(fake.bin),
      FAKE_PULUMI_VERSION: options.version,
      FAKE_PULUMI_EXIT: options.exit === undefined ? undefined : String(options.exit),
    },
  });
  return { ...result, calls: fake.calls(), commands: fake.commands() };
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
    (project, target, args, stack, extra) => {
      const folder = join(WORKSPACE, 'stacks', project);
      const result = runner([target, ...args], { cwd: folder });
      expect(result.stderr).not.toMatch(/needs the stack|not on PATH/);
      expect(result.status).toBe(0);
      expect(result.commands).toEqual([{ argv: expectedArgv(target, stack, extra), cwd: folder }]);
    },
  );

  it('checks the CLI version before running anything', () => {
    const result = runner(['preview']);
    expect(result.calls.map((call) => call.argv[0])).toEqual(['version', 'preview']);
  });

  it('passes every other flag through unchanged and in order', () => {
    const result = runner(['up', '--stack=prod', '--target=urn:pulumi:prod::p::t::n', '--parallel=4', '-r']);
    expect(result.commands[0]?.argv).toEqual(
      expectedArgv('up', 'prod', ['--target=urn:pulumi:prod::p::t::n', '--parallel=4', '-r']),
    );
  });

  it('keeps a value with spaces as one argument', () => {
    const result = runner(['up', '--message=release 42: more stores']);
    expect(result.commands[0]?.argv).toEqual(
      expectedArgv('up', 'dev', ['--message=release 42: more stores']),
    );
  });

  it('lets a later --stack override the default nx puts first', () => {
    const result = runner(['preview', '--stack=dev', '--refresh', '--stack=prod']);
    expect(result.commands[0]?.argv).toEqual(expectedArgv('preview', 'prod', ['--refresh']));
  });

  it('runs in the folder given with --cwd (the bootstrap project runs from the workspace root)', () => {
    const result = runner(['preview', '--stack=ci', `--cwd=${WORKSPACE}`], {
      cwd: join(WORKSPACE, 'bootstrap'),
    });
    expect(result.commands).toEqual([{ argv: expectedArgv('preview', 'ci'), cwd: WORKSPACE }]);
  });

  it('resolves a relative --cwd from the current folder', () => {
    const result = runner(['drift', '--cwd', '../gcp-gcs'], { cwd: join(WORKSPACE, 'stacks', 'aws-s3') });
    expect(result.commands[0]?.cwd).toBe(join(WORKSPACE, 'stacks', 'gcp-gcs'));
  });

  it('passes the policy pack as an absolute path, so it resolves from any stack folder', () => {
    const result = runner(['preview']);
    const argv = result.commands[0]?.argv ?? [];
    expect(argv[argv.indexOf('--policy-pack') + 1]).toBe(join(WORKSPACE, 'libs', 'policy'));
  });
});

describe('destroy', () => {
  it('refuses to guess the stack: it must be named', () => {
    const result = runner(['destroy', '--yes']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('destroy needs the stack named explicitly');
    expect(result.calls).toEqual([]);
  });

  it('adds no --yes of its own and says how to confirm', () => {
    const result = runner(['destroy', '--stack=dev']);
    expect(result.commands[0]?.argv).toEqual(['destroy', '--stack', 'dev', '--non-interactive']);
    expect(result.stderr).toContain('no --yes given');
  });
});

describe("the CLI's exit status is the target's", () => {
  it.each([1, 2, 255])('pulumi exits %i', (status) => {
    const result = runner(['up', '--stack=prod'], { exit: status });
    expect(result.commands).toHaveLength(1);
    expect(result.status).toBe(status);
  });
});

describe('a missing or too old CLI', () => {
  it('missing: a clear message with how to install it, and nothing run', () => {
    const empty = tempDir('no-pulumi-');
    const result = runner(['preview'], { path: empty });
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
    (version) => {
      const result = runner(['up'], { version });
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
    (version) => {
      const result = runner(['preview'], { version });
      expect(result.status).toBe(0);
      expect(result.commands).toHaveLength(1);
    },
  );

  it('a version it cannot read is refused with the same help', () => {
    const result = runner(['preview'], { version: 'unknown build' });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain("'pulumi version' did not report a version (unknown build)");
    expect(result.commands).toEqual([]);
  });
});

describe('usage errors', () => {
  it('an unknown target', () => {
    const result = runner(['apply']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown target 'apply'");
    expect(result.calls).toEqual([]);
  });

  it('a flag of its own without a value', () => {
    const result = runner(['preview', '--stack']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--stack needs a value');
  });
});
