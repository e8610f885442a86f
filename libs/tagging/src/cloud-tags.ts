import type { Tags } from './standard-tags';
import { quotedMatches } from './text';

/** What one cloud accepts in a key or a value; keys must also not be empty. */
export interface TextRule {
  maxLength: number;
  /** Absent when the cloud accepts any character. */
  characters?: CharacterRule;
}

export interface CharacterRule {
  /** Matches every character the cloud does not accept (global, unicode). */
  disallowed: RegExp;
  /** The accepted characters in words, for error messages. */
  allowed: string;
}

/** One cloud's tag (or label) rules and how to bring any text within them. */
export interface CloudTagRules {
  /** 'AWS tag', 'GCP label', 'Azure tag'. */
  noun: string;
  maxCount: number;
  key: TextRule;
  value: TextRule;
  /** What is wrong with a key as a whole (a reserved prefix, a wrong first character), if anything. */
  keyShapeProblem?(key: string): string | undefined;
  normaliseKey(key: string): string;
  normaliseValue(value: string): string;
  /** Keys the cloud treats as one key have the same identity (Azure ignores case). */
  identity?(key: string): string;
}

/** Normalises every key and value; throws rather than drop a tag to a collision or to the count limit. */
export function normaliseTags(rules: CloudTagRules, tags: Tags): Tags {
  const entries = Object.entries(tags);
  if (entries.length > rules.maxCount) {
    throw new Error(`${tooManyMessage(rules, entries.length)}: ${entries.map(([key]) => key).join(', ')}`);
  }
  const keyByIdentity = new Map<string, string>();
  const normalised = entries.map(([key, value]): [string, string] => {
    if (key === '') {
      throw new Error(`${rules.noun} keys must not be empty`);
    }
    const normalisedKey = rules.normaliseKey(key);
    const shapeProblem = rules.keyShapeProblem?.(normalisedKey);
    if (shapeProblem !== undefined) {
      throw new Error(`${rules.noun} '${key}': key ${shapeProblem}`);
    }
    const identity = identityOf(rules, normalisedKey);
    const earlier = keyByIdentity.get(identity);
    if (earlier !== undefined) {
      throw new Error(
        `tags '${earlier}' and '${key}' would be the same ${rules.noun} key '${normalisedKey}'; rename one of them`,
      );
    }
    keyByIdentity.set(identity, key);
    return [normalisedKey, rules.normaliseValue(value)];
  });
  // fromEntries, unlike assignment, keeps a '__proto__' key as an ordinary tag.
  return Object.fromEntries(normalised);
}

/** Every way `tags` break the rules; [] when the cloud would accept them as they are. */
export function tagProblems(rules: CloudTagRules, tags: Tags): string[] {
  const entries = Object.entries(tags);
  const problems = entries.length > rules.maxCount ? [tooManyMessage(rules, entries.length)] : [];
  const firstKeyByIdentity = new Map<string, string>();
  for (const [key, value] of entries) {
    const subject = `${rules.noun} '${key}'`;
    if (key === '') {
      problems.push(`${subject}: key is empty`);
    }
    problems.push(...textProblems(`${subject}: key`, key, rules.key));
    const shapeProblem = rules.keyShapeProblem?.(key);
    if (shapeProblem !== undefined) {
      problems.push(`${subject}: key ${shapeProblem}`);
    }
    problems.push(...textProblems(`${subject}: value`, value, rules.value));
    const identity = identityOf(rules, key);
    const earlier = firstKeyByIdentity.get(identity);
    if (earlier === undefined) {
      firstKeyByIdentity.set(identity, key);
    } else {
      problems.push(`${rules.noun} keys '${earlier}' and '${key}' are one and the same key to the cloud`);
    }
  }
  return problems;
}

function identityOf(rules: CloudTagRules, key: string): string {
  return rules.identity?.(key) ?? key;
}

function textProblems(subject: string, text: string, rule: TextRule): string[] {
  const problems: string[] = [];
  if (text.length > rule.maxLength) {
    problems.push(`${subject} is ${text.length} characters, over the ${rule.maxLength} limit`);
  }
  if (rule.characters !== undefined) {
    const disallowed = quotedMatches(text, rule.characters.disallowed);
    if (disallowed !== undefined) {
      problems.push(`${subject} contains ${disallowed}; allowed: ${rule.characters.allowed}`);
    }
  }
  return problems;
}

function tooManyMessage(rules: CloudTagRules, count: number): string {
  return `at most ${rules.maxCount} ${rules.noun}s fit on a resource; got ${count}`;
}
