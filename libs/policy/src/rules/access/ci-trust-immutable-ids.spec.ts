import { awsCiTrust, judgeTrust } from '@checkpoints/analysis';
import { violationsOf } from '../../../testing';
import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, withAwsCiBootstrap } from '../../../testing/aws-ci';
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
