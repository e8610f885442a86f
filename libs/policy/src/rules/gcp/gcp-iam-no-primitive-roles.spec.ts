import { violationsOf } from '../../../testing';
import { gcpIamNoPrimitiveRoles } from './gcp-iam-no-primitive-roles';

const EXPECTED = 'must be the narrowest predefined role that does the job';

describe('gcp-iam-no-primitive-roles', () => {
  it("passes bootstrap's documented project-level roles for CI and the stores' object roles", async () => {
    const project = (role: string) => ({
      type: 'gcp:projects/iAMMember:IAMMember',
      props: {
        project: 'acme-checkpoints-ci',
        role,
        member: 'serviceAccount:deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com',
      },
    });
    expect(
      await violationsOf(gcpIamNoPrimitiveRoles, [
        project('roles/storage.admin'),
        project('roles/cloudkms.admin'),
        project('roles/iam.serviceAccountAdmin'),
        project('roles/iam.securityReviewer'),
        {
          type: 'gcp:serviceaccount/iAMMember:IAMMember',
          props: { serviceAccountId: 'sa', role: 'roles/iam.workloadIdentityUser', member: 'principal://x' },
        },
        {
          type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
          props: { bucket: 'b', role: 'roles/storage.objectUser', member: 'group:ml@example.com' },
        },
      ]),
    ).toEqual([]);
  });

  it('flags basic roles in a member, a binding and a policy', async () => {
    expect(
      await violationsOf(gcpIamNoPrimitiveRoles, [
        {
          type: 'gcp:projects/iAMMember:IAMMember',
          props: {
            project: 'p',
            role: 'roles/editor',
            member: 'serviceAccount:ci@p.iam.gserviceaccount.com',
          },
        },
        {
          type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
          props: { bucket: 'b', role: 'roles/viewer', members: ['group:ml@example.com'] },
        },
        {
          type: 'gcp:serviceaccount/iAMPolicy:IAMPolicy',
          props: {
            serviceAccountId: 'sa',
            policyData: JSON.stringify({
              bindings: [{ role: 'roles/owner', members: ['user:alice@example.com'] }],
            }),
          },
        },
      ]),
    ).toEqual([
      `role "roles/editor" is a basic role; ${EXPECTED}`,
      `role "roles/viewer" is a basic role; ${EXPECTED}`,
      `role "roles/owner" is a basic role; ${EXPECTED}`,
    ]);
  });

  it('flags the convenience members that stand for basic-role holders', async () => {
    expect(
      await violationsOf(gcpIamNoPrimitiveRoles, [
        {
          type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
          props: {
            bucket: 'b',
            role: 'roles/storage.objectViewer',
            members: ['group:ml@example.com', 'projectViewer:ml-platform-prod-7310'],
          },
        },
      ]),
    ).toEqual([
      'member "projectViewer:ml-platform-prod-7310" stands for every holder of a basic role on that project; must name specific principals',
    ]);
  });
});
