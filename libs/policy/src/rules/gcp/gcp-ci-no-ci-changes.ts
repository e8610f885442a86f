import { gcpCiChanges } from '@checkpoints/analysis';
import { stackRule } from '../define';
import { ciResourcesOf, reportChanges, reportUnreadGrants } from '../access/ci-identities';

export const gcpCiNoCiChanges = stackRule({
  name: 'gcp-ci-no-ci-changes',
  description:
    "No GCP CI service account can change a CI identity (its IAM policy, keys or tokens), the workload identity pool or providers, CI's custom roles or guarding deny policies, a project's IAM policy, or make itself a store key's admin",
  source:
    'https://cloud.google.com/iam/docs/service-account-permissions; https://cloud.google.com/iam/docs/manage-workload-identity-pools-providers; https://cloud.google.com/kms/docs/reference/permissions-and-roles',
  validate: (args, report, evaluation) => {
    const resources = ciResourcesOf('gcp', args, report, evaluation());
    if (!resources) return;
    reportChanges(gcpCiChanges(resources), report);
    reportUnreadGrants('gcp', resources, report);
  },
});
