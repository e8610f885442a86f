import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnforcementLevel } from '@pulumi/policy';

/** A team's override of one rule: the level it runs at, and why. */
export interface PolicyOverride {
  enforcementLevel: EnforcementLevel;
  reason: string;
}

export interface PolicyConfig {
  file: string;
  entries: Record<string, PolicyOverride>;
  /** The bootstrap render every stack rule's `bootstrapRender` names (synth's `--bootstrap`). */
  bootstrapRender?: string;
}

export const POLICY_CONFIG_FILE = join(__dirname, '..', 'policy-config.json');
const LEVELS: readonly EnforcementLevel[] = ['mandatory', 'advisory', 'disabled'];

/** Thrown for a policy config file that would silently weaken the baseline. */
export class PolicyConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyConfigError';
    Object.defineProperty(this, '__pulumiRunError', { value: true });
  }
}

/**
 * Reads the policy config file: `{ "<policy>": { "enforcementLevel": "advisory" | "disabled" | "mandatory", "reason": "..." } }`.
 * Every override needs a reason, and names a policy of the pack, so a typo cannot switch a rule off.
 */
export function parsePolicyConfig(
  text: string,
  file: string,
  knownPolicies: readonly string[],
): PolicyConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new PolicyConfigError(`${file}: invalid JSON: ${(error as Error).message}`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new PolicyConfigError(`${file}: must be a JSON object of policy name -> override`);
  }
  const problems: string[] = [];
  const entries: Record<string, PolicyOverride> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name.startsWith('$')) continue;
    if (!knownPolicies.includes(name)) {
      problems.push(`'${name}' is not a policy of the pack; known: ${knownPolicies.join(', ')}`);
      continue;
    }
    const override = value as Partial<PolicyOverride> | null;
    const level = override?.enforcementLevel;
    if (!level || !LEVELS.includes(level)) {
      problems.push(`${name}.enforcementLevel: got ${JSON.stringify(level)}; allowed: ${LEVELS.join(' | ')}`);
      continue;
    }
    if (typeof override?.reason !== 'string' || override.reason.trim().length < 10) {
      problems.push(`${name}.reason: say why the rule is ${level} here (at least 10 characters)`);
      continue;
    }
    entries[name] = { enforcementLevel: level, reason: override.reason };
  }
  if (problems.length > 0) throw new PolicyConfigError(`${file}:\n  - ${problems.join('\n  - ')}`);
  return { file, entries };
}

export function loadPolicyConfig(knownPolicies: readonly string[], file = POLICY_CONFIG_FILE): PolicyConfig {
  return parsePolicyConfig(readFileSync(file, 'utf8'), file, knownPolicies);
}
