'use strict';
/**
 * ts-node's swc transpiler (what a stack's tsconfig.json asks for with `"ts-node": { "swc": true }`), with
 * each file's output kept on disk and handed back while the file, the compiler options and the versions
 * of ts-node and swc are the same. Every render transpiles again the 180 or so TypeScript files of the
 * stack and the libs, about a tenth of a 1-store render, though they
 * rarely change between two renders. A ts-node transpiler module (https://typestrong.org/ts-node/docs/transpilers):
 * `create` gets ts-node's options and returns `transpile(input, { fileName })`.
 *
 * The cache is `node_modules/.cache/checkpoints-synth/swc` (CHECKPOINTS_SYNTH_CACHE names another
 * folder); an entry is named by a SHA-256 of everything its output is a function of, and written whole
 * (a temporary file renamed), so a render never reads another's half-written entry. A cache that cannot
 * be read or written is a render without one.
 */
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const swcTranspiler = require('ts-node/transpilers/swc');

const FORMAT = 1;
const VERSIONS = [FORMAT, require('ts-node/package.json').version, require('@swc/core/package.json').version];

function cacheFolder() {
  return (
    process.env.CHECKPOINTS_SYNTH_CACHE ??
    join(__dirname, '..', '..', '..', 'node_modules', '.cache', 'checkpoints-synth', 'swc')
  );
}

function create(createOptions) {
  // swc itself (a 10 MB native module) is loaded only when a file is not in the cache.
  let swc;
  const transpile = (input, transpileOptions) =>
    (swc ??= swcTranspiler.create(createOptions)).transpile(input, transpileOptions);
  const folder = cacheFolder();
  const settings = JSON.stringify([
    VERSIONS,
    createOptions.nodeModuleEmitKind ?? null,
    createOptions.service.config.options,
  ]);
  return {
    transpile(input, transpileOptions) {
      const key = createHash('sha256')
        .update(settings)
        .update('\0')
        .update(transpileOptions.fileName)
        .update('\0')
        .update(input)
        .digest('hex');
      const path = join(folder, `${key}.json`);
      try {
        return JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        // Not cached yet (or unreadable): transpiled below.
      }
      const output = transpile(input, transpileOptions);
      try {
        mkdirSync(folder, { recursive: true });
        const partial = `${path}.${process.pid}.tmp`;
        writeFileSync(
          partial,
          JSON.stringify({ outputText: output.outputText, sourceMapText: output.sourceMapText }),
        );
        renameSync(partial, path);
      } catch {
        // A read-only or full disk: the render goes on without the cache.
      }
      return output;
    },
  };
}

module.exports = { create };
