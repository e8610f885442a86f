/** Spec helpers of the AWS CI rules: a bootstrap render of CI roles, their trust and their policies. */
import type { ResourceUnderTest } from '.';
import { violationsOf } from '.';
import type { SourcedPolicy } from '../src/rules/define';
import { bootstrapResource, withBootstrapRender, type BootstrapFile } from './access';

export const ACCOUNT = '123456789012';
export const PROVIDER = `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`;
export const REPOSITORY = 'acme/checkpoint-storage';

export interface CiRole {
  purpose: 'preview' | 'deploy-dev' | 'deploy-prod';
  /** `sub` values its trust policy names (StringEquals), or the whole trust policy. */
  trust?: string[] | object;
  /** Statements of its inline policy. */
  statements?: object[];
}

/** The subjects the shipped bootstrap trusts per purpose (bootstrap/src/github.ts). */
export const SHIPPED_SUBJECTS: Record<CiRole['purpose'], string[]> = {
  preview: [`repo:${REPOSITORY}:pull_request`, `repo:${REPOSITORY}:environment:drift`],
  'deploy-dev': [`repo:${REPOSITORY}:environment:dev`],
  'deploy-prod': [`repo:${REPOSITORY}:environment:prod`],
};

export function githubTrust(subjects: string[], operator = 'StringEquals'): object {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Federated: PROVIDER },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: { 'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com' },
          [operator]: { 'token.actions.githubusercontent.com:sub': subjects },
        },
      },
    ],
  };
}

/** Writes a bootstrap render of these CI roles (each with the shipped trust unless given), plus `extra` resources. */
export function withAwsCiBootstrap(roles: CiRole[], extra: object[] = []): BootstrapFile {
  const resource = bootstrapResource;
  return withBootstrapRender({
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: [
      resource('aws:iam/openIdConnectProvider:OpenIdConnectProvider', 'github', {
        url: 'https://token.actions.githubusercontent.com',
        clientIdLists: ['sts.amazonaws.com'],
      }),
      ...roles.flatMap((role) => {
        const trust = Array.isArray(role.trust)
          ? githubTrust(role.trust)
          : (role.trust ?? githubTrust(SHIPPED_SUBJECTS[role.purpose]));
        return [
          resource('aws:iam/role:Role', role.purpose, {
            name: `checkpoints-ci-${role.purpose}`,
            assumeRolePolicy: JSON.stringify(trust),
          }),
          resource('aws:iam/rolePolicy:RolePolicy', `${role.purpose}-permissions`, {
            name: 'checkpoint-stacks',
            role: `checkpoints-ci-${role.purpose}`,
            policy: JSON.stringify({
              Version: '2012-10-17',
              Statement: role.statements ?? [
                { Sid: 'ListKeyAliases', Effect: 'Allow', Action: 'kms:ListAliases', Resource: '*' },
              ],
            }),
          }),
        ];
      }),
      ...extra.map((each) => {
        const { type, name, inputs } = each as {
          type: string;
          name: string;
          inputs: Record<string, unknown>;
        };
        return resource(type, name, inputs);
      }),
    ],
  });
}

export const ALL_PURPOSES: CiRole[] = [
  { purpose: 'preview' },
  { purpose: 'deploy-dev' },
  { purpose: 'deploy-prod' },
];

/** The rule's violations for `store` with a bootstrap render of these CI roles (and `extra` resources). */
export async function awsCiViolations(
  rule: SourcedPolicy,
  store: ResourceUnderTest[],
  roles: CiRole[],
  extra: object[] = [],
): Promise<string[]> {
  const bootstrap = withAwsCiBootstrap(roles, extra);
  try {
    return await violationsOf(rule, store, {}, bootstrap.path);
  } finally {
    bootstrap.remove();
  }
}
