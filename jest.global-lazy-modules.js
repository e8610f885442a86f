/**
 * Runs before every test file (jest.preset.js `setupFiles`). Jest loads every module again for each test
 * file, and `@pulumi/pulumi` requires large parts no render reaches as soon as it loads: the Automation API
 * (`pulumi.automation`, which drives the pulumi CLI: execa, its workspace and stack classes), and, for
 * closure serialization only (`serializeFunction`, `computeCodePaths`), TypeScript (9 MB, through
 * `typescript-shim.js`) and npm's Arborist (with its 800 or so modules: semver, sigstore, cacache...).
 * Each is replaced by a stand-in that requires the real module the first time any of its properties is
 * read, so a test that does use one gets the real module.
 */
function lazyModule(name, { namespace }) {
  let actual;
  const load = () => (actual ??= jest.requireActual(name));
  return new Proxy(
    {},
    {
      // Arborist and the Automation API are imported through TypeScript's `__importStar`, which copies every
      // key of a module that is not marked `__esModule` (and so would load it): marked, the stand-in is used
      // as it is. (The Automation API's own module is marked; Arborist's is not.)
      get: (_, key) => (namespace && key === '__esModule' && actual === undefined ? true : load()[key]),
      has: (_, key) => key in load(),
      ownKeys: () => Reflect.ownKeys(load()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(load(), key);
        // A proxy may only report a key its (empty) target lacks as configurable.
        return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
      },
    },
  );
}

jest.mock('typescript', () => lazyModule('typescript', { namespace: false }));
jest.mock('@npmcli/arborist', () => lazyModule('@npmcli/arborist', { namespace: true }));
jest.mock('@pulumi/pulumi/automation', () => lazyModule('@pulumi/pulumi/automation', { namespace: true }));
