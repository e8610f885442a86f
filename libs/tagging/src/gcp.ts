import {
  normaliseTags,
  tagProblems,
  type CharacterRule,
  type CloudTagRules,
  type TextRule,
} from './cloud-tags';
import type { Tags } from './standard-tags';
import { stripAccents } from './text';

// GCP also takes "international" lowercase letters, a vague rule for scripts without case; ASCII is unambiguous.
const GCP_CHARACTERS: CharacterRule = {
  disallowed: /[^a-z0-9_-]/gu,
  allowed: 'lowercase ASCII letters, digits, _ and -',
};
const KEY: TextRule = { maxLength: 63, characters: GCP_CHARACTERS };
const VALUE: TextRule = { maxLength: 63, characters: GCP_CHARACTERS };

/** Put before a key that does not start with a letter, as GCP requires. */
const KEY_PREFIX = 'tag_';

const gcpRules: CloudTagRules = {
  noun: 'GCP label',
  maxCount: 64,
  key: KEY,
  value: VALUE,
  keyShapeProblem: (key) =>
    key === '' || /^[a-z]/.test(key) ? undefined : `starts with '${[...key][0]}', not a lowercase letter`,
  normaliseKey: (key) => {
    const text = toGcpText(key);
    return (/^[a-z]/.test(text) ? text : KEY_PREFIX + text).slice(0, KEY.maxLength);
  },
  normaliseValue: (value) => toGcpText(value).slice(0, VALUE.maxLength),
};

// The result is ASCII, so cutting it by UTF-16 length cannot split a character.
function toGcpText(text: string): string {
  return stripAccents(text).toLowerCase().replace(GCP_CHARACTERS.disallowed, '_');
}

/**
 * `tags` as GCP labels: accents stripped, lowercased, other characters replaced by '_', keys that do not
 * start with a letter prefixed with 'tag_', cut to 63 characters.
 */
export function gcpLabels(tags: Tags): Tags {
  return normaliseTags(gcpRules, tags);
}

export function gcpLabelProblems(tags: Tags): string[] {
  return tagProblems(gcpRules, tags);
}
