import type {
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';

/** Where a rule's requirement comes from, shown in the docs and the rule's description. */
export interface RuleSource {
  /** e.g. "CIS AWS Foundations 2.1.4", "Google Cloud Storage best practices". */
  source: string;
}

/** Every rule accepts a `reason` in the policy config file, next to its enforcement level. */
const reasonSchema = {
  properties: { reason: { type: 'string' as const, description: 'Why this rule is relaxed here.' } },
};

export interface ResourceRule extends RuleSource {
  name: string;
  description: string;
  /** Resource type tokens the rule applies to, e.g. `aws:s3/bucket:Bucket`. */
  types: readonly string[];
  validate(
    props: Record<string, unknown>,
    args: ResourceValidationArgs,
    report: ReportViolation,
  ): void | Promise<void>;
}

export interface StackRule extends RuleSource {
  name: string;
  description: string;
  validate(args: StackValidationArgs, report: ReportViolation): void | Promise<void>;
}

export type SourcedPolicy = (ResourceValidationPolicy | StackValidationPolicy) & RuleSource;

/**
 * A resource rule on type tokens rather than SDK classes, so the pack loads no provider SDK:
 * the same check runs on a real preview and in synth.
 */
export function resourceRule(rule: ResourceRule): ResourceValidationPolicy & RuleSource {
  return {
    name: rule.name,
    description: `${rule.description} (${rule.source})`,
    source: rule.source,
    enforcementLevel: 'mandatory',
    configSchema: reasonSchema,
    validateResource: (args, report) => {
      if (!rule.types.includes(args.type)) return;
      return rule.validate(args.props, args, report);
    },
  };
}

export function stackRule(rule: StackRule): StackValidationPolicy & RuleSource {
  return {
    name: rule.name,
    description: `${rule.description} (${rule.source})`,
    source: rule.source,
    enforcementLevel: 'mandatory',
    configSchema: reasonSchema,
    validateStack: (args, report) => rule.validate(args, report),
  };
}

/** JSON documents arrive as text (IAM policies) or objects; policies read both. */
export function asJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
