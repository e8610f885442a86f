/** synth's exit statuses (its usage text explains each); apart from the CLI so `@checkpoints/synth` need not load it. */
export const EXIT = {
  clean: 0,
  violation: 1,
  invalid: 2,
  programFailed: 3,
  dataLoss: 4,
  weakening: 5,
  refused: 6,
} as const;
