import { awsCiTrust, judgeTrust } from '@checkpoints/analysis';
import { violationsOf } from '../../../testing';
import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, withAwsCiBootstrap } from '../../../testing/aws-ci';
import { ciViolationsOf, gcpAccount, gcpCiResources, gcpSubject } from '../../../testing/ci-identities';
import { ciTrustImmutableIds } from './ci-trust-immutable-ids';

describe('ci-trust-immutable-ids', () => {
  it('does not refuse AWS trust by repository name: AWS trust conditions read only aud and sub', async () => {
    const bootstrap = withAwsCiBootstrap(ALL_PURPOSES);
    try {
      expect(await violationsOf(ciTrustImmutableIds, storeFixture({}), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('refuses a name-only binding where the cloud could bind the ids', () => {
    const [trust] = awsCiTrust([
      {
        urn: 'urn:pulumi:ci::b::aws:iam/role:Role::deploy-prod',
        type: 'aws:iam/role:Role',
        name: 'deploy-prod',
        parent: null,
        protect: false,
        retainOnDelete: false,
        dependsOn: [],
        inputs: {
          name: 'checkpoints-ci-deploy-prod',
          assumeRolePolicy: JSON.stringify({
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Federated: 'arn:aws:iam::1:oidc-provider/token.actions.githubusercontent.com' },
                Action: 'sts:AssumeRoleWithWebIdentity',
                Condition: {
                  StringEquals: { 'token.actions.githubusercontent.com:sub': 'repo:acme/x:environment:prod' },
                },
              },
            ],
          }),
        },
      },
    ]);
    const bindable = { ...trust!, immutableIdsBindable: true };
    expect(
      judgeTrust([bindable], { fullName: 'acme/x' }).map((finding) => `${finding.kind}: ${finding.why}`),
    ).toEqual(['immutable-ids: trusts the repository by its renamable name, not its immutable id']);
  });
});

describe('ci-trust-immutable-ids on GCP', () => {
  const renamed = (purpose: string, binding: string, subject: string, token: string) =>
    `ci ${purpose} (serviceAccount:${gcpAccount(purpose)}): its iam.serviceAccounts.getAccessToken from roles/iam.workloadIdentityUser on serviceAccounts/${gcpAccount(purpose)} (IAMMember ${binding}) (${gcpSubject(subject)}) trusts the repository by its renamable name, not its immutable id: admits ${token} of a repository that took this one's name after a rename (acme/checkpoint-storage, id 999999999) (sub ${subject})`;
  const expected = [
    renamed('preview', 'preview-federation-0', 'repo:acme/checkpoint-storage:pull_request', 'a pull request'),
    renamed(
      'deploy-prod',
      'deploy-prod-federation-0',
      'repo:acme/checkpoint-storage:environment:prod',
      'a job in environment prod',
    ),
  ];

  it('passes a provider whose attribute condition pins repository_id and repository_owner_id', async () => {
    expect(await ciViolationsOf(ciTrustImmutableIds, gcpCiResources({}))).toEqual([]);
  });

  it('refuses a provider without an attribute condition: a repository that takes the name gets in', async () => {
    expect(await ciViolationsOf(ciTrustImmutableIds, gcpCiResources({ condition: '' }))).toEqual(expected);
  });

  it('refuses a provider that pins the repository by name only', async () => {
    const render = gcpCiResources({ condition: "assertion.repository == 'acme/checkpoint-storage'" });
    expect(await ciViolationsOf(ciTrustImmutableIds, render)).toEqual(expected);
  });
});
