/**
 * docs/add-a-store.md, run as a newcomer would: on a copy of the repository (its files, this workspace's
 * node_modules), the guide's `<!-- guide:run -->` blocks run in order and its `<!-- guide:store FILE -->`
 * entry is added under FILE's `checkpoints:stores`. Offline: no cloud, no Pulumi CLI.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, parseDocument } from 'yaml';
import { NODE_DIR, tempDir, WORKSPACE } from './helpers';

const GUIDE = readFileSync(join(WORKSPACE, 'docs', 'add-a-store.md'), 'utf8');

/** The guide's marked blocks in order: `run` (a shell script) or `store` (a YAML entry and the file it goes in). */
function steps(): ({ kind: 'run'; script: string } | { kind: 'store'; file: string; entry: unknown })[] {
  return [...GUIDE.matchAll(/<!-- guide:(run|store)\s*([^ ]*?)\s*-->\n+```\w+\n([\s\S]*?)```/g)].map(
    ([, kind, file = '', body = '']) =>
      kind === 'run'
        ? { kind: 'run', script: body }
        : { kind: 'store', file, entry: (parse(body) as unknown[])[0] },
  );
}

/** The repository's files without what a checkout does not have (installs, outputs, caches). */
function copyOfRepository(): string {
  const dir = tempDir('guide-repo-');
  const skipped = new Set(['node_modules', '.git', 'dist', '.nx']);
  cpSync(WORKSPACE, dir, {
    recursive: true,
    filter: (source) => !skipped.has(relative(WORKSPACE, source).split('/')[0] ?? ''),
  });
  symlinkSync(join(WORKSPACE, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

describe('docs/add-a-store.md runs end to end, offline', () => {
  it('has the steps the test runs', () => {
    expect(steps().map((step) => step.kind)).toEqual(['run', 'store', 'run']);
  });

  it('renders, adds the store, plans it as one created store with nothing lost, and reports it', () => {
    const repo = copyOfRepository();
    const outputs: string[] = [];
    for (const step of steps()) {
      if (step.kind === 'store') {
        const file = join(repo, step.file);
        const doc = parseDocument(readFileSync(file, 'utf8'));
        const stores = doc.getIn(['config', 'checkpoints:stores']) as { add(value: unknown): void };
        stores.add(doc.createNode(step.entry));
        writeFileSync(file, doc.toString());
        continue;
      }
      const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step.script], {
        cwd: repo,
        encoding: 'utf8',
        env: {
          PATH: [join(repo, 'node_modules', '.bin'), NODE_DIR, '/usr/bin', '/bin'].join(':'),
          HOME: repo,
          NX_DAEMON: 'false',
          NX_NO_CLOUD: 'true',
          NX_TUI: 'false',
          NX_SKIP_NX_CACHE: 'true',
        },
        maxBuffer: 64 * 1024 * 1024,
      });
      if (result.status !== 0) {
        throw new Error(
          `'${step.script.trim()}' exited ${result.status}:\n${result.stdout.slice(-3000)}${result.stderr.slice(-2000)}`,
        );
      }
      outputs.push(result.stdout);
    }
    const [, checked = ''] = outputs;
    expect(checked).toContain('store vision-pretrain: created');
    expect(checked).toContain('No resource holding checkpoints or their keys would be deleted or replaced.');
    expect(checked).toMatch(/vision-pretrain \(new\): delete recovery \d+ d/);
    expect(checked).toContain('+ arn:aws:iam::123456789012:role/ml-dev-vision-training write');
    expect(existsSync(join(repo, 'dist', 'synth', 'aws-s3', 'dev.json'))).toBe(true);
  }, 300_000);
});
