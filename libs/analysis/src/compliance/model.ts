import type { Cloud } from '@checkpoints/config';
import { UNKNOWN_MARK } from '@checkpoints/render';
import { BENCHMARKS, type Benchmark, type Control } from './controls';

/**
 * - pass: the render does what the control asks;
 * - fail: it does not, or the render does not say (a value unknown at preview counts as not done);
 * - exception: it does not, and the project accepts that for the reason given;
 * - not-applicable: the control is about something the store does not have;
 * - outside-repo: an account- or organization-level setting no stack of this repository renders (what the
 *   preflight should check is given).
 */
export type Verdict = 'pass' | 'fail' | 'exception' | 'not-applicable' | 'outside-repo';

export const VERDICTS: readonly Verdict[] = ['pass', 'fail', 'exception', 'not-applicable', 'outside-repo'];

/** What a check finds on one store. */
export interface Finding {
  verdict: Exclude<Verdict, 'exception'>;
  /** What the render holds there, in words (or why it could not be judged). */
  detail: string;
  /** For outside-repo: what the preflight checks in the account before a deploy. */
  preflight?: string;
}

/**
 * One way of judging one or more controls on a store of a cloud. `field` names the rendered field (type token
 * and input path) or the analysis that decides; `rule`, the policy pack rule that enforces it on every deploy.
 */
export interface Check<Subject> {
  controls: readonly Control[];
  field: string;
  rule?: string;
  /** For an account- or organization-level control: what the preflight checks before a deploy. */
  prerequisite?: string;
  judge(subject: Subject): Finding;
}

/**
 * A deviation the project accepts: when `applies` to a store whose check fails, the verdict is `exception`
 * with this reason instead of `fail`.
 */
export interface ComplianceException<Subject> {
  controls: readonly Control[];
  /** When it applies, in words (for the docs). */
  when: string;
  reason: string;
  applies(subject: Subject): boolean;
}

export interface ControlVerdict {
  control: string;
  benchmark: string;
  title: string;
  url: string;
  verdict: Verdict;
  field: string;
  detail: string;
  rule?: string;
  /** The accepted exception's reason (verdict `exception`). */
  reason?: string;
  /** What the preflight checks (verdict `outside-repo`). */
  preflight?: string;
}

export interface StoreCompliance {
  store: string;
  cloud: Cloud;
  environment: string;
  controls: ControlVerdict[];
}

export interface ComplianceAnalysis {
  stores: StoreCompliance[];
  /** The stack's one line: counts per verdict and every failing control (what the report and the PR comment show). */
  summary: string;
}

/** A cloud's checks and accepted exceptions over its store subject. */
export interface CloudCompliance<Subject> {
  checks: readonly Check<Subject>[];
  exceptions: readonly ComplianceException<Subject>[];
}

/** Why threat detection is a prod setting (the same reason on every cloud). */
export const OUTSIDE_PROD_THREAT_DETECTION =
  'outside prod the stacks leave malware scanning off: scanning bills per protected bucket or account and per scanned GB, and a checkpoint reaches production only through a prod store, where every upload is scanned';

/**
 * A store whose environment tag names another environment than prod. A store whose environment the render does
 * not say ('unknown') is judged as prod: the worst case.
 */
export function outsideProd(environment: string): boolean {
  return environment !== 'prod' && environment !== 'unknown';
}

export const pass = (detail: string): Finding => ({ verdict: 'pass', detail });
export const fail = (detail: string): Finding => ({ verdict: 'fail', detail });
export const notApplicable = (detail: string): Finding => ({ verdict: 'not-applicable', detail });
export const outsideRepo = (detail: string, preflight: string): Finding => ({
  verdict: 'outside-repo',
  detail,
  preflight,
});

/** A control no stack renders: judged outside the repository, with what the preflight checks. */
export function accountLevel<Subject>(
  controls: readonly Control[],
  field: string,
  detail: string,
  prerequisite: string,
): Check<Subject> {
  return { controls, field, prerequisite, judge: () => outsideRepo(detail, prerequisite) };
}

/** A rendered value the check compares: unknown at preview is the worst case, and the finding says so. */
export function unknownAt(value: unknown, what: string): Finding | undefined {
  return value === UNKNOWN_MARK
    ? fail(`${what} is unknown until the deploy (counted as not set)`)
    : undefined;
}

/** Every control of a cloud's checks, judged on one store, with the cloud's accepted exceptions applied. */
export function judgeStore<Subject>(
  compliance: CloudCompliance<Subject>,
  subject: Subject,
): ControlVerdict[] {
  return compliance.checks.flatMap((check) => {
    let finding: Finding;
    try {
      finding = check.judge(subject);
    } catch (error) {
      finding = fail(`the check could not read the render (${(error as Error).message}): counted as failed`);
    }
    return check.controls.map((control): ControlVerdict => {
      const verdict: ControlVerdict = {
        control: control.id,
        benchmark: BENCHMARKS[control.benchmark satisfies Benchmark].name,
        title: control.title,
        url: control.url,
        verdict: finding.verdict,
        field: check.field,
        detail: finding.detail,
        ...(check.rule ? { rule: check.rule } : {}),
        ...(finding.preflight ? { preflight: finding.preflight } : {}),
      };
      if (finding.verdict !== 'fail') return verdict;
      const exception = compliance.exceptions.find(
        (candidate) => candidate.controls.includes(control) && candidate.applies(subject),
      );
      return exception ? { ...verdict, verdict: 'exception', reason: exception.reason } : verdict;
    });
  });
}

/** The stack's line: e.g. `3 stores: 80 pass, 0 fail, 9 exception, 12 not-applicable, 6 outside-repo`. */
export function complianceSummary(stores: readonly StoreCompliance[]): string {
  const all = stores.flatMap((store) => store.controls);
  const counts = VERDICTS.map(
    (verdict) => `${all.filter((each) => each.verdict === verdict).length} ${verdict}`,
  );
  const failing = stores.flatMap((store) =>
    store.controls.filter((each) => each.verdict === 'fail').map((each) => `${store.store} ${each.control}`),
  );
  const head = `${stores.length} store${stores.length === 1 ? '' : 's'}: ${counts.join(', ')}`;
  return failing.length === 0 ? head : `${head}; FAIL: ${[...new Set(failing)].join(', ')}`;
}
