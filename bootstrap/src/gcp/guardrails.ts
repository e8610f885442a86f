import type * as pulumi from '@pulumi/pulumi';
import { Policy } from '@pulumi/gcp/orgpolicy/policy';
import type { Environment } from '@checkpoints/config';

const SECONDS_PER_DAY = 86_400;
/** The longest soft-delete duration a bucket takes (https://cloud.google.com/storage/docs/soft-delete#retention-duration). */
const MAX_SOFT_DELETE_DAYS = 90;

/**
 * The fewest days soft delete keeps a deleted or overwritten object in the stack project of an environment
 * (none: no floor). GCS's own default is 7 days (https://cloud.google.com/storage/docs/soft-delete): the
 * floor takes away only turning it off or under a week, which a prod store never needs.
 */
export const GCP_SOFT_DELETE_FLOOR_DAYS: Partial<Record<Environment, number>> = { prod: 7 };

/** Every whole-day duration from `floor` to the longest, in seconds: the values the constraint allows. */
export function softDeleteAllowedSeconds(floor: number): string[] {
  const values: string[] = [];
  for (let days = floor; days <= MAX_SOFT_DELETE_DAYS; days += 1) values.push(String(days * SECONDS_PER_DAY));
  return values;
}

/**
 * Organization policy `constraints/storage.softDeletePolicySeconds` on the stack project: "the allowable
 * retention durations for soft delete policies set on Cloud Storage buckets where this constraint is
 * enforced. Any insert, update, or patch operation on a bucket where this constraint is enforced must have a
 * soft delete policy duration that matches the constraint" (the constraint's description,
 * https://cloud.google.com/resource-manager/docs/organization-policy/org-policy-constraints#storage). So a
 * bucket update can neither turn soft delete off nor set it under the floor, and whatever lifecycle deletes
 * stays restorable that long: soft delete "preserves objects ... that get deleted or overwritten", by a user or
 * by lifecycle (https://cloud.google.com/storage/docs/soft-delete). Setting an organization policy takes
 * `orgpolicy.policy.set`, in roles/orgpolicy.policyAdmin, which no CI identity holds (./roles): the admin who
 * runs the bootstrap does (docs/security.md).
 */
export function softDeleteFloor(
  project: string,
  environment: Environment,
  parent: pulumi.Resource,
): Policy | undefined {
  const floor = GCP_SOFT_DELETE_FLOOR_DAYS[environment];
  if (floor === undefined) return undefined;
  return new Policy(
    `soft-delete-floor-${project}`,
    {
      name: `projects/${project}/policies/storage.softDeletePolicySeconds`,
      parent: `projects/${project}`,
      spec: { rules: [{ values: { allowedValues: softDeleteAllowedSeconds(floor) } }] },
    },
    { parent, protect: true },
  );
}
