import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Transpiler {
  transpile(input: string, options: { fileName: string }): { outputText: string; sourceMapText?: string };
}
type Create = (createOptions: object) => Transpiler;

/* eslint-disable @typescript-eslint/no-require-imports */
const cached = require('../bin/cached-swc.js') as { create: Create };
const swc = require('ts-node/transpilers/swc') as { create: Create };
/* eslint-enable @typescript-eslint/no-require-imports */

/** What ts-node hands a transpiler module: the compiler options (ES2020, CommonJS) and its resolver. */
const createOptions = (options: object = { target: 7, module: 1 }) => ({
  service: { config: { options }, projectLocalResolveHelper: require.resolve },
  transpilerConfigLocalResolveHelper: require.resolve,
  nodeModuleEmitKind: 'nodecjs',
});

const source = "export const ring: string = 'checkpoints';\n";
const file = { fileName: '/project/src/ring.ts' };

let cache: string;
beforeEach(() => {
  cache = mkdtempSync(join(tmpdir(), 'synth-swc-'));
  process.env['CHECKPOINTS_SYNTH_CACHE'] = cache;
});
afterEach(() => {
  delete process.env['CHECKPOINTS_SYNTH_CACHE'];
  rmSync(cache, { recursive: true, force: true });
});

/** The one entry in the cache, with its output replaced by `text`: what a later transpile hands back if it reads it. */
function replaceKeptOutput(text: string): void {
  const [entry] = readdirSync(cache);
  const path = join(cache, entry ?? '');
  writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, 'utf8')), outputText: text }));
}

describe("synth's cached swc transpiler", () => {
  it("transpiles as ts-node's swc transpiler does, and keeps the output", () => {
    const output = cached.create(createOptions()).transpile(source, file);
    expect(output).toEqual(swc.create(createOptions()).transpile(source, file));
    expect(output.outputText).toContain("const ring = 'checkpoints'");
    expect(readdirSync(cache)).toHaveLength(1);
  });

  it('hands the kept output back for the same source, file and compiler options, in a later render', () => {
    cached.create(createOptions()).transpile(source, file);
    replaceKeptOutput('kept');
    expect(cached.create(createOptions()).transpile(source, file).outputText).toBe('kept');
  });

  it('transpiles again when the source, the file or the compiler options differ', () => {
    cached.create(createOptions()).transpile(source, file);
    replaceKeptOutput('kept');
    const changed = cached.create(createOptions()).transpile(`${source}export const step = 1;\n`, file);
    expect(changed.outputText).toContain('const step = 1');
    const moved = cached.create(createOptions()).transpile(source, { fileName: '/project/src/moved.ts' });
    expect(moved.outputText).toContain("const ring = 'checkpoints'");
    const es2022 = cached.create(createOptions({ target: 9, module: 1 })).transpile(source, file);
    expect(es2022.outputText).toContain("const ring = 'checkpoints'");
    expect(readdirSync(cache)).toHaveLength(4);
  });

  it('transpiles without a cache when its folder cannot be made', () => {
    const notAFolder = join(cache, 'file');
    writeFileSync(notAFolder, '');
    process.env['CHECKPOINTS_SYNTH_CACHE'] = join(notAFolder, 'swc');
    expect(cached.create(createOptions()).transpile(source, file)).toEqual(
      swc.create(createOptions()).transpile(source, file),
    );
  });
});
