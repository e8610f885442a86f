import { resourceRule } from '../define';
import { UNKNOWN } from '../inputs';
import { GCP_IAM_TYPES, grantsOf, isPublicMember, PUBLIC_MEMBERS } from './iam';

export const gcpIamNoPublicMembers = resourceRule({
  name: 'gcp-iam-no-public-members',
  description: `No IAM grant names a public principal (${PUBLIC_MEMBERS.join(', ')}) on a bucket or managed folder, project, folder, organization, service account, KMS key or key ring, or workload identity pool`,
  source:
    'CIS Google Cloud Platform Foundation Benchmark v3.0.0 5.1 (Cloud Storage) and 1.9 (Cloud KMS); Google Cloud IAM: principal types (allUsers, allAuthenticatedUsers)',
  types: GCP_IAM_TYPES,
  validate: (props, args, report) => {
    for (const { role, members } of grantsOf(args.type, props)) {
      if (members === UNKNOWN) continue;
      for (const member of members.filter(isPublicMember)) {
        const shownRole = typeof role === 'string' ? role : 'its role';
        report(
          `member "${member}" makes ${shownRole} public; must name specific principals (user:, group:, serviceAccount:, principal://…)`,
        );
      }
    }
  },
});
