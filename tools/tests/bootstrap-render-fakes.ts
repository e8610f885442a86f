/**
 * The clouds as the bootstrap's render says they should be, for the preflight's comparison of the two: the
 * render the bootstrap's synth target writes (checkpoints-synth on the shipped bootstrap/Pulumi.ci.yaml), and
 * answers built from it behind each SDK's own hook. The answers hold the same rights written the way the
 * clouds write them (IAM documents URL-encoded, statements, actions and permissions in another order, the
 * real account and project number where the render has synth's mock ones), so that only a difference of
 * rights fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AwsClientStub } from 'aws-sdk-client-mock';
import {
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  ListAttachedRolePoliciesCommand,
  ListRolePoliciesCommand,
  type IAMClient,
} from '@aws-sdk/client-iam';
import { DescribeBackupVaultCommand, type BackupClient } from '@aws-sdk/client-backup';
import { run, tempDir, WORKSPACE } from './helpers';
import type { FakeApi } from './preflight-fakes';

export interface RenderedResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

export interface BootstrapRender {
  project: string;
  stack: string;
  placement: Record<string, string>;
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
}

/** synth's mock account and CI project number, which the render's ARNs and audiences carry. */
const RENDER_NUMBER = /(?<=:|projects\/)123456789012(?=:|\/)/g;

let rendered: { path: string; render: BootstrapRender } | undefined;

/** The shipped bootstrap stack's render, made once per test file as its synth target makes it. */
export function bootstrapRender(): { path: string; render: BootstrapRender } {
  if (rendered) return rendered;
  const out = tempDir('bootstrap-render-');
  const result = run(
    process.execPath,
    [join(WORKSPACE, 'libs', 'synth', 'bin', 'synth.js'), '--stack=ci', `--out=${out}`, `--cwd=${WORKSPACE}`],
    { env: { INIT_CWD: WORKSPACE } },
  );
  if (result.status !== 0) throw new Error(`synth failed: ${result.stderr}${result.stdout}`);
  const path = join(out, 'ci.json');
  rendered = { path, render: JSON.parse(readFileSync(path, 'utf8')) as BootstrapRender };
  return rendered;
}

export function ofType(render: BootstrapRender, type: string): RenderedResource[] {
  return render.resources.filter((resource) => resource.type === type);
}

/** A value with synth's mock account and project number replaced by the live ones. */
function live<T>(value: T, number: string): T {
  return JSON.parse(JSON.stringify(value).replace(RENDER_NUMBER, number)) as T;
}

/** A list in another order: the clouds keep sets in their own. */
function reordered<T>(list: readonly T[] | undefined): T[] {
  return [...(list ?? [])].reverse();
}

/**
 * An IAM policy document as IAM answers it: URL-encoded, its statements and their actions in another
 * order, a one-element action list written as a string.
 */
export interface Statement {
  Sid?: string;
  Action?: string | string[];
  Condition?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface PolicyDocument {
  Version?: string;
  Statement: Statement[];
}

export function iamDocument(
  policy: unknown,
  account: string,
  edit?: (document: PolicyDocument) => void,
): string {
  const document = live(JSON.parse(String(policy)) as PolicyDocument, account);
  document.Statement = reordered([document.Statement].flat()).map((statement) => {
    const action = statement.Action;
    return {
      ...statement,
      ...(Array.isArray(action) ? { Action: action.length === 1 ? action[0] : reordered(action) } : {}),
    };
  });
  edit?.(document);
  return encodeURIComponent(JSON.stringify(document));
}

export interface AwsStubs {
  iam: AwsClientStub<IAMClient>;
  backup: AwsClientStub<BackupClient>;
}

/** IAM and AWS Backup answering for every CI role and vault lock of the render, in `account`. */
export function awsAsRendered(render: BootstrapRender, stubs: AwsStubs, account: string): void {
  const policies = ofType(render, 'aws:iam/policy:Policy');
  for (const role of ofType(render, 'aws:iam/role:Role')) {
    const name = String(role.inputs['name']);
    stubs.iam.on(GetRoleCommand, { RoleName: name }).resolves({
      Role: {
        RoleName: name,
        Arn: `arn:aws:iam::${account}:role/${name}`,
        Path: '/',
        RoleId: 'AROAEXAMPLE',
        CreateDate: new Date(),
        AssumeRolePolicyDocument: iamDocument(role.inputs['assumeRolePolicy'], account),
      },
    });
    const inline = ofType(render, 'aws:iam/rolePolicy:RolePolicy').filter(
      (each) => each.inputs['role'] === name,
    );
    stubs.iam
      .on(ListRolePoliciesCommand, { RoleName: name })
      .resolves({ PolicyNames: inline.map((each) => String(each.inputs['name'])) });
    for (const policy of inline) {
      stubs.iam
        .on(GetRolePolicyCommand, { RoleName: name, PolicyName: String(policy.inputs['name']) })
        .resolves({
          RoleName: name,
          PolicyName: String(policy.inputs['name']),
          PolicyDocument: iamDocument(policy.inputs['policy'], account),
        });
    }
    const attached = ofType(render, 'aws:iam/rolePolicyAttachment:RolePolicyAttachment')
      .filter((each) => each.inputs['role'] === name)
      .map((each) => live(String(each.inputs['policyArn']), account));
    stubs.iam.on(ListAttachedRolePoliciesCommand, { RoleName: name }).resolves({
      AttachedPolicies: attached.map((arn) => ({ PolicyArn: arn, PolicyName: arn.split('/').pop() })),
    });
  }
  for (const policy of policies) {
    const arn = `arn:aws:iam::${account}:policy/${policy.inputs['name']}`;
    stubs.iam
      .on(GetPolicyCommand, { PolicyArn: arn })
      .resolves({ Policy: { Arn: arn, DefaultVersionId: 'v3' } });
    stubs.iam.on(GetPolicyVersionCommand, { PolicyArn: arn, VersionId: 'v3' }).resolves({
      PolicyVersion: {
        VersionId: 'v3',
        IsDefaultVersion: true,
        Document: iamDocument(policy.inputs['policy'], account),
      },
    });
  }
  for (const lock of ofType(render, 'aws:backup/vaultLockConfiguration:VaultLockConfiguration')) {
    const vault = String(lock.inputs['backupVaultName']);
    stubs.backup.on(DescribeBackupVaultCommand, { BackupVaultName: vault }).resolves({
      BackupVaultName: vault,
      Locked: true,
      MinRetentionDays: Number(lock.inputs['minRetentionDays']),
      ...(lock.inputs['maxRetentionDays'] === undefined
        ? {}
        : { MaxRetentionDays: Number(lock.inputs['maxRetentionDays']) }),
      LockDate: new Date('2026-12-06T00:00:00Z'),
    });
  }
}

interface DenyRule {
  description?: string;
  denyRule: { deniedPermissions?: string[]; [key: string]: unknown };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The decoded URL a fake answers, exactly (FakeApi matches the decoded URL). */
export function exactly(url: string): RegExp {
  return new RegExp(`^${escaped(url)}$`);
}

/** The IAM answers of each custom role, deny policy and workload identity provider, for the CI project number given. */
export function googleAsRendered(render: BootstrapRender, google: FakeApi, number: string): void {
  for (const role of ofType(render, 'gcp:projects/iAMCustomRole:IAMCustomRole')) {
    const { project, roleId, permissions, title } = role.inputs;
    google.prefer(exactly(`https://iam.googleapis.com/v1/projects/${project}/roles/${roleId}`), {
      status: 200,
      body: {
        name: `projects/${project}/roles/${roleId}`,
        title,
        includedPermissions: reordered(permissions as string[]),
        stage: 'GA',
        etag: 'BwY=',
      },
    });
  }
  for (const policy of ofType(render, 'gcp:iam/denyPolicy:DenyPolicy')) {
    const parent = decodeURIComponent(String(policy.inputs['parent']));
    google.prefer(
      exactly(`https://iam.googleapis.com/v2/policies/${parent}/denypolicies/${policy.inputs['name']}`),
      {
        status: 200,
        body: {
          name: `policies/${policy.inputs['parent']}/denypolicies/${policy.inputs['name']}`,
          uid: 'a1b2',
          kind: 'DenyPolicy',
          rules: reordered(live(policy.inputs['rules'] as DenyRule[], number)).map((rule) => ({
            ...rule,
            denyRule: { ...rule.denyRule, deniedPermissions: reordered(rule.denyRule.deniedPermissions) },
          })),
        },
      },
    );
  }
  for (const provider of ofType(
    render,
    'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider',
  )) {
    const inputs = live(provider.inputs, number);
    google.prefer(
      exactly(
        `https://iam.googleapis.com/v1/projects/${inputs['project']}/locations/global/workloadIdentityPools/${inputs['workloadIdentityPoolId']}/providers/${inputs['workloadIdentityPoolProviderId']}`,
      ),
      {
        status: 200,
        body: {
          name: `projects/${number}/locations/global/workloadIdentityPools/${inputs['workloadIdentityPoolId']}/providers/${inputs['workloadIdentityPoolProviderId']}`,
          state: 'ACTIVE',
          attributeCondition: inputs['attributeCondition'],
          attributeMapping: inputs['attributeMapping'],
          oidc: inputs['oidc'],
        },
      },
    );
  }
}

/** The Resource Manager answers of each custom role definition and CI identity's federated credentials. */
export function azureAsRendered(render: BootstrapRender, azure: FakeApi, subscription: string): void {
  for (const definition of ofType(render, 'azure-native:authorization:RoleDefinition')) {
    const { scope, roleDefinitionId, roleName, permissions, assignableScopes } = definition.inputs;
    azure.prefer(
      new RegExp(
        `^${escaped(`https://management.azure.com${scope}/providers/Microsoft.Authorization/roleDefinitions/${roleDefinitionId}?`)}`,
      ),
      {
        status: 200,
        body: {
          id: `${scope}/providers/Microsoft.Authorization/roleDefinitions/${roleDefinitionId}`,
          name: roleDefinitionId,
          properties: {
            roleName,
            type: 'CustomRole',
            permissions: (permissions as Array<{ actions?: string[] }>).map((each) => ({
              ...each,
              actions: reordered(each.actions),
            })),
            assignableScopes: reordered(assignableScopes as string[]),
          },
        },
      },
    );
  }
  const credentials = ofType(render, 'azure-native:managedidentity:FederatedIdentityCredential');
  for (const identity of ofType(render, 'azure-native:managedidentity:UserAssignedIdentity')) {
    const { resourceGroupName: group, resourceName: name } = identity.inputs;
    azure.prefer(
      new RegExp(
        `^${escaped(`https://management.azure.com/subscriptions/${subscription}/resourceGroups/${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}/federatedIdentityCredentials?`)}`,
      ),
      {
        status: 200,
        body: {
          value: reordered(credentials.filter((each) => each.inputs['resourceName'] === name)).map(
            ({ inputs }) => ({
              id: `/subscriptions/${subscription}/resourceGroups/${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}/federatedIdentityCredentials/${inputs['federatedIdentityCredentialResourceName']}`,
              name: inputs['federatedIdentityCredentialResourceName'],
              properties: {
                issuer: inputs['issuer'],
                subject: inputs['subject'],
                audiences: inputs['audiences'],
              },
            }),
          ),
        },
      },
    );
  }
}
