#!/usr/bin/env node
'use strict';
/**
 * Offline render of a Pulumi stack. TypeScript is loaded as Pulumi's Node.js runner
 * loads it at `pulumi preview` time: ts-node, the project's tsconfig.json (and its "ts-node" section),
 * type-check skipped when the tsconfig sets `noCheck`; the one difference is that swc's output for each
 * file is kept between renders (cached-swc.js).
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const tsutils = require('@pulumi/pulumi/tsutils');

const tsConfigPath = process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? 'tsconfig.json';
const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
const transpileOnly = process.env.PULUMI_NODEJS_TRANSPILE_ONLY
  ? process.env.PULUMI_NODEJS_TRANSPILE_ONLY === 'true'
  : compilerOptions.noCheck;
require(tsnodeRequire).register({
  compiler: typescriptRequire,
  transpileOnly,
  // The swc transpiler a tsconfig asks for, with its output kept between renders (cached-swc.js).
  ...(transpileOnly && asksForSwc(tsConfigPath)
    ? { swc: false, transpiler: require.resolve('./cached-swc.js') }
    : {}),
  project: tsConfigPath,
  skipProject: !existsSync(tsConfigPath),
  compilerOptions: {
    target: 'ES2020',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    sourceMap: 'true',
    ...compilerOptions,
  },
});

/** Whether the tsconfig's own `ts-node` section sets `swc: true` (ts-node's swc transpiler). */
function asksForSwc(path) {
  if (!existsSync(path)) return false;
  const ts = require(typescriptRequire);
  return ts.readConfigFile(path, ts.sys.readFile).config?.['ts-node']?.swc === true;
}

require(join(__dirname, '..', 'src', 'cli.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
