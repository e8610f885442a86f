import {
  normaliseTags,
  tagProblems,
  type CharacterRule,
  type CloudTagRules,
  type TextRule,
} from './cloud-tags';
import type { Tags } from './standard-tags';
import { stripAccents } from './text';

// AWS services differ; ASCII letters and digits, space and these marks are what every service accepts.
const AWS_CHARACTERS: CharacterRule = {
  disallowed: /[^A-Za-z0-9 _.:/=+@-]/gu,
  allowed: 'ASCII letters and digits, spaces and _ . : / = + - @',
};
const KEY: TextRule = { maxLength: 128, characters: AWS_CHARACTERS };
const VALUE: TextRule = { maxLength: 256, characters: AWS_CHARACTERS };

const awsRules: CloudTagRules = {
  noun: 'AWS tag',
  maxCount: 50,
  key: KEY,
  value: VALUE,
  keyShapeProblem: (key) =>
    /^aws:/i.test(key) ? "starts with 'aws:', a prefix AWS reserves for its own tags" : undefined,
  normaliseKey: (key) => toAwsText(key).slice(0, KEY.maxLength),
  normaliseValue: (value) => toAwsText(value).slice(0, VALUE.maxLength),
};

// The result is ASCII, so cutting it by UTF-16 length cannot split a character.
function toAwsText(text: string): string {
  return stripAccents(text).replace(AWS_CHARACTERS.disallowed, '_');
}

/** `tags` as AWS accepts them: accents stripped, other characters outside the rule replaced by '_', cut to length. */
export function awsTags(tags: Tags): Tags {
  return normaliseTags(awsRules, tags);
}

export function awsTagProblems(tags: Tags): string[] {
  return tagProblems(awsRules, tags);
}
