import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readStackConfig } from '../src';
import type { PulumiProject } from '../src/stack-files';

function configOf(yaml: string): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'synth-stack-files-'));
  const file = join(dir, 'Pulumi.dev.yaml');
  writeFileSync(file, yaml);
  const project: PulumiProject = {
    dir,
    name: 'checkpoints-aws',
    main: join(dir, 'index.ts'),
    typescript: true,
    stackConfigDir: dir,
    projectConfig: {},
  };
  try {
    return readStackConfig(file, project).config;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('readStackConfig: values as Pulumi hands them to programs', () => {
  it('keeps a number beyond the double range a number beyond the range, not null', () => {
    const config = configOf(
      'config:\n  checkpoints:stores:\n    - retention: { coolAfterDays: 1e400, expireAfterDays: -1e400 }\n',
    );
    expect(config['checkpoints:stores']).toBe(
      '[{"retention":{"coolAfterDays":1e400,"expireAfterDays":-1e400}}]',
    );
    expect(JSON.parse(config['checkpoints:stores'] ?? '')).toEqual([
      { retention: { coolAfterDays: Infinity, expireAfterDays: -Infinity } },
    ]);
  });

  it('files an un-namespaced key under the project, as Pulumi does', () => {
    expect(configOf('config:\n  stores: []\n')).toEqual({ 'checkpoints-aws:stores': '[]' });
  });
});
