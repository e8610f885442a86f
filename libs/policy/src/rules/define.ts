import type {
  ReportViolation,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';
import { BOOTSTRAP_RENDER_KEY, evaluationOf, type Evaluation } from './evaluation';

/** Where a rule's requirement comes from, shown in the docs and the rule's description. */
export interface RuleSource {
  /** e.g. "CIS AWS Foundations 2.1.4", "Google Cloud Storage best practices". */
  source: string;
}

/** Every rule accepts a `reason` in the policy config file, next to its enforcement level. */
const reasonSchema = {
  properties: { reason: { type: 'string' as const, description: 'Why this rule is relaxed here.' } },
};

/** A stack rule also reads the bootstrap render its analyses judge CI's identities from (evaluation.ts). */
const stackSchema = {
  properties: {
    ...reasonSchema.properties,
    [BOOTSTRAP_RENDER_KEY]: {
      type: 'string' as const,
      description:
        "Path of the bootstrap render (synth's dist/synth/bootstrap/ci.json) whose CI identities the rules judge.",
    },
  },
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
  /** `evaluation`: the evaluation of the pack this call belongs to, shared with its other stack rules. */
  validate(
    args: StackValidationArgs,
    report: ReportViolation,
    evaluation: () => Evaluation,
  ): void | Promise<void>;
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
    configSchema: stackSchema,
    validateStack: (args, report) => rule.validate(args, report, () => evaluationOf(args, rule.name)),
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
