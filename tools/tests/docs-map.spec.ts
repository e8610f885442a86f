/**
 * The docs a newcomer finds first: README's links and docs/README.md's map by task resolve (files and
 * section anchors, as GitHub slugs headings), the map covers the everyday tasks, and the editor schema
 * wiring points each stack's config files at its cloud's generated schema.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { WORKSPACE } from './helpers';

const read = (path: string) => readFileSync(join(WORKSPACE, path), 'utf8');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

/** Every relative link of a Markdown file that does not resolve: a missing file or a missing section. */
function brokenLinks(file: string): string[] {
  const text = read(file).replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const resolved = path === '' ? file : join(dirname(file), path);
    if (!existsSync(join(WORKSPACE, resolved))) {
      broken.push(`${file}: ${target} (no file ${resolved})`);
      continue;
    }
    if (anchor && resolved.endsWith('.md')) {
      const anchors = [...read(resolved).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? ''));
      if (!anchors.includes(anchor)) broken.push(`${file}: ${target} (no section #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

describe('the docs by task', () => {
  it.each(['README.md', 'docs/README.md', 'docs/add-a-store.md', 'docs/warnings.md', 'docs/architecture.md'])(
    '%s: every relative link resolves, sections included',
    (file) => {
      expect(brokenLinks(file)).toEqual([]);
    },
  );

  it('slugs a heading as GitHub does (punctuation dropped, spaces as dashes)', () => {
    expect(slug('Retention keys (`checkpoints:stores[i].retention`)')).toBe(
      'retention-keys-checkpointsstoresiretention',
    );
  });

  it('docs/README.md maps every everyday task to its guide', () => {
    const map = read('docs/README.md');
    for (const task of [
      'add a store',
      'how long checkpoints are kept',
      'rename a store',
      'retire',
      'rotate',
      'recover a deleted',
      'for the first time',
      'bootstrap a new account',
    ]) {
      expect([task, map.includes(task)]).toEqual([task, true]);
    }
  });

  it('README leads to the map and the first guide on its first screen', () => {
    const first = read('README.md').split('\n').slice(0, 12).join('\n');
    expect(first).toContain('Checkpoint storage platform');
    const readme = read('README.md');
    expect(readme).toContain('(docs/README.md)');
    expect(readme).toContain('(docs/add-a-store.md)');
    expect(readme.split('\n').length).toBeLessThan(100);
  });
});

describe('editor support for Pulumi.<stack>.yaml', () => {
  const stacks = readdirSync(join(WORKSPACE, 'stacks'));

  it("VS Code's YAML extension maps each stack folder's config files to the schema its files name", () => {
    const settings = JSON.parse(read('.vscode/settings.json')) as { 'yaml.schemas': Record<string, string> };
    const mapped = Object.entries(settings['yaml.schemas']).map(([schema, glob]) => [glob, schema]);
    for (const stack of stacks) {
      const configs = readdirSync(join(WORKSPACE, 'stacks', stack)).filter((name) =>
        /^Pulumi\..+\.yaml$/.test(name),
      );
      expect(configs.length).toBeGreaterThan(0);
      for (const config of configs) {
        // The schema line `npm run config:generate` writes (its staleness test keeps it current).
        const named = /^# yaml-language-server: \$schema=(\S+)$/m.exec(
          read(join('stacks', stack, config)),
        )?.[1];
        const schema =
          named && `./${join('stacks', stack, named)}`.replace(/^\.\/stacks\/[^/]+\/\.\.\/\.\.\//, './');
        expect(mapped).toContainEqual([`stacks/${stack}/Pulumi.*.yaml`, schema]);
        expect(existsSync(join(WORKSPACE, schema ?? 'missing'))).toBe(true);
      }
    }
    expect(JSON.parse(read('.vscode/extensions.json'))).toEqual({ recommendations: ['redhat.vscode-yaml'] });
  });
});

describe('review wiring', () => {
  it('CODEOWNERS names an owner for every path it lists, and every path exists', () => {
    const lines = read('.github/CODEOWNERS')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'));
    expect(lines[0]).toMatch(/^\*\s+@/);
    for (const line of lines) {
      const [pattern = '', ...owners] = line.trim().split(/\s+/);
      expect(owners.length).toBeGreaterThan(0);
      const fixed = pattern.replace(/^\//, '').split('*')[0] ?? '';
      expect([pattern, existsSync(join(WORKSPACE, fixed))]).toEqual([pattern, true]);
    }
  });

  it('the pull request template asks about the verdicts, the store tables, the access and the warnings', () => {
    const template = read('.github/pull_request_template.md');
    for (const word of ['verdicts', 'recovery windows', 'access', 'Warnings', 'Pulumi.prod.yaml']) {
      expect(template).toContain(word);
    }
  });
});
