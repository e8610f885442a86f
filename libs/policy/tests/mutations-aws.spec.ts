/**
 * Weakening edits of the AWS renders, each of which the pack must refuse: a mandatory verdict naming the
 * identity, the path and the permission. A mutation the pack lets through is a failing test.
 */
import { copyOf, mandatoryVerdicts, synthRenders, verdictLines, type Renders } from '../testing/mutations';

let shipped: Renders;

beforeAll(() => {
  shipped = synthRenders('aws-s3', 'prod');
}, 240_000);

describe('AWS mutations of the bootstrap and aws-s3 prod renders', () => {
  it('the shipped renders pass', async () => {
    expect(verdictLines(await mandatoryVerdicts(copyOf(shipped)))).toEqual([]);
  }, 120_000);
});
