/** What the mutation suites assert of a mutation: a mandatory verdict naming what it changed. */
import { copyOf, mandatoryVerdicts, verdictLines, type Renders } from './mutations';

/**
 * The lines of the mandatory verdicts on a mutated copy of `shipped` that name every one of `words`; none
 * is an error listing the verdicts there were, so a missed mutation fails with what the pack did say.
 */
export async function verdictsNaming(
  shipped: Renders,
  mutate: (renders: Renders) => void,
  words: readonly string[],
): Promise<string[]> {
  const renders = copyOf(shipped);
  mutate(renders);
  const lines = verdictLines(await mandatoryVerdicts(renders));
  const naming = lines.filter((line) => words.every((word) => line.includes(word)));
  if (naming.length === 0)
    throw new Error(`no mandatory verdict names ${words.join(' + ')}:\n${lines.join('\n')}`);
  return naming;
}
