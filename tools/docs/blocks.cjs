'use strict';
const OPEN = /^<!-- transcript:([a-z0-9-]+) -->\n```[a-z]*\n[\s\S]*?```\n<!-- \/transcript -->$/gm;

/**
 * README with each transcript block's fenced text replaced by `transcript(name)`.
 * Returns the new text, the names whose text changed, and the names `transcript` does not know
 * (it returned undefined; their blocks are left as they are).
 * @param {string} readme
 * @param {(name: string) => string | undefined} transcript
 */
function replaceBlocks(readme, transcript) {
  const stale = [];
  const unknown = [];
  const text = readme.replace(OPEN, (block, name) => {
    const output = transcript(name);
    if (output === undefined) {
      unknown.push(name);
      return block;
    }
    const body = output.endsWith('\n') ? output : `${output}\n`;
    const next = `<!-- transcript:${name} -->\n\`\`\`\n${body}\`\`\`\n<!-- /transcript -->`;
    if (next !== block) stale.push(name);
    return next;
  });
  return { text, stale, unknown };
}

module.exports = { replaceBlocks };
