import {
  normaliseTags,
  tagProblems,
  type CharacterRule,
  type CloudTagRules,
  type TextRule,
} from './cloud-tags';
import type { Tags } from './standard-tags';
import { truncate } from './text';

const KEY_CHARACTERS: CharacterRule = { disallowed: /[<>%&\\?/]/gu, allowed: 'anything but < > % & \\ ? /' };
// Keys may be 512 characters on most resources but only 128 on storage accounts; 128 fits everywhere.
const KEY: TextRule = { maxLength: 128, characters: KEY_CHARACTERS };
const VALUE: TextRule = { maxLength: 256 };

const azureRules: CloudTagRules = {
  noun: 'Azure tag',
  maxCount: 50,
  key: KEY,
  value: VALUE,
  normaliseKey: (key) => truncate(key.replace(KEY_CHARACTERS.disallowed, '_'), KEY.maxLength),
  normaliseValue: (value) => truncate(value, VALUE.maxLength),
  // Azure compares tag keys without regard to case: 'Owner' and 'owner' would overwrite each other.
  identity: (key) => key.toLowerCase(),
};

/** `tags` as Azure accepts them: < > % & \ ? / in keys replaced by '_', keys and values cut to length. */
export function azureTags(tags: Tags): Tags {
  return normaliseTags(azureRules, tags);
}

export function azureTagProblems(tags: Tags): string[] {
  return tagProblems(azureRules, tags);
}
