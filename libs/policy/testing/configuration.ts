/** Spec fixtures of the configuration-write rules: a prod Azure store with its spec, and CI's bootstrap render. */
import type { ResourceUnderTest } from '.';
import { azureStore, bootstrapResource, CUSTOM, GROUP, ROLE } from './access';

const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
const CI_DEPLOY_PROD = '10000000-0000-4000-8000-000000000003';

/** A prod Azure store whose spec promises 14 days of soft delete, and has it. */
export function azureProdStore(dataClassification = 'confidential'): ResourceUnderTest[] {
  const [component, account, container] = azureStore('prod');
  return [
    {
      ...component!,
      props: {
        tier: 'standard',
        retention: { softDeleteDays: 14, noncurrentExpireDays: 0, expireAfterDays: 0 },
      },
    },
    {
      ...account!,
      props: {
        ...account!.props,
        isHnsEnabled: true,
        tags: { environment: 'prod', 'data-classification': dataClassification },
      },
    },
    container!,
    {
      type: 'azure-native:storage:BlobServiceProperties',
      name: 'ckpt-blob',
      parent: account!.parent,
      props: {
        accountName: 'ckptacct',
        resourceGroupName: 'rg-prod',
        deleteRetentionPolicy: { enabled: true, days: 14 },
      },
    },
  ];
}

/** What CI's prod deploy role holds in the store's group: the writes a deploy of the store makes. */
export const AZURE_DEPLOY_WRITES = [
  'Microsoft.Storage/storageAccounts/managementPolicies/write',
  'Microsoft.Storage/storageAccounts/blobServices/write',
  'Microsoft.Insights/diagnosticSettings/write',
];

/**
 * The bootstrap render: CI's prod deploy role with `actions` on rg-prod and, unless left out, the Azure
 * Policy deny assignments the bootstrap makes there (bootstrap/src/azure/guardrails.ts).
 */
export function azureBootstrap(actions: readonly string[], guards: ('soft-delete' | 'diagnostics')[]) {
  const resource = bootstrapResource;
  const definitionId = (name: string) =>
    `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/policyDefinitions/${name}`;
  const softDelete = [
    resource('azure-native:authorization:PolicyDefinition', 'soft-delete-floor-prod', {
      policyDefinitionName: 'checkpoints-soft-delete-floor-prod',
      policyRule: {
        if: {
          field: 'Microsoft.Storage/storageAccounts/blobServices/default.deleteRetentionPolicy.days',
          less: "[parameters('minimumDays')]",
        },
        then: { effect: 'deny' },
      },
    }),
    resource('azure-native:authorization:PolicyAssignment', 'soft-delete-floor-prod', {
      policyDefinitionId: definitionId('checkpoints-soft-delete-floor-prod'),
      scope: GROUP('prod'),
      parameters: { minimumDays: { value: 14 } },
    }),
  ];
  const diagnostics = [
    resource('azure-native:authorization:PolicyDefinition', 'diagnostic-settings-kept-prod', {
      policyDefinitionName: 'checkpoints-blob-audit-kept-prod',
      policyRule: {
        if: { field: 'Microsoft.Insights/diagnosticSettings/logs[*].enabled', equals: false },
        then: { effect: 'deny' },
      },
    }),
    resource('azure-native:authorization:PolicyAssignment', 'diagnostic-settings-kept-prod', {
      policyDefinitionId: definitionId('checkpoints-blob-audit-kept-prod'),
      scope: GROUP('prod'),
    }),
  ];
  return {
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: [
      resource('azure-native:authorization:RoleDefinition', 'custom', {
        roleDefinitionId: CUSTOM,
        roleName: 'custom',
        permissions: [{ actions: [...actions] }],
      }),
      resource('azure-native:authorization:RoleAssignment', 'deploy-prod-0', {
        principalId: CI_DEPLOY_PROD,
        description: 'CI deploy-prod of acme/checkpoint-storage',
        roleDefinitionId: ROLE(CUSTOM),
        scope: GROUP('prod'),
      }),
      ...(guards.includes('soft-delete') ? softDelete : []),
      ...(guards.includes('diagnostics') ? diagnostics : []),
    ],
  };
}

const AWS_STORE_URN = 'urn:pulumi:test::spec::checkpoints:aws:CheckpointStore::ckpt';

/** A prod S3 store whose spec promises 7 days of previous versions, with its Object Lock unless `lockDays` is undefined. */
export function awsProdStore(lockDays: number | undefined): ResourceUnderTest[] {
  const own = (type: string, name: string, props: Record<string, unknown>): ResourceUnderTest => ({
    type,
    name,
    parent: AWS_STORE_URN,
    props,
  });
  return [
    {
      type: 'checkpoints:aws:CheckpointStore',
      name: 'ckpt',
      props: { tier: 'standard', retention: { noncurrentExpireDays: 7, keepNoncurrentVersions: 3 } },
    },
    own('aws:s3/bucket:Bucket', 'ckpt-bucket', { bucket: 'ckpt-bucket', tags: { environment: 'prod' } }),
    own('aws:s3/bucketVersioning:BucketVersioning', 'ckpt-versioning', {
      bucket: 'ckpt-bucket',
      versioningConfiguration: { status: 'Enabled' },
    }),
    ...(lockDays === undefined
      ? []
      : [
          own('aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration', 'ckpt-retention-lock', {
            bucket: 'ckpt-bucket',
            objectLockEnabled: 'Enabled',
            rule: { defaultRetention: { mode: 'GOVERNANCE', days: lockDays } },
          }),
        ]),
  ];
}

/** The bootstrap render: CI's prod deploy role, allowed the bucket writes a deploy of the store makes. */
export function awsBootstrap() {
  const resource = bootstrapResource;
  return {
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: [
      resource('aws:iam/role:Role', 'deploy-prod', { name: 'ci-deploy-prod' }),
      resource('aws:iam/rolePolicy:RolePolicy', 'deploy-prod-permissions', {
        role: 'ci-deploy-prod',
        name: 'checkpoint-stacks',
        policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Sid: 'ManageStackBuckets',
              Effect: 'Allow',
              Action: ['s3:PutLifecycleConfiguration', 's3:PutBucketVersioning'],
              Resource: 'arn:aws:s3:::ckpt-*',
            },
          ],
        }),
      }),
    ],
  };
}
