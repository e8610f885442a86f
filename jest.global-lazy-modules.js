/**
 * Runs before every test file (jest.preset.js `setupFiles`). Jest loads every module again for each test
 * file, and `@pulumi/pulumi/runtime` requires two large packages as soon as it loads, for closure
 * serialization only (`serializeFunction`, `computeCodePaths`), which no render reaches: TypeScript
 * (9 MB, through `typescript-shim.js`) and npm's Arborist (with its 800 or so modules: semver, sigstore,
 * cacache...). Each is replaced by a stand-in that requires the real package the first time any of its
 * properties is read, so a test that does use them gets the real package.
 */
function lazyModule(name, { namespace }) {
  let actual;
  const load = () => (actual ??= jest.requireActual(name));
  return new Proxy(
    {},
    {
      // Arborist is imported through TypeScript's `__importStar`, which copies every key of a module that
      // is not marked `__esModule` (and so would load it): marked, the stand-in is used as it is.
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
