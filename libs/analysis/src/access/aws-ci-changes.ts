import type { RenderedResource } from '@checkpoints/render';
import { contextMemo, type AnalysisContext } from '../context';
import {
  allowed,
  awsAnswersOf,
  ciPrincipals,
  defaultKeyPolicy,
  policyDocument,
  type AwsPrincipal,
  type PolicyDocument,
} from './aws';
import { assumedFor, judgedPolicy, withGrants } from './aws-grants';
import { globMatches } from '../trust/model';
import { stringInput, type Principal } from './model';

/** A way a CI identity can change a CI identity, or an identity a perimeter exempts, or take a key's admin. */
export interface CiChange {
  identity: Principal;
  /** What it can change, in the cloud's words: `ci preview (arn:...:role/checkpoints-ci-preview)`. */
  target: string;
  /** The permission, with the statements that allow it. */
  permission: string;
}

/**
 * IAM writes that change what a role may do or who may become it. Each is authorised on the role's ARN,
 * with `iam:PermissionsBoundary` the boundary the role has (per the IAM actions of the Service
 * Authorization Reference, https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsidentityandaccessmanagementiam.html).
 */
const ROLE_CHANGES = [
  'iam:PutRolePolicy',
  'iam:AttachRolePolicy',
  'iam:UpdateAssumeRolePolicy',
  'iam:PutRolePermissionsBoundary',
  'iam:DeleteRolePermissionsBoundary',
];

/**
 * What lets a principal other than the service act as a role a perimeter exempts: a new trust, the role
 * deleted (to be re-created under its exempt name with another trust), a managed policy attached, its
 * boundary changed or removed (Service Authorization Reference, IAM actions, as ROLE_CHANGES).
 */
const EXEMPT_ROLE_CHANGES = [
  'iam:UpdateAssumeRolePolicy',
  'iam:DeleteRole',
  'iam:AttachRolePolicy',
  'iam:PutRolePermissionsBoundary',
  'iam:DeleteRolePermissionsBoundary',
];

/** A new default version of a managed policy changes every role it is attached to, or bounds. */
const POLICY_CHANGES = ['iam:CreatePolicyVersion', 'iam:SetDefaultPolicyVersion'];

/** The credentials of every CI identity: the GitHub OIDC provider their trust names. */
const PROVIDER_CHANGES = [
  'iam:UpdateOpenIDConnectProviderThumbprint',
  'iam:AddClientIDToOpenIDConnectProvider',
  'iam:CreateOpenIDConnectProvider',
];

/** A key's admin handed out: a new key policy, or a grant of its operations. https://docs.aws.amazon.com/kms/latest/developerguide/control-access.html */
const KEY_ADMIN = ['kms:PutKeyPolicy', 'kms:CreateGrant'];

/** What an administrator policy to attach is: AttachRolePolicy conditions on `iam:PolicyARN`. */
const ATTACHED = 'arn:aws:iam::aws:policy/AdministratorAccess';

interface Question {
  target: string;
  action: string;
  resource: string;
  context?: Record<string, string>;
  resourcePolicy?: PolicyDocument;
}

/**
 * For every CI identity of the bootstrap render: can it change any CI identity's policies, attachments,
 * boundary or trust, their managed policies or OIDC provider; rewrite, re-create or create a role the
 * render's bucket policies exempt from their perimeter; or take admin of a key of the render.
 */
export const awsCiChangesOf: (context: AnalysisContext) => Promise<CiChange[]> = contextMemo((context) =>
  ciChanges(context),
);

async function ciChanges(context: AnalysisContext): Promise<CiChange[]> {
  const bootstrap = context.bootstrap?.resources ?? [];
  const arn = /arn:(aws[a-z-]*):iam::(\d{12}):/.exec(JSON.stringify(bootstrap.map((r) => r.inputs)));
  if (!arn) return [];
  const [, partition = 'aws', accountId = ''] = arn;
  const identities = ciPrincipals(bootstrap, { partition, accountId, context });
  if (identities.length === 0) return [];
  const questions = [
    ...identities.flatMap((identity) => identityQuestions(identity)),
    ...providerQuestions(bootstrap, partition, accountId),
    ...exemptionQuestions(context, partition, accountId),
    ...keyQuestions(context, partition, accountId),
  ];
  const changes: CiChange[] = [];
  for (const identity of identities) {
    for (const question of questions) {
      const reason = await allowed(
        identity,
        {
          action: question.action,
          resource: question.resource,
          ...(question.context ? { context: question.context } : {}),
          ...(question.resourcePolicy ? { resourcePolicy: question.resourcePolicy } : {}),
        },
        undefined,
        context,
      );
      if (reason === undefined) continue;
      const bearing = assumedFor(identity.assumed ?? [], [question.action]);
      const assumed = bearing.length > 0 ? ` (assumed: ${bearing.join('; ')})` : '';
      changes.push({
        identity: identity.principal,
        target: question.target,
        permission: `${reason}${assumed}`,
      });
    }
  }
  return changes;
}

function identityQuestions(identity: AwsPrincipal): Question[] {
  const target = `${identity.principal.label} (${identity.arn})`;
  const boundary = identity.boundaryArn ? { 'iam:PermissionsBoundary': identity.boundaryArn } : undefined;
  return [
    ...ROLE_CHANGES.map((action): Question => ({
      target,
      action,
      resource: identity.arn,
      context: {
        ...boundary,
        ...(action === 'iam:AttachRolePolicy' ? { 'iam:PolicyARN': ATTACHED } : {}),
      },
    })),
    ...[...(identity.attachedPolicyArns ?? []), ...(identity.boundaryArn ? [identity.boundaryArn] : [])]
      .filter((policyArn) => policyArn.startsWith('arn:') && !/:iam::aws:policy\//.test(policyArn))
      .flatMap((policyArn) =>
        POLICY_CHANGES.map((action): Question => ({
          target: `${target}, its policy ${policyArn}`,
          action,
          resource: policyArn,
        })),
      ),
  ];
}

function providerQuestions(
  bootstrap: readonly RenderedResource[],
  partition: string,
  accountId: string,
): Question[] {
  const providers = bootstrap.filter((r) => r.type === 'aws:iam/openIdConnectProvider:OpenIdConnectProvider');
  return providers.flatMap((provider) => {
    const host = (stringInput(provider, 'url') ?? 'token.actions.githubusercontent.com').replace(
      /^https:\/\//,
      '',
    );
    const resource = `arn:${partition}:iam::${accountId}:oidc-provider/${host}`;
    return PROVIDER_CHANGES.map((action): Question => ({
      target: `the OIDC provider every CI identity trusts (${resource})`,
      action,
      resource,
    }));
  });
}

/**
 * The principals the render's bucket policies exempt from a Deny (a perimeter's `aws:PrincipalArn`
 * exceptions): an exact role ARN is asked about rewriting its trust, its boundary, or deleting and
 * re-creating it under its name; a pattern, about creating a role it matches in the namespace of the
 * stack's own roles (each of their names extended to match it), with the boundary those roles carry.
 */
function exemptionQuestions(context: AnalysisContext, partition: string, accountId: string): Question[] {
  const answers = awsAnswersOf(context);
  const exempt = new Set<string>();
  for (const resource of context.resources) {
    if (
      resource.type !== 'aws:s3/bucketPolicy:BucketPolicy' &&
      resource.type !== 'aws:s3/directoryBucketPolicy:DirectoryBucketPolicy'
    )
      continue;
    const document = policyDocument(resource.inputs['policy'], answers);
    for (const statement of [document?.Statement ?? []].flat()) {
      if (statement.Effect !== 'Deny' || !statement.Condition) continue;
      for (const [operator, keys] of Object.entries(
        statement.Condition as Record<string, Record<string, unknown>>,
      )) {
        if (!/^(ArnNot|StringNot)/.test(operator)) continue;
        for (const [key, values] of Object.entries(keys ?? {})) {
          if (key.toLowerCase() === 'aws:principalarn')
            for (const value of [values].flat()) exempt.add(String(value));
        }
      }
    }
  }
  const roles = context.resources.filter((r) => r.type === 'aws:iam/role:Role');
  const boundaries = [...new Set(roles.flatMap((role) => stringInput(role, 'permissionsBoundary') ?? []))];
  const roleNames = roles.map((role) => stringInput(role, 'name') ?? role.name);
  const prefix = `arn:${partition}:iam::${accountId}:role/`;
  return [...exempt].flatMap((pattern): Question[] => {
    const target = `a role the perimeter exempts (${pattern})`;
    if (!/[*?]/.test(pattern)) {
      // A role the render holds is the stack's own (a replica's replication role, which S3 alone may
      // assume). Whoever can rewrite its trust, delete and re-create it under its name with another trust,
      // attach a policy to it or change its boundary can act as it, and the perimeter does not stop it.
      // Its inline policy is the deploy's to write: while only S3 may assume the role, a policy changes
      // what S3 replicates, within the boundary, not who reaches the data from outside.
      const held = roles.find((each) => `${prefix}${stringInput(each, 'name') ?? each.name}` === pattern);
      if (held) {
        const boundary = stringInput(held, 'permissionsBoundary');
        return EXEMPT_ROLE_CHANGES.map((action): Question => ({
          target,
          action,
          resource: pattern,
          context: {
            ...(boundary ? { 'iam:PermissionsBoundary': boundary } : {}),
            ...(action === 'iam:AttachRolePolicy' ? { 'iam:PolicyARN': ATTACHED } : {}),
          },
        }));
      }
      return boundaries.map((boundary): Question => ({
        target: `${target}: a new role under that name`,
        action: 'iam:CreateRole',
        resource: pattern,
        context: { 'iam:PermissionsBoundary': boundary },
      }));
    }
    const tail = pattern.slice(pattern.lastIndexOf('*') + 1).replace(/\?/g, 'x');
    const candidates = roleNames
      .map((name) => `${prefix}${name}${tail}`)
      .filter((candidate) => globMatches(pattern, candidate, true));
    return [...new Set(candidates)].slice(0, 1).flatMap((candidate) =>
      (boundaries.length > 0 ? boundaries : [undefined]).map((boundary): Question => ({
        target: `${target}: a new role ${candidate.slice(prefix.length)}`,
        action: 'iam:CreateRole',
        resource: candidate,
        ...(boundary ? { context: { 'iam:PermissionsBoundary': boundary } } : {}),
      })),
    );
  });
}

/**
 * Every key of the render, asked about handing its admin out with its key policy (AWS's default when the
 * render sets none) and the render's KMS grants, its tags in the request context. A key's ARN is the one its
 * siblings name (the store's encryption configuration, the trail).
 */
function keyQuestions(context: AnalysisContext, partition: string, accountId: string): Question[] {
  const answers = awsAnswersOf(context);
  const grants = [...context.resources, ...(context.bootstrap?.resources ?? [])];
  return context.resources.flatMap((key): Question[] => {
    if (key.type !== 'aws:kms/key:Key') return [];
    const siblings = context.resources.filter((r) => r.parent === key.parent && r !== key);
    const keyArn = /arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[0-9a-zA-Z-]+/.exec(
      JSON.stringify(siblings.map((r) => r.inputs)),
    )?.[0];
    if (!keyArn) return [];
    const policy = judgedPolicy(
      withGrants(
        policyDocument(key.inputs['policy'], answers) ?? defaultKeyPolicy(partition, accountId),
        keyArn,
        grants,
      ),
    ).policy;
    const tags = (key.inputs['tags'] as Record<string, string> | undefined) ?? {};
    const tagContext = Object.fromEntries(
      Object.entries(tags).map(([name, value]) => [`aws:ResourceTag/${name}`, value]),
    );
    return KEY_ADMIN.map((action): Question => ({
      target: `key ${key.name} (${keyArn})`,
      action,
      resource: keyArn,
      context: tagContext,
      resourcePolicy: policy,
    }));
  });
}
