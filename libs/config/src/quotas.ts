import { AWS_DEFAULT_QUOTAS } from './facts/aws';
import { AZURE_DEFAULT_QUOTAS, AZURE_RBAC_LIMITS } from './facts/azure';
import { GCP_DEFAULT_QUOTAS } from './facts/gcp';
import type { StackSpec } from './spec';

/*
 * Quotas the stack alone would exceed, each as a warning that names the quota, what the stack needs and how
 * to raise it. A warning, not a refusal: quotas are raised per account, project or subscription, and the
 * validator cannot see the raised value or what else already uses the quota.
 */

/** Every store has its own writer and reader identity. */
const IDENTITIES_PER_STORE = 2;

function over(quota: string, needed: number, limit: number, what: string, raise: string): string[] {
  if (needed <= limit) return [];
  return [
    `the stack needs ${needed} ${what}, more than the default quota "${quota}" of ${limit} (before anything else in it is counted); ${raise}`,
  ];
}

export function awsQuotaWarnings(spec: StackSpec): string[] {
  return over(
    'Roles per account',
    spec.stores.length * IDENTITIES_PER_STORE,
    AWS_DEFAULT_QUOTAS.rolesPerAccount,
    'IAM roles (a writer and a reader role per store)',
    `raise it in Service Quotas (IAM, quota code ${AWS_DEFAULT_QUOTAS.rolesPerAccountQuotaCode}) before pulumi up, or split the stores over stacks in several accounts`,
  );
}

export function gcpQuotaWarnings(spec: StackSpec): string[] {
  return over(
    'Number of service accounts',
    spec.stores.length * IDENTITIES_PER_STORE,
    GCP_DEFAULT_QUOTAS.serviceAccountsPerProject,
    'service accounts (a writer and a reader per store)',
    'request an increase in the Google Cloud console (IAM & Admin, Quotas, "Service Account Count") before pulumi up, or split the stores over projects',
  );
}

/** @param roleAssignments the role assignments the program will create, counted by the caller from its own grants. */
export function azureQuotaWarnings(spec: StackSpec, roleAssignments: number): string[] {
  return [
    ...over(
      'Storage accounts per region per subscription',
      spec.stores.length,
      AZURE_DEFAULT_QUOTAS.storageAccountsPerRegionPerSubscription,
      'storage accounts in one region (one per store)',
      'request an increase in the Azure portal (Quotas, Storage) up to 500 before pulumi up, or split the stores over subscriptions or regions',
    ),
    ...over(
      'Azure role assignments per Azure subscription',
      roleAssignments,
      AZURE_RBAC_LIMITS.roleAssignmentsPerSubscription,
      'role assignments (the store identities, each declared writer and reader, and key access)',
      'this limit cannot be raised: grant access to Microsoft Entra groups instead of individual principals, or split the stores over subscriptions',
    ),
  ];
}
