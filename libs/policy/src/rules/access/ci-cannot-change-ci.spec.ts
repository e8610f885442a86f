import { FIXTURE_KEY, storeFixture } from '../../../testing/aws';
import { ACCOUNT, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
import { ciCannotChangeCi } from './ci-cannot-change-ci';

const store = storeFixture({ key: true });

const violations = (roles: CiRole[], extra: object[] = []) =>
  awsCiViolations(ciCannotChangeCi, store, roles, extra);

const PREVIEW = `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-preview`;

describe('ci-cannot-change-ci', () => {
  it('passes CI roles that hold no IAM or key-policy writes', async () => {
    expect(await violations([{ purpose: 'preview' }, { purpose: 'deploy-prod' }])).toEqual([]);
  });

  it("flags a deploy role that may rewrite the CI roles' policies (iam:Put* on checkpoints-ci-*)", async () => {
    const found = await violations([
      { purpose: 'preview' },
      {
        purpose: 'deploy-prod',
        statements: [
          {
            Sid: 'Widened',
            Effect: 'Allow',
            Action: 'iam:Put*',
            Resource: `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-*`,
          },
        ],
      },
    ]);
    expect(found).toContain(
      `ci deploy-prod can change ci preview (${PREVIEW}): iam:PutRolePolicy: policy checkpoint-stacks Widened`,
    );
    expect(found).toContain(
      `ci deploy-prod can change ci preview (${PREVIEW}): iam:PutRolePermissionsBoundary: policy checkpoint-stacks Widened`,
    );
  });

  it('reads a managed policy attached to a CI role, and counts an AWS-managed one as allowing everything', async () => {
    const found = await violations(
      [{ purpose: 'preview' }, { purpose: 'deploy-prod' }],
      [
        {
          type: 'aws:iam/policy:Policy',
          name: 'extra',
          inputs: {
            name: 'extra',
            policy: JSON.stringify({
              Statement: [
                { Sid: 'Trust', Effect: 'Allow', Action: 'iam:UpdateAssumeRolePolicy', Resource: PREVIEW },
              ],
            }),
          },
        },
        {
          type: 'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
          name: 'deploy-prod-extra',
          inputs: { role: 'checkpoints-ci-deploy-prod', policyArn: `arn:aws:iam::${ACCOUNT}:policy/extra` },
        },
        {
          type: 'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
          name: 'preview-admin',
          inputs: { role: 'checkpoints-ci-preview', policyArn: 'arn:aws:iam::aws:policy/IAMFullAccess' },
        },
      ],
    );
    expect(found).toContain(
      `ci deploy-prod can change ci preview (${PREVIEW}): iam:UpdateAssumeRolePolicy: policy attachment deploy-prod-extra arn:aws:iam::${ACCOUNT}:policy/extra Trust`,
    );
    expect(found).toContain(
      `ci preview can change ci preview (${PREVIEW}): iam:PutRolePolicy: policy attachment preview-admin arn:aws:iam::aws:policy/IAMFullAccess AwsManagedPolicyNotInTheRenderTakenToAllowEverything`,
    );
  });

  it('counts a grant type it does not model, naming a CI role, as allowing everything', async () => {
    const found = await violations(
      [{ purpose: 'preview' }],
      [{ type: 'aws:iam/roleInlinePolicy:Future', name: 'x', inputs: { role: 'checkpoints-ci-preview' } }],
    );
    expect(found).toContain(
      `ci preview can change ci preview (${PREVIEW}): iam:PutRolePolicy: policy aws:iam/roleInlinePolicy:Future x GrantTypeNotModelledTakenToAllowEverything`,
    );
  });

  it("flags a CI role that may hand out a store key's admin", async () => {
    expect(
      await violations([
        {
          purpose: 'deploy-prod',
          statements: [
            {
              Sid: 'KeyAdmin',
              Effect: 'Allow',
              Action: 'kms:CreateGrant',
              Resource: `arn:aws:kms:*:${ACCOUNT}:key/*`,
            },
          ],
        },
      ]),
    ).toEqual([
      `ci deploy-prod can change key ckpt-key (${FIXTURE_KEY}): kms:CreateGrant: policy checkpoint-stacks KeyAdmin, key policy Enable IAM User Permissions`,
    ]);
  });
});
