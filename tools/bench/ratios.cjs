/**
 * The statistics the bench reports (tools/bench.mjs), kept apart so their definitions are tested.
 */

/**
 * The middle value of a list (the upper of the two middle ones for an even count); NaN for none.
 * @param {readonly number[]} values
 */
function median(values) {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

/**
 * A ratio judged round by round: the median of `numerators[i] / denominators[i]`, each pair measured one
 * after the other in the same round. On a shared machine the load moves between rounds; a pair taken
 * seconds apart sees the same load, while a ratio of two medians may divide one round's figure by
 * another's.
 * @param {readonly number[]} numerators
 * @param {readonly number[]} denominators
 * @returns {{ ratio: number, ratios: number[] }}
 */
function pairedRatio(numerators, denominators) {
  if (numerators.length !== denominators.length || numerators.length === 0) {
    throw new RangeError(
      `pairedRatio: one denominator per numerator, at least one each (given ${numerators.length} and ${denominators.length})`,
    );
  }
  if (![...numerators, ...denominators].every((figure) => figure > 0 && Number.isFinite(figure))) {
    throw new RangeError(
      `pairedRatio: every figure must be positive (given ${numerators.join(', ')} over ${denominators.join(', ')})`,
    );
  }
  const ratios = numerators.map(
    (numerator, round) => numerator / /** @type {number} */ (denominators[round]),
  );
  return { ratio: median(ratios), ratios };
}

module.exports = { median, pairedRatio };
