import type { RenderedResource, RenderedStore } from '@checkpoints/render';
import { jsonOf, stringInput } from './model';

/**
 * The AWS services a store's bucket policy may admit from outside its network perimeter, each through a role of
 * the store that trusts that service alone and that the perimeter exempts by its exact ARN: the service reads
 * the objects from its own network, which no VPC endpoint or address of the store's `network` block lists.
 */
/** GuardDuty Malware Protection for S3's service principal (the role trust of the page cited below). */
export const AWS_MALWARE_SCAN_PRINCIPAL = 'malware-protection-plan.guardduty.amazonaws.com';

export const AWS_PERIMETER_SERVICES: Readonly<Record<string, string>> = {
  // GuardDuty Malware Protection for S3 downloads each new object to scan it in its own isolated environment
  // (https://docs.aws.amazon.com/guardduty/latest/ug/gdu-malware-protection-s3.html, "How it works"), as the
  // role its plan names (https://docs.aws.amazon.com/guardduty/latest/ug/malware-protection-s3-iam-policy-prerequisite.html).
  [AWS_MALWARE_SCAN_PRINCIPAL]: 'GuardDuty Malware Protection for S3 scanning new objects',
};

/** A role of the store the perimeter admits: the service it trusts alone, and why that service reads data. */
export interface AwsAdmittedServiceRole {
  arn: string;
  service: string;
  why: string;
}

type Statement = { Effect?: string; Principal?: unknown; Action?: unknown; Condition?: unknown };

/**
 * The roles of a store (its own and its replica's) that its bucket policies admit through the perimeter for an
 * AWS service of AWS_PERIMETER_SERVICES, and the services admitted through them. A role counts only when every Allow of its trust policy names that one
 * service and nothing else may assume it, and a bucket policy of the store exempts its exact ARN; a trust the
 * render does not say (unknown at preview, unreadable) admits nothing, so its grants stay reported.
 */
export function awsAdmittedServiceRoles(
  store: Pick<RenderedStore, 'resources'>,
  accountArn: (name: string) => string,
): { roles: AwsAdmittedServiceRole[]; services: string[] } {
  const exempt = exemptPrincipals(store.resources);
  const roles: AwsAdmittedServiceRole[] = [];
  const others: RenderedResource[] = [];
  for (const role of store.resources) {
    if (role.type !== 'aws:iam/role:Role') continue;
    const service = soleService(role);
    const why = service === undefined ? undefined : AWS_PERIMETER_SERVICES[service];
    const arn = accountArn(stringInput(role, 'name') ?? role.name);
    if (service !== undefined && why !== undefined && exempt.has(arn)) roles.push({ arn, service, why });
    else others.push(role);
  }
  // A service reaches the data only by assuming a role: it is admitted when no other role of the store
  // mentions it in its trust (read as text, so a trust the analysis cannot parse keeps the service reported).
  const services = [...new Set(roles.map((role) => role.service))].filter(
    (service) =>
      !others.some((role) => JSON.stringify(role.inputs['assumeRolePolicy'] ?? '').includes(service)),
  );
  return { roles, services };
}

function soleService(role: RenderedResource): string | undefined {
  const trust = jsonOf(role.inputs['assumeRolePolicy']) as { Statement?: Statement[] } | undefined;
  const allows = (Array.isArray(trust?.Statement) ? trust.Statement : []).filter(
    (statement) => statement.Effect === 'Allow',
  );
  if (allows.length === 0) return undefined;
  const services = new Set<string>();
  for (const statement of allows) {
    const principal = statement.Principal as Record<string, unknown> | undefined;
    if (principal === undefined || typeof principal !== 'object') return undefined;
    const types = Object.keys(principal);
    if (types.length !== 1 || types[0] !== 'Service') return undefined;
    for (const id of [principal['Service']].flat()) services.add(String(id));
    const actions = [statement.Action].flat();
    if (actions.some((action) => action !== 'sts:AssumeRole')) return undefined;
  }
  return services.size === 1 ? [...services][0] : undefined;
}

/**
 * The principal ARNs the store's bucket policies exempt from a deny (an `ArnNot…` condition on aws:PrincipalArn),
 * as written: a role counts when one names its exact ARN, not when a pattern happens to match it.
 */
function exemptPrincipals(resources: readonly RenderedResource[]): Set<string> {
  const exempt = new Set<string>();
  for (const policy of resources) {
    if (policy.type !== 'aws:s3/bucketPolicy:BucketPolicy') continue;
    const document = jsonOf(policy.inputs['policy']) as { Statement?: Statement[] } | undefined;
    for (const statement of Array.isArray(document?.Statement) ? document.Statement : []) {
      if (statement.Effect !== 'Deny') continue;
      const condition = (statement.Condition ?? {}) as Record<string, Record<string, unknown>>;
      for (const [operator, keys] of Object.entries(condition)) {
        if (!operator.startsWith('ArnNot')) continue;
        for (const value of [keys?.['aws:PrincipalArn'] ?? []].flat()) exempt.add(String(value));
      }
    }
  }
  return exempt;
}
