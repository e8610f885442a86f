import type * as Synth from '../src/index';

/** `@checkpoints/synth` with the CLI and its runners replaced by stand-ins that record their loading and calls. */
function synthWithStandIns() {
  const loaded: string[] = [];
  const calls: unknown[][] = [];
  const standIn = (module: string, names: string[]) => () => {
    loaded.push(module);
    return Object.fromEntries(
      names.map((name) => [
        name,
        (...args: unknown[]) => {
          calls.push([name, ...args]);
          return `${name} result`;
        },
      ]),
    );
  };
  let synth: typeof Synth | undefined;
  // Stand-ins made by an earlier test stay in jest's registry of mocks until it is reset.
  jest.resetModules();
  jest.isolateModules(() => {
    jest.doMock('../src/cli', standIn('cli', ['main']));
    jest.doMock(
      '../src/run-cli',
      standIn('run-cli', [
        'missingFromRefusal',
        'removeSynthRuns',
        'runInProcessAndFresh',
        'runSynth',
        'runSynthAgainst',
      ]),
    );
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    synth = require('../src/index') as typeof Synth;
  });
  return { synth: synth!, loaded, calls };
}

describe('@checkpoints/synth', () => {
  it('loads neither the CLI nor its runners until one of them is called', () => {
    const { synth, loaded } = synthWithStandIns();
    expect(loaded).toEqual([]);
    // Seven distinct statuses, 0 to 6, each its own verdict.
    expect(Object.values(synth.EXIT).sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(typeof synth.render).toBe('function');
    expect(loaded).toEqual([]);
  });

  it('passes every call and its arguments on to the CLI or runner, and its result back', () => {
    const { synth, loaded, calls } = synthWithStandIns();
    const run = { status: 0, stdout: '', stderr: '', renderPath: 'dev.json', bootstrapPath: 'ci.json' };
    const program = () => undefined;
    const reload = () => undefined;
    const results = [
      synth.synthMain(['--stack=dev'], {}),
      synth.missingFromRefusal(run, 'k', 'v', 'why'),
      synth.removeSynthRuns(),
      synth.runInProcessAndFresh('dir', { 'a:b': 1 }, program, reload),
      synth.runSynth('dir', { 'a:b': 1 }, ['--x']),
      synth.runSynthAgainst('dir', { 'a:b': 1 }, { 'a:b': 2 }, program),
    ];
    expect(loaded).toEqual(['cli', 'run-cli']);
    expect(results).toEqual([
      'main result',
      'missingFromRefusal result',
      'removeSynthRuns result',
      'runInProcessAndFresh result',
      'runSynth result',
      'runSynthAgainst result',
    ]);
    expect(calls).toEqual([
      ['main', ['--stack=dev'], {}],
      ['missingFromRefusal', run, 'k', 'v', 'why'],
      ['removeSynthRuns'],
      ['runInProcessAndFresh', 'dir', { 'a:b': 1 }, program, reload],
      ['runSynth', 'dir', { 'a:b': 1 }, ['--x']],
      ['runSynthAgainst', 'dir', { 'a:b': 1 }, { 'a:b': 2 }, program],
    ]);
  });

  it('keeps the CLI and runners it loaded, as an import would, when the module registry is reset', () => {
    const { synth, loaded } = synthWithStandIns();
    synth.removeSynthRuns();
    void synth.synthMain([]);
    jest.resetModules();
    synth.removeSynthRuns();
    void synth.synthMain([]);
    expect(loaded).toEqual(['run-cli', 'cli']);
  });
});
