import { violationsOf } from '../../../testing';
import { azureStorageAuditImmutable } from './azure-storage-audit-immutable';
import { withBootstrapRender } from '../../../testing/access';
import { accountProps } from '../../../testing/azure';
import { T } from './support';

const ARCHIVE_ID =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-checkpoints-audit-prod/providers/Microsoft.Storage/storageAccounts/ckptauditprod1ce99f';
const STORE = 'urn:pulumi:test::spec::checkpoints:azure:CheckpointStore::llm-pretrain';
const ACCOUNT_ID =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-checkpoints-prod/providers/Microsoft.Storage/storageAccounts/prodllmpretrain4ba09a';

/** A prod store whose blob diagnostic setting sends to the workspace and, given one, to `archive`. */
function store(archive?: string) {
  return [
    {
      type: 'checkpoints:azure:CheckpointStore',
      name: 'llm-pretrain',
      props: { tier: 'standard', audit: true },
    },
    { type: T.storageAccount, name: 'llm-pretrain', parent: STORE, props: accountProps() },
    {
      type: T.diagnosticSetting,
      name: 'llm-pretrain-audit-blob',
      parent: STORE,
      props: {
        name: 'checkpoints-audit',
        resourceUri: `${ACCOUNT_ID}/blobServices/default`,
        workspaceId: 'workspace',
        ...(archive ? { storageAccountId: archive } : {}),
        logs: ['StorageRead', 'StorageWrite', 'StorageDelete'].map((category) => ({
          category,
          enabled: true,
        })),
      },
    },
  ];
}

const resource = (type: string, name: string, inputs: Record<string, unknown>) => ({
  urn: `urn:pulumi:ci::checkpoints-bootstrap::${type}::${name}`,
  type,
  name,
  custom: true,
  parent: null,
  protect: true,
  retainOnDelete: true,
  dependsOn: [],
  propertyDependencies: {},
  inputs,
});

/** The bootstrap's archive, with the immutability given, and its deletion lock unless `unlocked`. */
function bootstrapOf(immutability: Record<string, unknown> | undefined, unlocked = false) {
  const archive = resource(T.storageAccount, 'audit-archive-prod', {
    accountName: 'ckptauditprod1ce99f',
    ...(immutability ? { immutableStorageWithVersioning: immutability } : {}),
  });
  const lock = {
    ...resource('azure-native:authorization:ManagementLockByScope', 'audit-archive-prod-lock', {
      scope: ARCHIVE_ID,
      level: 'CanNotDelete',
    }),
    propertyDependencies: { scope: [archive.urn] },
  };
  return withBootstrapRender({
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: [archive, ...(unlocked ? [] : [lock])],
  });
}

const WRITE_ONCE = {
  enabled: true,
  immutabilityPolicy: { immutabilityPeriodSinceCreationInDays: 365, allowProtectedAppendWrites: true },
};

async function violations(archive: string | undefined, bootstrap: ReturnType<typeof bootstrapOf>) {
  try {
    return await violationsOf(azureStorageAuditImmutable, store(archive), {}, bootstrap.path);
  } finally {
    bootstrap.remove();
  }
}

describe('azure-storage-audit-immutable', () => {
  it("passes a prod store whose logs also go to the bootstrap's locked, write-once archive", async () => {
    expect(await violations(ARCHIVE_ID, bootstrapOf(WRITE_ONCE))).toEqual([]);
  });

  it('flags a store whose logs go to the workspace only', async () => {
    expect(await violations(undefined, bootstrapOf(WRITE_ONCE))).toEqual([
      'store llm-pretrain: the resource logs go to no storage account (a workspace only) (checkpoints audit-immutable (Azure))',
    ]);
  });

  it('flags an archive that is not write-once, refuses appends, or has no deletion lock', async () => {
    expect(await violations(ARCHIVE_ID, bootstrapOf(undefined))).toEqual([
      'store llm-pretrain: ckptauditprod1ce99f has no account-level immutability policy (checkpoints audit-immutable (Azure))',
    ]);
    expect(
      await violations(
        ARCHIVE_ID,
        bootstrapOf({ ...WRITE_ONCE, immutabilityPolicy: { immutabilityPeriodSinceCreationInDays: 365 } }),
      ),
    ).toEqual([
      'store llm-pretrain: ckptauditprod1ce99f is immutable but refuses protected append writes, which Azure Monitor needs (checkpoints audit-immutable (Azure))',
    ]);
    expect(await violations(ARCHIVE_ID, bootstrapOf(WRITE_ONCE, true))).toEqual([
      'store llm-pretrain: ckptauditprod1ce99f is immutable but has no CanNotDelete lock (checkpoints audit-immutable (Azure))',
    ]);
  });
});
