import type { RenderedResource } from '@checkpoints/render';
import { awsCiTrust, judgeTrust, repositoryOf } from '../../src/trust';

const PROVIDER = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
const REPOSITORY = 'acme/checkpoint-storage';

function role(
  name: string,
  condition: unknown,
  principal: unknown = { Federated: PROVIDER },
): RenderedResource {
  return {
    urn: `urn:pulumi:ci::bootstrap::aws:iam/role:Role::${name}`,
    type: 'aws:iam/role:Role',
    name,
    parent: null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs: {
      name: `checkpoints-ci-${name}`,
      assumeRolePolicy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: principal,
            Action: 'sts:AssumeRoleWithWebIdentity',
            Condition: condition,
          },
        ],
      }),
    },
  };
}

const exact = (sub: string | string[]) => ({
  StringEquals: {
    'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
    'token.actions.githubusercontent.com:sub': sub,
  },
});

const shipped = [
  role('preview', exact([`repo:${REPOSITORY}:pull_request`, `repo:${REPOSITORY}:environment:drift`])),
  role('deploy-dev', exact(`repo:${REPOSITORY}:environment:dev`)),
  role('deploy-prod', exact(`repo:${REPOSITORY}:environment:prod`)),
];

function findings(resources: RenderedResource[]): string[] {
  const trusts = awsCiTrust(resources);
  const verdict = repositoryOf(trusts);
  if (!('repository' in verdict)) return [verdict.why];
  return judgeTrust(trusts, { fullName: verdict.repository }, ['drift']).map(
    (finding) => `${finding.identity.label} ${finding.why}: ${finding.token.claims.sub}`,
  );
}

describe('AWS trust of the CI roles', () => {
  it('the shipped trust: deploy only from its environment, pull requests only to preview, this repository only', () => {
    expect(findings(shipped)).toEqual([]);
    expect(repositoryOf(awsCiTrust(shipped))).toEqual({ repository: REPOSITORY });
  });

  it('a deploy role widened to pull requests is reached by them', () => {
    const widened = [
      ...shipped.slice(0, 2),
      role('deploy-prod', exact([`repo:${REPOSITORY}:environment:prod`, `repo:${REPOSITORY}:pull_request`])),
    ];
    expect(findings(widened)).toEqual([
      `ci deploy-prod trusts pull-request jobs, which only the preview identity may: repo:${REPOSITORY}:pull_request`,
    ]);
  });

  it('StringLike with a wildcard repository admits other repositories and other owners', () => {
    const wildcard = [
      ...shipped.slice(0, 2),
      role('deploy-prod', {
        StringLike: { 'token.actions.githubusercontent.com:sub': 'repo:acme/*:environment:prod' },
      }),
    ];
    const found = findings(wildcard);
    expect(found).toContain(
      'ci deploy-prod trusts another repository (a wildcard or foreign repository or owner): repo:acme/another-repository:environment:prod',
    );
    expect(found.some((line) => line.includes('someone-else'))).toBe(false);
  });

  it('ForAnyValue:StringLike on sub is the operator on the one value; a * sub reaches every job', () => {
    const any = [
      ...shipped.slice(0, 2),
      role('deploy-prod', { 'ForAnyValue:StringLike': { 'token.actions.githubusercontent.com:sub': '*' } }),
    ];
    const found = findings(any);
    expect(found).toEqual(
      expect.arrayContaining([
        `ci deploy-prod trusts pull-request jobs, which only the preview identity may: repo:${REPOSITORY}:pull_request`,
        `ci deploy-prod trusts jobs outside its GitHub environment prod: repo:${REPOSITORY}:ref:refs/heads/feature`,
        'ci deploy-prod trusts another repository (a wildcard or foreign repository or owner): repo:someone-else/checkpoint-storage:environment:prod',
      ]),
    );
  });

  it('StringNotEquals lets in everything it does not name', () => {
    const negated = [
      ...shipped.slice(0, 2),
      role('deploy-prod', {
        ...exact(`repo:${REPOSITORY}:environment:prod`),
        StringNotEquals: { 'token.actions.githubusercontent.com:sub': `repo:${REPOSITORY}:environment:dev` },
      }),
      role('deploy-prod', {
        StringNotEquals: { 'token.actions.githubusercontent.com:sub': `repo:${REPOSITORY}:environment:dev` },
      }),
    ];
    expect(findings(negated)).toContain(
      `ci deploy-prod trusts pull-request jobs, which only the preview identity may: repo:${REPOSITORY}:pull_request`,
    );
  });

  it('fails closed: a condition key it cannot read, an unknown trust policy, an AWS principal', () => {
    const unreadable = [
      ...shipped.slice(0, 2),
      role('deploy-prod', { StringEquals: { 'token.actions.githubusercontent.com:job_workflow_ref': 'x' } }),
    ];
    expect(findings(unreadable)).toContain(
      `ci deploy-prod trusts pull-request jobs, which only the preview identity may: repo:${REPOSITORY}:pull_request`,
    );
    const trust = awsCiTrust([
      { ...shipped[2]!, inputs: { ...shipped[2]!.inputs, assumeRolePolicy: '[unknown]' } },
    ]);
    expect(trust[0]?.paths[0]?.admits(probe())).toEqual({
      admitted: true,
      assumed: 'the trust policy is unknown or not a policy document: taken to trust any token',
    });
    const account = awsCiTrust([role('deploy-prod', undefined, { AWS: 'arn:aws:iam::210987654321:root' })]);
    expect(account[0]?.paths[0]?.admits(probe())).toMatchObject({ admitted: true });
  });

  it("two repositories named exactly: which one is CI's is unknown, and it says so", () => {
    const split = [...shipped.slice(0, 2), role('deploy-prod', exact('repo:evil/fork:environment:prod'))];
    expect(findings(split)).toEqual([
      `the CI identities name different repositories (${REPOSITORY}, evil/fork)`,
    ]);
  });
});

function probe() {
  return {
    origin: 'this-repository' as const,
    context: { kind: 'pull_request' as const },
    claims: {
      iss: 'https://token.actions.githubusercontent.com',
      aud: 'sts.amazonaws.com',
      sub: `repo:${REPOSITORY}:pull_request`,
      repository: REPOSITORY,
      repository_owner: 'acme',
      repository_id: '1',
      repository_owner_id: '2',
      event_name: 'pull_request',
      ref: 'refs/heads/main',
      job_workflow_ref: `${REPOSITORY}/.github/workflows/pr.yml@refs/heads/main`,
    },
  };
}
