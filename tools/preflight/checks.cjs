/**
 * What every preflight shares: one check per question, asked in order, a failed question never stopping the
 * ones after it.
 * @typedef {{ name: string, ok: boolean, detail: string }} Check
 */

/**
 * An account- or organization-level setting a compliance control needs and no stack renders (the controls
 * the compliance view judges `outside-repo`), asked of the cloud before a deploy. `controls` are the ids of
 * the controls it answers, as @checkpoints/analysis names them; `enable` says how to turn it on.
 * @template Context
 * @typedef {{
 *   controls: readonly string[],
 *   name: string,
 *   enable: (context: Context) => string,
 *   check: (context: Context) => Promise<string>,
 * }} Prerequisite
 */

/** A question answered "no": its message says what is missing and what to do, as it is printed. */
class Missing extends Error {}

/** @param {string} detail what is missing and what to do @returns {never} */
function missing(detail) {
  throw new Missing(detail);
}

/**
 * @param {(error: unknown) => string} describe the cloud's words for a call that failed
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
  /**
   * Each prerequisite, named with the controls it answers. A setting that cannot be read counts as missing
   * (fail closed), and both say how to enable it.
   * @template Context
   * @param {readonly Prerequisite<Context>[]} prerequisites @param {Context} context
   */
  const askPrerequisites = async (prerequisites, context) => {
    for (const prerequisite of prerequisites) {
      await ask(`${prerequisite.name} (${prerequisite.controls.join(', ')})`, async () => {
        try {
          return await prerequisite.check(context);
        } catch (error) {
          const why =
            error instanceof Missing
              ? error.message
              : `cannot be read (${describe(error)}), counted as missing`;
          return missing(`${why}; to enable: ${prerequisite.enable(context)}`);
        }
      });
    }
  };
  return { checks, ask, askPrerequisites };
}

module.exports = { checklist, missing };
