import { resourceRule } from '../define';
import { UNKNOWN } from '../inputs';
import { GCP_IAM_TYPES, grantsOf } from './iam';

/** The basic (formerly primitive) roles: thousands of permissions across every service. */
export const PRIMITIVE_ROLES: readonly string[] = ['roles/owner', 'roles/editor', 'roles/viewer'];

/** Convenience members that stand for every holder of a basic role on a project (`projectViewer:my-project`). */
const BASIC_ROLE_MEMBER = /^(projectOwner|projectEditor|projectViewer):/i;

export const gcpIamNoPrimitiveRoles = resourceRule({
  name: 'gcp-iam-no-primitive-roles',
  description: `No IAM grant uses a basic (primitive) role (${PRIMITIVE_ROLES.join(', ')}) or grants to the holders of one (projectOwner:, projectEditor:, projectViewer: members) on any resource; predefined roles, such as a documented project-level admin role for CI, are not this rule's concern`,
  source:
    'Google Cloud IAM: Use IAM securely — avoid basic roles; CIS Google Cloud Platform Foundation Benchmark v3.0.0 1.5 (its Owner/Editor part)',
  types: GCP_IAM_TYPES,
  validate: (props, args, report) => {
    for (const { role, members } of grantsOf(args.type, props)) {
      if (typeof role === 'string' && PRIMITIVE_ROLES.includes(role)) {
        report(`role "${role}" is a basic role; must be the narrowest predefined role that does the job`);
      }
      if (members === UNKNOWN) continue;
      for (const member of members) {
        if (typeof member === 'string' && BASIC_ROLE_MEMBER.test(member)) {
          report(
            `member "${member}" stands for every holder of a basic role on that project; must name specific principals`,
          );
        }
      }
    }
  },
});
