import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const deferredModules = join(__dirname, '..', 'bin', 'deferred-modules.js');

/**
 * Runs `script` in a node that first installs the CLI's deferred modules (the hook patches node's own
 * `require`, which jest replaces in a test file); `standIns` holds what the hook handed out.
 */
function inNode(script: string): unknown {
  const result = spawnSync(
    process.execPath,
    [
      '-e',
      `const standIns = require(${JSON.stringify(deferredModules)}).deferPulumiClosureModules();\n${script}`,
    ],
    { encoding: 'utf8', cwd: __dirname },
  );
  expect(result.stderr).toBe('');
  return JSON.parse(result.stdout);
}

const arboristLoaded = "Object.keys(require.cache).some((file) => file.includes('/@npmcli/arborist/'))";

/** @pulumi/pulumi loaded under the hook, then the stand-in read: one node for the two tests of that path. */
let pulumiRun: unknown;
const loadPulumiThenReadStandIn = () =>
  (pulumiRun ??= inNode(`
    require('@pulumi/pulumi');
    const standIn = standIns.get('@npmcli/arborist');
    const before = ${arboristLoaded};
    const Arborist = standIn.Arborist;
    const codePaths = require.resolve('@pulumi/pulumi/runtime/closure/codePaths');
    const real = require(require.resolve('@npmcli/arborist', { paths: [codePaths] }));
    console.log(JSON.stringify({ before, after: ${arboristLoaded}, same: Arborist === real.Arborist, keys: Object.keys(standIn).length === Object.keys(real).length }));
  `));

describe('the synth CLI defers the Pulumi SDK closure-serialization modules', () => {
  it('loads @pulumi/pulumi without npm Arborist', () => {
    expect(loadPulumiThenReadStandIn()).toMatchObject({ before: false });
  });

  it('hands codePaths.js a stand-in that is the real Arborist once it is read', () => {
    expect(loadPulumiThenReadStandIn()).toEqual({ before: false, after: true, same: true, keys: true });
  });

  it('leaves the same module required from anywhere else alone', () => {
    expect(
      inNode(`
        require('@npmcli/arborist');
        console.log(JSON.stringify({ handedOut: standIns.size, loaded: ${arboristLoaded} }));
      `),
    ).toEqual({ handedOut: 0, loaded: true });
  });
});
