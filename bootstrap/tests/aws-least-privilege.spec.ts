import { join } from 'node:path';
import { awsDeployRequests } from '@checkpoints/analysis';
import { ENVIRONMENTS } from '@checkpoints/config';
import {
  AWS_ACCOUNT_ID,
  renderStackFile,
  type RenderedResource,
  type StackProgram,
} from '@checkpoints/synth';
import { deployPolicy, splitDeployPolicy, type PolicyStatement } from '../src/aws/policies';
import { grantedActions } from './iam-data';

/**
 * Least privilege, judged by use: every right an AWS deploy role holds is one a deploy of the shipped AWS stack
 * asks for (the rights model's requests: the provider's calls per resource and operation, with what the APIs
 * demand besides), or it is below with why it stays. A right no deploy uses is one an attacker with the role
 * would have for free.
 */
const ROOT = join(__dirname, '..', '..');
const AWS_STACK = join(ROOT, 'stacks', 'aws-s3');
const ACCOUNT = { partition: 'aws', accountId: AWS_ACCOUNT_ID };
// Each case renders the AWS stack's shipped dev and prod configs: seconds, not milliseconds.
jest.setTimeout(120_000);

/** Rights a deploy role holds that no request of the shipped renders makes, each with the reason it stays. */
const KEPT_UNUSED: Readonly<Record<string, string>> = {
  // One wildcard for the provider's bucket reads (it reads more Get* than a fixed list would keep up with) keeps
  // the deploy role's inline policy under IAM's 10,240 characters; each of these reads bucket configuration,
  // never an object.
  's3:GetBucketAbac': 's3:GetBucket* (bucket configuration reads)',
  's3:GetBucketLocation': 's3:GetBucket* (bucket configuration reads)',
  's3:GetBucketMetadataTableConfiguration': 's3:GetBucket* (bucket configuration reads)',
  's3:GetBucketNotification': 's3:GetBucket* (bucket configuration reads)',
  's3:GetBucketPolicyStatus': 's3:GetBucket* (bucket configuration reads)',
  // The provider calls it when a role's permissions_boundary changes (terraform-provider-aws
  // internal/service/iam/role.go resourceRoleUpdate); the stacks never change one, and its condition allows only
  // the environment's own boundary, so a deploy can put it back on a role that lost it.
  'iam:PutRolePermissionsBoundary': "re-puts the environment's own boundary only",
  // Asked by no rights-model request: iam-simulate cannot evaluate AWS Backup's tag actions, whose every resource
  // type is optional (libs/analysis rights/aws.ts, the backup plan row). The provider tags and reads a plan's tags
  // with them (terraform-provider-aws internal/service/backup/plan.go).
  'backup:TagResource': "a backup plan's tags (not simulable)",
  'backup:UntagResource': "a backup plan's tags (not simulable)",
  'backup:ListTags': "a backup plan's tags (not simulable)",
};

function stackProgram(): StackProgram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const program = require(join(AWS_STACK, 'src', 'program')) as { checkpointStack: StackProgram };
  return program.checkpointStack;
}

/**
 * Every action a deploy of the shipped dev and prod renders asks for, as `ci-deploy-rights` judges a deploy:
 * protection is the environment's choice (a dev store is not protected), and a policy pack is not told which
 * resources are retained (CrossGuard's resource options carry `protect` but no `retainOnDelete`: @pulumi/policy
 * PolicyResourceOptions), so every resource counts as one a deploy may delete.
 */
async function usedActions(): Promise<Set<string>> {
  const resources: RenderedResource[] = [];
  for (const stack of ['dev', 'prod']) {
    resources.push(...(await renderStackFile(AWS_STACK, stack, stackProgram())).resources);
  }
  const unprotected = resources.map((resource) => ({ ...resource, protect: false, retainOnDelete: false }));
  return new Set(awsDeployRequests({ resources: unprotected }).map(({ action }) => action.toLowerCase()));
}

/** The actions a role's Allow statements grant, by Sid, but for those an unconditional deny on `*` takes. */
async function granted(statements: PolicyStatement[]): Promise<Map<string, string>> {
  const denies = statements.filter(
    (statement) =>
      statement.Effect === 'Deny' && statement.Condition === undefined && statement.Resource?.includes('*'),
  );
  const denied = new Set(
    (
      await grantedActions({
        Version: '2012-10-17',
        Statement: denies.map((deny) => ({ ...deny, Effect: 'Allow' })),
      })
    ).map(({ action }) => action),
  );
  const actions = new Map<string, string>();
  for (const { action, statement } of await grantedActions({
    Version: '2012-10-17',
    Statement: statements,
  })) {
    if (!denied.has(action)) actions.set(action, statement.Sid);
  }
  return actions;
}

function deployStatements(environment: (typeof ENVIRONMENTS)[number]): PolicyStatement[] {
  const { inline, managed } = splitDeployPolicy(deployPolicy(ACCOUNT, environment));
  return [...inline.Statement, ...managed.Statement];
}

describe('AWS deploy roles hold only what a deploy of the AWS stack uses', () => {
  let used: Set<string>;
  beforeAll(async () => {
    // The dev render warns that it has no audit output; nothing here reads the warnings.
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    used = await usedActions().finally(() => warn.mockRestore());
  });

  it.each(ENVIRONMENTS)(
    'deploy-%s: every right is asked for by a deploy, or kept for a stated reason',
    async (environment) => {
      const unused = [...(await granted(deployStatements(environment)))]
        .filter(([action]) => !used.has(action.toLowerCase()) && KEPT_UNUSED[action] === undefined)
        .map(([action, sid]) => `${sid} ${action}`);
      expect(unused).toEqual([]);
    },
  );

  it('keeps no reason for a right a deploy uses, or that no role holds any more', async () => {
    const held = new Set<string>();
    for (const environment of ENVIRONMENTS) {
      for (const action of (await granted(deployStatements(environment))).keys()) held.add(action);
    }
    const stale = Object.keys(KEPT_UNUSED).filter(
      (action) => used.has(action.toLowerCase()) || !held.has(action),
    );
    expect(stale).toEqual([]);
  });

  it('would see a right no deploy uses', async () => {
    const statements = deployStatements('dev');
    statements.push({ Sid: 'Extra', Effect: 'Allow', Action: ['s3:PutBucketWebsite'], Resource: ['*'] });
    const unused = [...(await granted(statements))].filter(([action]) => !used.has(action.toLowerCase()));
    expect(unused.map(([action]) => action)).toContain('s3:PutBucketWebsite');
  });
});
