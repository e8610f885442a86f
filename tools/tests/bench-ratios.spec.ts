/**
 * The bench's ratio targets (1 store <= 2x its floor, 200 stores <= 6x 1 store) are judged round by
 * round: each round measures both sides one after the other, and the ratio is the median of the rounds'.
 */
import { median, pairedRatio } from '../bench/ratios.cjs';

describe('median', () => {
  it('is the middle value, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([2])).toBe(2);
  });

  it('is the upper middle value of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(3);
  });

  it('is NaN for no values, never a figure', () => {
    expect(median([])).toBeNaN();
  });
});

describe('pairedRatio', () => {
  it('divides each round by its own denominator: a round under twice the load is the same ratio', () => {
    // Quiet, loaded (both sides twice as slow), quiet: the load moves both sides of a round alike.
    const { ratio, ratios } = pairedRatio([5, 10, 5.5], [1, 2, 1]);
    expect(ratios).toEqual([5, 5, 5.5]);
    expect(ratio).toBe(5);
    // A ratio of medians divides the third round's 200-store figure by the loaded round's 1-store figure.
    expect(median([5, 10, 5.5]) / median([1, 2, 1])).toBe(5.5);
  });

  it('takes the median of the rounds: one slow round does not decide', () => {
    expect(pairedRatio([5.2, 9, 5.4], [1, 1, 1]).ratio).toBe(5.4);
  });

  it('refuses rounds without a pair, and figures that are not positive', () => {
    expect(() => pairedRatio([5, 6], [1])).toThrow('one denominator per numerator');
    expect(() => pairedRatio([], [])).toThrow('at least one each');
    expect(() => pairedRatio([5], [0])).toThrow('every figure must be positive');
    expect(() => pairedRatio([-5], [-1])).toThrow('every figure must be positive');
    expect(() => pairedRatio([Number.NaN], [1])).toThrow('every figure must be positive');
  });
});
