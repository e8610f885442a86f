import { resourceRule } from '../define';
import { SERVICE_ACCOUNT_KEY } from './tokens';

export const gcpIamNoServiceAccountKeys = resourceRule({
  name: 'gcp-iam-no-service-account-keys',
  description:
    'No user-managed service account keys: a key is a long-lived credential that works from anywhere; workloads use Workload Identity Federation or an attached service account',
  source:
    'CIS Google Cloud Platform Foundation Benchmark v3.0.0 1.4; Google Cloud: Best practices for managing service account keys',
  types: [SERVICE_ACCOUNT_KEY],
  validate: (_props, args, report) => {
    report(
      `${args.type} creates a user-managed service account key; must not be used: use Workload Identity Federation or an attached service account`,
    );
  },
});
