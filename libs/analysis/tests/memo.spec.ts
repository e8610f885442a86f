import { numberOfText } from '../src/memo';

describe('numberOfText', () => {
  it('numbers texts in the order first seen, and gives a text seen before its number again', () => {
    const numbers = new Map<string, number>();
    expect(['b', 'a', 'b', 'c', 'a'].map((text) => numberOfText(numbers, text))).toEqual([0, 1, 0, 2, 1]);
  });
});
