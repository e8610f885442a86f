import { compact, composeName, dashed, type Spelling } from './compose';
import { stableHash } from './hash';

/** Names one store of one stack. */
export interface NameContext {
  /** Pulumi project name: letters, digits, '-', '_' and '.'. */
  project: string;
  /** Pulumi stack name: letters, digits, '-', '_' and '.'. */
  stack: string;
  /** Store name from the stack config: [a-z][a-z0-9-]{1,30}. */
  store: string;
}

export type IdentityPurpose = 'writer' | 'reader';

/** Names one stack: what every store of it shares (its resource group, its role boundary). */
export interface StackNameContext {
  /** Pulumi project name: letters, digits, '-', '_' and '.'. */
  project: string;
  /** Pulumi stack name: letters, digits, '-', '_' and '.'. */
  stack: string;
}

const PULUMI_NAME = /^[A-Za-z0-9_.-]+$/;
const STORE_NAME = /^[a-z][a-z0-9-]{1,30}$/;

/** AWS availability zone ID: `use1-az4`, or `usw2-lax1-az1` in a Local Zone. */
export const AZ_ID = /^[a-z]{2,8}[0-9]{1,2}(?:-[a-z]{2,8}[0-9]{1,2})?-az[0-9]{1,2}$/;

/** GCS refuses bucket names containing 'google' or a look-alike such as 'g00gle'. */
export const GOOGLE_LOOKALIKE = /g[o0]+g[l1][e3]/;

const gcsSpelling: Spelling = {
  ...dashed,
  sanitise: (text) =>
    dashed.sanitise(dashed.sanitise(text).replace(new RegExp(GOOGLE_LOOKALIKE.source, 'g'), '-')),
};

// Prefixes the clouds reserve that sanitised project or stack names can still begin with ('xn--' cannot
// occur: sanitising collapses runs of hyphens).
const S3_RESERVED_PREFIXES = /^(?:sthree-|amzn-s3-demo-)+/;
const GCS_RESERVED_PREFIX = /^(?:goog|-)+/;
// Key vault names and service account IDs must start with a letter; project and stack names need not.
const BEFORE_FIRST_LETTER = /^[^a-z]+/;

/**
 * Deterministic names for everything the stacks create. A store's names are its project, stack and store
 * names (shortened to fit, project first) followed by `stableHash([project, stack, store])`, so two stacks
 * or stores never share a globally unique name and every resource of one store carries the same hash.
 */
export const names = {
  s3Bucket(ctx: NameContext): string {
    return s3BucketBase(ctx, 63);
  },

  /** The bucket in a second region that S3 replicates a store's bucket into (`recovery.replicaRegion`). */
  s3ReplicaBucket(ctx: NameContext): string {
    return storeName(dashed, ctx, ['replica', storeHash(ctx)], 63).replace(S3_RESERVED_PREFIXES, '');
  },

  /** S3 Express One Zone bucket in the availability zone `azId`, e.g. 'use1-az4'. */
  s3DirectoryBucket(ctx: NameContext, azId: string): string {
    if (!AZ_ID.test(azId)) {
      throw new Error(`'${azId}' is not an AWS availability zone ID such as 'use1-az4' or 'usw2-lax1-az1'`);
    }
    const suffix = `--${azId}--x-s3`;
    return s3BucketBase(ctx, 63 - suffix.length) + suffix;
  },

  gcsBucket(ctx: NameContext): string {
    return storeName(gcsSpelling, ctx, [storeHash(ctx)], 63).replace(GCS_RESERVED_PREFIX, '');
  },

  /** One resource group per stack; the hash keeps stacks whose names sanitise alike apart. */
  resourceGroup(ctx: StackNameContext): string {
    assertPulumiNames(ctx);
    const suffix = [stableHash([ctx.project, ctx.stack])];
    return composeName(dashed, { project: ctx.project, qualifiers: [ctx.stack], suffix, maxLength: 90 });
  },

  storageAccount(ctx: NameContext): string {
    return storeName(compact, ctx, [storeHash(ctx)], 24);
  },

  /** Lives in the store's own storage account, whose name already carries the hash. */
  adlsFilesystem(ctx: NameContext): string {
    assertNameContext(ctx);
    return `checkpoints-${dashed.sanitise(ctx.store)}`;
  },

  /**
   * `replication`: the role S3 assumes to copy a store's objects into its replica bucket; `malware-scan`: the
   * role GuardDuty assumes to scan the store's new objects; `backup`: the role AWS Backup assumes to copy them
   * into the store's backup vault.
   */
  iamRole(ctx: NameContext, purpose: IdentityPurpose | 'replication' | 'malware-scan' | 'backup'): string {
    return storeName(dashed, ctx, [purpose, storeHash(ctx)], 64);
  },

  gcpServiceAccountId(ctx: NameContext, purpose: IdentityPurpose): string {
    return storeName(dashed, ctx, [purpose, storeHash(ctx)], 30).replace(BEFORE_FIRST_LETTER, '');
  },

  managedIdentity(ctx: NameContext, purpose: IdentityPurpose): string {
    return storeName(dashed, ctx, [purpose, storeHash(ctx)], 128);
  },

  /**
   * The customer managed IAM policy every store role of one AWS stack has as its permissions boundary
   * (created by the bootstrap project, referenced by the stack). One per stack, not per account: a
   * boundary shared by dev and prod would have to allow prod's buckets to the roles dev's deploy creates.
   * The hash keeps stacks whose names sanitise alike apart, as for resource groups.
   */
  awsStoreRoleBoundary(ctx: StackNameContext): string {
    assertPulumiNames(ctx);
    const suffix = ['store-role-boundary', stableHash([ctx.project, ctx.stack])];
    return composeName(dashed, { project: ctx.project, qualifiers: [ctx.stack], suffix, maxLength: 128 });
  },

  /**
   * The AWS Backup vault, with its vault lock, that holds the independent copies of one AWS stack's stores
   * (`recovery.independentCopy`): created by the bootstrap project, named by the stack's backup plans.
   */
  awsBackupVault(ctx: StackNameContext): string {
    assertPulumiNames(ctx);
    const suffix = ['backup', stableHash([ctx.project, ctx.stack])];
    return composeName(dashed, { project: ctx.project, qualifiers: [ctx.stack], suffix, maxLength: 50 });
  },

  /**
   * The GCS bucket, with its locked retention policy, that holds the independent copies of one GCP stack's stores
   * (`recovery.independentCopy`): created by the bootstrap project in the environment's copy project. Its `copy`
   * suffix and hash of the stack alone keep it apart from every store bucket, whose hash includes the store.
   */
  gcsCopyBucket(ctx: StackNameContext): string {
    assertPulumiNames(ctx);
    const suffix = ['copy', stableHash([ctx.project, ctx.stack])];
    return composeName(gcsSpelling, {
      project: ctx.project,
      qualifiers: [ctx.stack],
      suffix,
      maxLength: 63,
    }).replace(GCS_RESERVED_PREFIX, '');
  },

  kmsKeyAlias(ctx: NameContext): string {
    const prefix = 'alias/';
    return prefix + storeName(dashed, ctx, [storeHash(ctx)], 256 - prefix.length);
  },

  gcpKeyRing(ctx: NameContext): string {
    return storeName(dashed, ctx, [storeHash(ctx)], 63);
  },

  /** Lives in the store's own key ring, whose name already carries the hash. */
  gcpCryptoKey(ctx: NameContext): string {
    assertNameContext(ctx);
    return `checkpoints-${dashed.sanitise(ctx.store)}`;
  },

  keyVault(ctx: NameContext): string {
    return storeName(dashed, ctx, [storeHash(ctx)], 24).replace(BEFORE_FIRST_LETTER, '');
  },
};

export type NameKind = keyof typeof names;

function s3BucketBase(ctx: NameContext, maxLength: number): string {
  return storeName(dashed, ctx, [storeHash(ctx)], maxLength).replace(S3_RESERVED_PREFIXES, '');
}

function storeName(spelling: Spelling, ctx: NameContext, suffix: readonly string[], maxLength: number) {
  assertNameContext(ctx);
  return composeName(spelling, {
    project: ctx.project,
    qualifiers: [ctx.stack, ctx.store],
    suffix,
    maxLength,
  });
}

function storeHash(ctx: NameContext): string {
  return stableHash([ctx.project, ctx.stack, ctx.store]);
}

function assertNameContext(ctx: NameContext): void {
  assertPulumiNames(ctx);
  if (!STORE_NAME.test(ctx.store)) {
    throw new Error(`store name '${ctx.store}' must match [a-z][a-z0-9-]{1,30}`);
  }
}

function assertPulumiNames(ctx: StackNameContext): void {
  for (const [what, value] of [
    ['project', ctx.project],
    ['stack', ctx.stack],
  ] as const) {
    if (!PULUMI_NAME.test(value)) {
      throw new Error(`Pulumi ${what} name '${value}' must be letters, digits, '-', '_' and '.' only`);
    }
  }
}

/**
 * The account that keeps an environment's resource logs write-once, created by the bootstrap and named by the
 * stacks' diagnostic settings: one per subscription and environment, so both derive it from those two.
 */
export const auditArchive = {
  /** Storage account names are global, 3-24 lowercase letters and digits. */
  account(subscriptionId: string, environment: string): string {
    const env = compact.sanitise(environment).slice(0, 8);
    return `ckptaudit${env}${stableHash([subscriptionId.toLowerCase(), environment])}`;
  },

  /** Its resource group: the bootstrap's, outside the stack's group. */
  resourceGroup(environment: string): string {
    return `rg-checkpoints-audit-${dashed.sanitise(environment)}`;
  },

  /** Its resource ID, as the stacks' diagnostic settings name their destination. */
  accountId(subscriptionId: string, environment: string): string {
    return `/subscriptions/${subscriptionId}/resourceGroups/${auditArchive.resourceGroup(environment)}/providers/Microsoft.Storage/storageAccounts/${auditArchive.account(subscriptionId, environment)}`;
  },
};

/**
 * The Backup vault that holds an environment's independent copies on Azure, created by the bootstrap in a resource
 * group of its own and read by the analyses: one per subscription and environment. Backup vault names are 2-50
 * "Alphanumerics and hyphens. Start with letter." (Microsoft.DataProtection backupVaults,
 * https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules#microsoftdataprotection).
 */
export const azureBackup = {
  vault(subscriptionId: string, environment: string): string {
    const env = dashed.sanitise(environment).slice(0, 16);
    return `ckpt-backup-${env}-${stableHash([subscriptionId.toLowerCase(), environment, 'backup'])}`;
  },

  /** Its resource group: the bootstrap's, outside the stack's group and out of CI's reach. */
  resourceGroup(environment: string): string {
    return `rg-checkpoints-backup-${dashed.sanitise(environment)}`;
  },

  /** The vault's one backup policy for ADLS accounts: daily, into the vault tier. */
  policy: 'checkpoints-adls-daily',

  /** A store account's backup instance, named after the account as Azure's own templates do. */
  instance(accountName: string): string {
    return accountName;
  },
};
