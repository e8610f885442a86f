/**
 * The workspace's jest runtime (jest.runtime.js) compiles every module a test loads, in a function of its
 * own, as a `vm.Script`: what a test reports must still name the lines of the code it ran.
 */
import { readFileSync } from 'node:fs';

/** The line of this file that carries `marker` (1-based). */
function lineOf(marker: string): number {
  return (
    readFileSync(__filename, 'utf8')
      .split('\n')
      .findIndex((line) => line.endsWith(marker)) + 1
  );
}

function thrownHere(): Error {
  return new Error('thrown'); // the first frame
}

it("a stack trace names the line of the module's code that threw, and the line that called it", () => {
  const stack = thrownHere().stack ?? ''; // the second frame
  const frames = stack.split('\n').filter((frame) => frame.includes('jest-runtime.spec.ts:'));
  expect(frames[0]).toContain(`jest-runtime.spec.ts:${lineOf('// the first frame')}:10)`);
  expect(frames[1]).toContain(`jest-runtime.spec.ts:${lineOf('// the second frame')}:17)`);
});
