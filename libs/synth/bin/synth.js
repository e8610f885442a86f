#!/usr/bin/env node
'use strict';
/**
 * Offline render of a Pulumi stack (DESIGN section 6). TypeScript is loaded exactly as Pulumi's
 * Node.js runner loads it at `pulumi preview` time: ts-node, the project's tsconfig.json (and its
 * "ts-node" section), type-check skipped when the tsconfig sets `noCheck`.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const tsutils = require('@pulumi/pulumi/tsutils');

const tsConfigPath = process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? 'tsconfig.json';
const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
require(tsnodeRequire).register({
  compiler: typescriptRequire,
  transpileOnly: process.env.PULUMI_NODEJS_TRANSPILE_ONLY
    ? process.env.PULUMI_NODEJS_TRANSPILE_ONLY === 'true'
    : compilerOptions.noCheck,
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

require(join(__dirname, '..', 'src', 'cli.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
