/**
 * Weakening edits of the AWS renders (the shipped bootstrap and the aws-s3 prod stack), each of which the
 * pack must refuse: a mandatory verdict naming the identity, the path (the policy, statement, trust path or
 * store) and the permission. A mutation the pack lets through is a failing test, not a documented limit.
 */
import { analyzeAccess } from '@checkpoints/analysis';
import {
  addResource,
  copyOf,
  editDocument,
  mandatoryVerdicts,
  resourceOf,
  synthRenders,
  verdictLines,
  type Renders,
} from '../testing/mutations';

const ACCOUNT = '123456789012';
const REPOSITORY = 'acme/checkpoint-storage';
const ROLE = 'aws:iam/role:Role';
const ROLE_POLICY = 'aws:iam/rolePolicy:RolePolicy';
const SUB = 'token.actions.githubusercontent.com:sub';

let shipped: Renders;

beforeAll(() => {
  shipped = synthRenders('aws-s3', 'prod');
}, 240_000);

type Statement = Record<string, unknown>;

/**
 * Edits the statements a CI role holds: its inline policy (`<purpose>-permissions`) and, for a deploy role, its
 * managed one (`<purpose>-service-roles`), as one list; a statement stays where it was, a new one goes inline.
 */
function ciPolicy(renders: Renders, purpose: string, edit: (statements: Statement[]) => void): void {
  const managed = renders.bootstrap.resources.find(
    (r) => r.type === 'aws:iam/policy:Policy' && r.name === `${purpose}-service-roles`,
  );
  const managedDocument = managed
    ? (JSON.parse(String(managed.inputs['policy'])) as { Statement: Statement[] })
    : undefined;
  editDocument(resourceOf(renders.bootstrap, ROLE_POLICY, `${purpose}-permissions`), 'policy', (document) => {
    const inline = new Set(document.Statement);
    const all = [...document.Statement, ...(managedDocument?.Statement ?? [])];
    const fromManaged = new Set(managedDocument?.Statement ?? []);
    edit(all);
    document.Statement = all.filter((statement) => inline.has(statement) || !fromManaged.has(statement));
    if (managed && managedDocument) {
      managed.inputs['policy'] = JSON.stringify({
        ...managedDocument,
        Statement: all.filter((statement) => fromManaged.has(statement)),
      });
    }
  });
}

function ciTrust(renders: Renders, purpose: string, edit: (statement: Statement) => void): void {
  editDocument(resourceOf(renders.bootstrap, ROLE, purpose), 'assumeRolePolicy', (document) =>
    edit(document.Statement[0]!),
  );
}

function sid(statements: Statement[], name: string): Statement {
  const found = statements.find((statement) => statement['Sid'] === name);
  if (!found) throw new Error(`no statement ${name}`);
  return found;
}

interface Mutation {
  name: string;
  mutate(renders: Renders): void;
  /** The rule that must refuse it, and what its message must name (identity, path, permission). */
  policy: string;
  names: string[];
}

const MUTATIONS: Mutation[] = [
  {
    name: "a widened action: the prod deploy role's key statement gains kms:PutKeyPolicy",
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        const keys = sid(statements, 'ManageStackKeys');
        keys['Action'] = [...(keys['Action'] as string[]), 'kms:PutKeyPolicy'];
      }),
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      'key llm-pretrain-key',
      'kms:PutKeyPolicy',
      'policy checkpoint-stacks ManageStackKeys',
    ],
  },
  {
    name: 'a customer managed policy attached to the prod deploy role, writing CI roles',
    mutate: (renders) => {
      addResource(renders.bootstrap, 'aws:iam/policy:Policy', 'extra', {
        name: 'extra',
        policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Sid: 'RewriteCi',
              Effect: 'Allow',
              Action: 'iam:AttachRolePolicy',
              Resource: `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-*`,
            },
          ],
        }),
      });
      addResource(
        renders.bootstrap,
        'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
        'deploy-prod-extra',
        {
          role: 'checkpoints-ci-deploy-prod',
          policyArn: `arn:aws:iam::${ACCOUNT}:policy/extra`,
        },
      );
    },
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      'ci preview',
      'iam:AttachRolePolicy',
      `attachment deploy-prod-extra arn:aws:iam::${ACCOUNT}:policy/extra RewriteCi`,
    ],
  },
  {
    name: "an AWS-managed policy ARN in the preview role's managedPolicyArns",
    mutate: (renders) => {
      resourceOf(renders.bootstrap, ROLE, 'preview').inputs['managedPolicyArns'] = [
        'arn:aws:iam::aws:policy/PowerUserAccess',
      ];
    },
    policy: 'ci-cannot-change-ci',
    names: [
      'ci preview',
      'iam:PutRolePolicy',
      'managedPolicyArns arn:aws:iam::aws:policy/PowerUserAccess AwsManagedPolicyNotInTheRenderTakenToAllowEverything',
    ],
  },
  {
    name: 'iam:Put* on role/checkpoints-ci-* in the dev deploy role',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-dev', (statements) => {
        statements.push({
          Sid: 'PutCi',
          Effect: 'Allow',
          Action: 'iam:Put*',
          Resource: `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-*`,
        });
      }),
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-dev',
      `ci deploy-prod (arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-deploy-prod)`,
      'iam:PutRolePolicy',
      'PutCi',
    ],
  },
  {
    name: "a region-limited deny: the prod deploy role's break-glass deny holds in us-east-1 only",
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        sid(statements, 'BreakGlassOnlyInProd')['Condition'] = {
          StringEquals: { 'aws:RequestedRegion': 'us-east-1' },
        };
      }),
    policy: 'ci-prod-no-destroy',
    names: ['ci deploy-prod', 'on the replica', 'kms:ScheduleKeyDeletion', 'ManageStackKeys'],
  },
  {
    name: 'the prod deploy role trusting pull requests',
    mutate: (renders) =>
      ciTrust(renders, 'deploy-prod', (statement) => {
        const condition = statement['Condition'] as Record<string, Record<string, unknown>>;
        condition['StringEquals']![SUB] = [
          `repo:${REPOSITORY}:environment:prod`,
          `repo:${REPOSITORY}:pull_request`,
        ];
      }),
    policy: 'ci-trust-pull-requests-preview-only',
    names: ['ci deploy-prod', 'trust policy statement #1', `sub repo:${REPOSITORY}:pull_request`],
  },
  {
    name: 'a wildcard repository in the dev deploy role’s trust (StringLike)',
    mutate: (renders) =>
      ciTrust(renders, 'deploy-dev', (statement) => {
        const condition = statement['Condition'] as Record<string, Record<string, unknown>>;
        delete condition['StringEquals']![SUB];
        condition['StringLike'] = { [SUB]: 'repo:acme/*:environment:dev' };
      }),
    policy: 'ci-trust-this-repository',
    names: ['ci deploy-dev', 'trust policy statement #1', 'sub repo:acme/another-repository:environment:dev'],
  },
  {
    name: 'a condition flipped: the prod deploy role trusts every subject but its own (StringNotEquals)',
    mutate: (renders) =>
      ciTrust(renders, 'deploy-prod', (statement) => {
        const condition = statement['Condition'] as Record<string, Record<string, unknown>>;
        condition['StringNotEquals'] = { [SUB]: condition['StringEquals']![SUB] };
        delete condition['StringEquals']![SUB];
      }),
    policy: 'ci-trust-own-environment',
    names: ['ci deploy-prod', 'trust policy statement #1', `sub repo:${REPOSITORY}:environment:dev`],
  },
  {
    name: "the prod deploy role's policy unknown, as on a first preview",
    mutate: (renders) => {
      resourceOf(renders.bootstrap, ROLE_POLICY, 'deploy-prod-permissions').inputs['policy'] = '[unknown]';
    },
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      'iam:UpdateAssumeRolePolicy',
      'policy checkpoint-stacks UnknownPolicyTakenToAllowEverything',
    ],
  },
  {
    name: 'the listing exemption back to a name pattern, and the deploy role may again create a role so named',
    mutate: (renders) => {
      editDocument(
        resourceOf(renders.stack, 'aws:s3/bucketPolicy:BucketPolicy', 'llm-pretrain-policy'),
        'policy',
        (document) => {
          const listing = sid(document.Statement, 'DenyListingOutsidePerimeter');
          const condition = listing['Condition'] as Record<string, Record<string, unknown>>;
          const exempt = condition['ArnNotEqualsIfExists']!;
          delete condition['ArnNotEqualsIfExists'];
          condition['ArnNotLikeIfExists'] = {
            'aws:PrincipalArn': [
              ...[exempt['aws:PrincipalArn']].flat(),
              `arn:aws:iam::${ACCOUNT}:role/checkpoints-*-preview`,
            ],
          };
        },
      );
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'NoRolesNamedLikeCi')), 1);
      });
    },
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      `a role the perimeter exempts (arn:aws:iam::${ACCOUNT}:role/checkpoints-*-preview)`,
      'iam:CreateRole',
      'ManageBoundedStackRoles',
    ],
  },
  {
    name: "a dead deny: the prod deploy role may again rewrite the replication role's trust, which the perimeter exempts",
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'KeepReplicationRolesS3Only')), 1);
      }),
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      `a role the perimeter exempts (arn:aws:iam::${ACCOUNT}:role/checkpoints-aws-prod-llm-pretrain-replication-`,
      'iam:UpdateAssumeRolePolicy',
      'ManageBoundedStackRoles',
    ],
  },
  {
    name: "a dead deny: the prod deploy role may again rewrite the backup role's trust, which the perimeter exempts",
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'KeepBackupRolesAwsBackupOnly')), 1);
      }),
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      `a role the perimeter exempts (arn:aws:iam::${ACCOUNT}:role/checkpoints-aws-prod-llm-pretrain-backup-`,
      'iam:UpdateAssumeRolePolicy',
      'ManageBoundedStackRoles',
    ],
  },
  {
    name: 'a hurried narrowing: the replication-role deny keeps the trust but lets the role be deleted and re-created',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        const keep = sid(statements, 'KeepReplicationRolesS3Only');
        keep['Action'] = [keep['Action']].flat().filter((action) => action !== 'iam:DeleteRole');
      }),
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-prod',
      'a role the perimeter exempts',
      'replication',
      'iam:DeleteRole',
      'ManageBoundedStackRoles',
    ],
  },
  {
    name: 'a KMS grant on the store key letting the preview role create grants',
    mutate: (renders) => {
      const key = renders.stack.resources.find(
        (resource) => resource.type === 'aws:kms/key:Key' && resource.name === 'llm-pretrain-key',
      )!;
      addResource(
        renders.stack,
        'aws:kms/grant:Grant',
        'llm-pretrain-preview-grant',
        {
          keyId: '[unknown]',
          granteePrincipal: `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-preview`,
          operations: ['CreateGrant', 'DescribeKey'],
        },
        key.parent,
      );
    },
    policy: 'ci-cannot-change-ci',
    names: [
      'ci preview',
      'key llm-pretrain-key',
      'kms:CreateGrant',
      'key policy KmsGrantllmpretrainpreviewgrant',
    ],
  },
  {
    name: 'an IAM resource type the model does not know naming a CI role (an instance profile)',
    mutate: (renders) => {
      addResource(renders.bootstrap, 'aws:iam/instanceProfile:InstanceProfile', 'runner', {
        role: 'checkpoints-ci-deploy-dev',
      });
    },
    policy: 'ci-cannot-change-ci',
    names: [
      'ci deploy-dev',
      'iam:PutRolePolicy',
      'aws:iam/instanceProfile:InstanceProfile runner GrantTypeNotModelledTakenToAllowEverything',
    ],
  },
  {
    name: "a dead data guard: the prod deploy role's object and key denies gone, object reads and decryption allowed",
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        for (const guard of [
          'NeverTouchCheckpointData',
          'KeysOnlyThroughS3Express',
          'KeysOnlyForStackDirectoryBuckets',
        ])
          statements.splice(statements.indexOf(sid(statements, guard)), 1);
        const buckets = sid(statements, 'ManageStackBuckets');
        buckets['Action'] = [...(buckets['Action'] as string[]), 's3:GetObject'];
        buckets['Resource'] = [...(buckets['Resource'] as string[]), `arn:aws:s3:::checkpoints-aws-prod-*/*`];
        const keys = sid(statements, 'ManageStackKeys');
        keys['Action'] = [...(keys['Action'] as string[]), 'kms:Decrypt'];
      }),
    policy: 'ci-no-data-access',
    names: [
      'ci deploy-prod',
      'can read checkpoint data',
      's3:GetObject: policy checkpoint-stacks ManageStackBuckets',
    ],
  },
  {
    name: 'the directory-bucket key exception without its kms:ViaService pin: the prod deploy role may call KMS with the store key itself',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'KeysOnlyThroughS3Express')), 1);
        const pinned = sid(statements, 'SetDirectoryBucketKeys')['Condition'] as Record<
          string,
          Record<string, unknown>
        >;
        delete pinned['StringLike']?.['kms:ViaService'];
      }),
    policy: 'ci-no-data-access',
    names: [
      'ci deploy-prod',
      'can use a store key',
      'kms:Decrypt: policy checkpoint-stacks SetDirectoryBucketKeys',
    ],
  },
  {
    name: 'a read-only data session for the prod deploy role: with the key exception, S3 Express decrypts the Express store for it',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'NeverOpenDataSessions')), 1);
        statements.push({
          Sid: 'OpenReadOnlyDirectoryBucketSessions',
          Effect: 'Allow',
          Action: ['s3express:CreateSession'],
          Resource: ['arn:aws:s3express:*:123456789012:bucket/checkpoints-aws-prod-*--x-s3'],
          Condition: { StringEquals: { 's3express:SessionMode': 'ReadOnly' } },
        });
      }),
    policy: 'ci-no-data-access',
    names: [
      'ci deploy-prod',
      'can read checkpoint data',
      's3express:CreateSession: policy checkpoint-stacks OpenReadOnlyDirectoryBucketSessions',
      'kms:Decrypt: policy checkpoint-stacks SetDirectoryBucketKeys',
    ],
  },
  {
    name: 'a deny made conditional on a key the analysis cannot see (a principal tag): it may not apply',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        sid(statements, 'BreakGlassOnlyInProd')['Condition'] = {
          StringNotEquals: { 'aws:PrincipalTag/break-glass': 'true' },
        };
      }),
    policy: 'ci-prod-no-destroy',
    names: [
      'ci deploy-prod',
      'can destroy a key in prod',
      'kms:ScheduleKeyDeletion',
      'deny BreakGlassOnlyInProd taken not to apply',
    ],
  },
  {
    name: 'the prod release store without its replica (a locked store in one region)',
    mutate: (renders) => {
      const replica = resourceOf(renders.stack, 'aws:s3/bucket:Bucket', 'llm-releases-replica-bucket').parent;
      renders.stack.resources = renders.stack.resources.filter(
        (resource) => resource.urn !== replica && resource.parent !== replica,
      );
    },
    policy: 'releases-replicated-in-prod',
    names: ['store llm-releases', 'released checkpoints with no replica', 'releases-replicated (AWS)'],
  },
  {
    name: 'the prod store bucket without its GuardDuty malware protection plan',
    mutate: (renders) => {
      const plan = resourceOf(
        renders.stack,
        'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan',
        'llm-pretrain-malware-scan',
      );
      renders.stack.resources = renders.stack.resources.filter((resource) => resource !== plan);
    },
    policy: 'aws-s3-malware-protection',
    names: ['store llm-pretrain', 'no GuardDuty malware protection plan', 'malware-scan (AWS)'],
  },
  {
    name: "the malware-scan role's trust naming the prod deploy role beside GuardDuty: no longer admitted through the perimeter",
    mutate: (renders) =>
      editDocument(
        resourceOf(renders.stack, ROLE, 'llm-pretrain-malware-scan'),
        'assumeRolePolicy',
        (document) => {
          document.Statement[0]!['Principal'] = {
            Service: ['malware-protection-plan.guardduty.amazonaws.com'],
            AWS: [`arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-deploy-prod`],
          };
        },
      ),
    policy: 'aws-s3-network-perimeter',
    names: ['store llm-pretrain', 'malware-scan can read from the internet', 's3:GetObject'],
  },
  {
    name: "a dead guard: the prod deploy role's KeepMalwareScanRolesGuardDutyOnly deny gone, the malware-scan role's trust rewritable",
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'KeepMalwareScanRolesGuardDutyOnly')), 1);
      }),
    policy: 'ci-cannot-change-ci',
    names: ['ci deploy-prod', 'a role the perimeter exempts', 'malware-scan', 'iam:UpdateAssumeRolePolicy'],
  },
  {
    name: 'CI assuming the malware-scan role: its trust names the prod deploy role and the deploy role may assume roles',
    mutate: (renders) => {
      editDocument(
        resourceOf(renders.stack, ROLE, 'llm-pretrain-malware-scan'),
        'assumeRolePolicy',
        (document) => {
          document.Statement.push({
            Sid: 'DeployRoleToo',
            Effect: 'Allow',
            Principal: { AWS: `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-deploy-prod` },
            Action: 'sts:AssumeRole',
          });
        },
      );
      ciPolicy(renders, 'deploy-prod', (statements) => {
        statements.splice(statements.indexOf(sid(statements, 'NeverActAsAnotherRole')), 1);
        statements.push({
          Sid: 'AssumeStackRoles',
          Effect: 'Allow',
          Action: 'sts:AssumeRole',
          Resource: `arn:aws:iam::${ACCOUNT}:role/checkpoints-aws-prod-*`,
        });
      });
    },
    policy: 'ci-no-escalation',
    names: ['ci deploy-prod', 'can assume malware-scan', 'DeployRoleToo'],
  },
  {
    name: 'a new grant type: an S3 access point with its own policy on a prod bucket',
    mutate: (renders) =>
      addResource(renders.stack, 'aws:s3/accessPoint:AccessPoint', 'llm-pretrain-shared', {
        bucket: 'checkpoints-aws-prod-llm-pretrain',
        policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: '*' }],
        }),
      }),
    policy: 'ci-no-data-access',
    names: [
      'store llm-pretrain (prod)',
      'can read',
      'aws:s3/accessPoint:AccessPoint llm-pretrain-shared',
      'is a grant type the access analysis does not read',
    ],
  },
  {
    name: 'a new grant type in the bootstrap: Lake Formation permissions for the deploy role',
    mutate: (renders) =>
      addResource(renders.bootstrap, 'aws:lakeformation/permissions:Permissions', 'deploy-prod-lake', {
        principal: `arn:aws:iam::${ACCOUNT}:role/checkpoints-ci-deploy-prod`,
        permissions: ['ALL'],
      }),
    policy: 'ci-no-data-access',
    names: [
      'can write',
      'aws:lakeformation/permissions:Permissions deploy-prod-lake',
      'is a grant type the access analysis does not read',
    ],
  },
  {
    name: 'a lifted copy guard: the prod deploy role may delete recovery points (NeverLiftIndependentCopies loses it, a statement allows it)',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        const guard = sid(statements, 'NeverLiftIndependentCopies');
        guard['Action'] = (guard['Action'] as string[]).filter((a) => a !== 'backup:DeleteRecoveryPoint');
        statements.push({
          Sid: 'CleanUpBackups',
          Effect: 'Allow',
          Action: ['backup:DeleteRecoveryPoint'],
          Resource: [`arn:aws:backup:*:${ACCOUNT}:recovery-point:*`],
        });
      }),
    policy: 'ci-prod-no-destroy',
    names: [
      'ci deploy-prod',
      'can lift the independent copy in AWS Backup vault checkpoints-aws-prod-backup-',
      'backup:DeleteRecoveryPoint',
      'CleanUpBackups',
    ],
  },
  {
    name: 'a lifted copy guard on an identity with no lifecycle right: the preview role may delete recovery points',
    mutate: (renders) =>
      ciPolicy(renders, 'preview', (statements) => {
        const guard = sid(statements, 'NeverLiftIndependentCopies');
        guard['Action'] = (guard['Action'] as string[]).filter((a) => a !== 'backup:DeleteRecoveryPoint');
        statements.push({
          Sid: 'PruneBackups',
          Effect: 'Allow',
          Action: ['backup:DeleteRecoveryPoint'],
          Resource: [`arn:aws:backup:*:${ACCOUNT}:recovery-point:*`],
        });
      }),
    policy: 'ci-prod-no-destroy',
    names: ['ci preview', 'can lift the independent copy', 'backup:DeleteRecoveryPoint', 'PruneBackups'],
  },
  {
    name: 'an unlockable vault: the prod deploy role may delete the vault lock during its cooling-off',
    mutate: (renders) =>
      ciPolicy(renders, 'deploy-prod', (statements) => {
        const guard = sid(statements, 'NeverLiftIndependentCopies');
        guard['Action'] = (guard['Action'] as string[]).filter(
          (a) => a !== 'backup:DeleteBackupVaultLockConfiguration',
        );
        statements.push({
          Sid: 'ManageVaultLocks',
          Effect: 'Allow',
          Action: ['backup:DeleteBackupVaultLockConfiguration'],
          Resource: [`arn:aws:backup:*:${ACCOUNT}:backup-vault:*`],
        });
      }),
    policy: 'ci-prod-no-destroy',
    names: ['ci deploy-prod', 'backup:DeleteBackupVaultLockConfiguration', 'ManageVaultLocks'],
  },
  {
    name: "the prod backup vault's lock gone from the bootstrap render",
    mutate: (renders) => {
      renders.bootstrap.resources = renders.bootstrap.resources.filter(
        (resource) => resource.name !== 'backup-vault-lock-prod',
      );
    },
    policy: 'ci-prod-no-destroy',
    names: [
      'ci deploy-prod',
      'no vault lock in compliance mode is rendered for vault checkpoints-aws-prod-backup-',
    ],
  },
  {
    name: "the prod backup vault's lock in governance mode (no cooling-off: removable at any time)",
    mutate: (renders) => {
      const lock = resourceOf(
        renders.bootstrap,
        'aws:backup/vaultLockConfiguration:VaultLockConfiguration',
        'backup-vault-lock-prod',
      );
      delete lock.inputs['changeableForDays'];
    },
    policy: 'ci-prod-no-destroy',
    names: ['ci deploy-prod', 'faces no independent copy although the spec promises 14 days'],
  },
];

describe('AWS mutations of the bootstrap and aws-s3 prod renders', () => {
  it('the shipped renders pass', async () => {
    expect(verdictLines(await mandatoryVerdicts(copyOf(shipped)))).toEqual([]);
  }, 120_000);

  it.each(MUTATIONS.map((mutation) => [mutation.name, mutation] as const))(
    'refuses %s',
    async (_name, mutation) => {
      const renders = copyOf(shipped);
      mutation.mutate(renders);
      const verdicts = await mandatoryVerdicts(renders);
      const caught = verdicts.filter(
        (verdict) =>
          verdict.policy === mutation.policy &&
          mutation.names.every((name) => verdict.message.includes(name)),
      );
      if (caught.length === 0) {
        throw new Error(
          `not refused by ${mutation.policy} naming ${mutation.names.join(' | ')}; mandatory verdicts:\n${verdictLines(verdicts).join('\n')}`,
        );
      }
    },
    120_000,
  );
});

describe("llm-pretrain's independent copy in the shipped prod renders, as the access model replays it", () => {
  const pretrain = async () => {
    const renders = copyOf(shipped);
    const analysis = await analyzeAccess(renders.stack, renders.bootstrap);
    return analysis.stores.find((store) => store.store === 'llm-pretrain')!.grants;
  };

  it("a CI lifecycle write leaves every checkpoint recoverable from the copy for the vault lock's 7 days", async () => {
    const grants = await pretrain();
    const [write, ...others] = grants.filter(
      (grant) =>
        grant.principal.label === 'ci deploy-prod' &&
        grant.operation === 'destroy-by-config' &&
        !grant.reason.startsWith('on the replica'),
    );
    expect(others).toEqual([]);
    expect(write?.reason).toMatch(
      /every checkpoint still recoverable from the independent copy \(AWS Backup vault checkpoints-aws-prod-backup-[0-9a-f]{6}\) for 7 days after the write/,
    );
    // The copy holds old checkpoints as well as fresh ones: none is gone before the copy's 7 days.
    expect(write?.configuration?.guardedGoneAfterDays).toBeGreaterThanOrEqual(7);
    expect(write?.configuration?.copy).toMatchObject({ days: 7, promisedDays: 14, lifts: [] });
  }, 120_000);

  it('the backup role reads the store, and no CI identity can act as it', async () => {
    const grants = await pretrain();
    const backup = grants.filter((grant) => grant.principal.label === 'backup');
    expect(backup.map((grant) => grant.operation).sort()).toEqual(['read']);
    const ciActAs = grants.filter(
      (grant) => grant.principal.kind.startsWith('ci-') && grant.operation === 'act-as',
    );
    expect(ciActAs).toEqual([]);
  }, 120_000);
});
