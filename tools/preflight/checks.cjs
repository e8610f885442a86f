/**
 * What every preflight shares: one check per question, asked in order, a failed question never stopping the
 * ones after it.
 * @typedef {{ name: string, ok: boolean, detail: string }} Check
 */

/** A question answered "no": its message says what is missing and what to do, as it is printed. */
class Missing extends Error {}

/** @param {string} detail what is missing and what to do @returns {never} */
function missing(detail) {
  throw new Missing(detail);
}

/**
 * @param {(error: unknown) => string} describe the cloud's words for a call that failed
 * @returns {{ checks: Check[], ask: (name: string, question: () => Promise<string>) => Promise<void> }}
 */
function checklist(describe) {
  /** @type {Check[]} */
  const checks = [];
  /** @param {string} name @param {() => Promise<string>} question */
  const ask = async (name, question) => {
    try {
      checks.push({ name, ok: true, detail: await question() });
    } catch (error) {
      // One line per check: SDKs' messages may span several.
      const detail = error instanceof Missing ? error.message : describe(error);
      checks.push({ name, ok: false, detail: detail.replace(/\s*\n\s*/g, ' ') });
    }
  };
  return { checks, ask };
}

module.exports = { checklist, missing };
