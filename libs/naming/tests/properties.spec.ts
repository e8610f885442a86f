import * as fc from 'fast-check';
import {
  nameRules,
  names,
  stableHash,
  type IdentityPurpose,
  type NameContext,
  type NameKind,
} from '../src/index';

const pulumiChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.');
const pulumiName = fc.string({ unit: pulumiChar, minLength: 1, maxLength: 60 });
// Text the generators must work around, mixed in because random text almost never contains it.
const awkwardStart = fc.constantFrom(
  'checkpoints-',
  'sthree-',
  'amzn-s3-demo-',
  'xn--',
  'goog',
  'Google.',
  'my-g00gle.',
  '9',
);
const project = fc.oneof(
  pulumiName,
  fc.tuple(awkwardStart, pulumiName).map(([start, rest]) => (start + rest).slice(0, 60)),
);
const store = fc.stringMatching(/^[a-z][a-z0-9-]{1,30}$/);
const nameContext = fc.record({ project, stack: pulumiName, store });
const azId = fc.constantFrom('use1-az4', 'usw2-az1', 'apne1-az1', 'usw2-lax1-az1');
const purpose = fc.constantFrom<IdentityPurpose>('writer', 'reader');

function allNames(ctx: NameContext, az: string, as: IdentityPurpose): Record<NameKind, string> {
  return {
    s3Bucket: names.s3Bucket(ctx),
    s3ReplicaBucket: names.s3ReplicaBucket(ctx),
    s3DirectoryBucket: names.s3DirectoryBucket(ctx, az),
    gcsBucket: names.gcsBucket(ctx),
    resourceGroup: names.resourceGroup(ctx),
    storageAccount: names.storageAccount(ctx),
    adlsFilesystem: names.adlsFilesystem(ctx),
    iamRole: names.iamRole(ctx, as),
    awsBackupVault: names.awsBackupVault(ctx),
    gcsCopyBucket: names.gcsCopyBucket(ctx),
    gcpServiceAccountId: names.gcpServiceAccountId(ctx, as),
    managedIdentity: names.managedIdentity(ctx, as),
    awsStoreRoleBoundary: names.awsStoreRoleBoundary(ctx),
    kmsKeyAlias: names.kmsKeyAlias(ctx),
    gcpKeyRing: names.gcpKeyRing(ctx),
    gcpCryptoKey: names.gcpCryptoKey(ctx),
    keyVault: names.keyVault(ctx),
  };
}

/** Kinds whose names must differ between stores: they share an account, project, subscription or the world. */
const uniqueKinds = [
  's3Bucket',
  's3ReplicaBucket',
  's3DirectoryBucket',
  'gcsBucket',
  'storageAccount',
  'iamRole',
  'gcpServiceAccountId',
  'managedIdentity',
  'kmsKeyAlias',
  'gcpKeyRing',
  'keyVault',
] as const satisfies readonly NameKind[];

// A second context close to the first: the kind of difference sanitising or shortening could erase.
const twinOf = (ctx: NameContext) =>
  fc.oneof(
    fc.constant({ ...ctx, project: ctx.project.replace(/[-.]/g, '_') }),
    fc.constant({ ...ctx, stack: ctx.stack.toUpperCase() }),
    fc.constant({ ...ctx, store: ctx.store.length < 31 ? `${ctx.store}-` : ctx.store.slice(0, -1) }),
    fc.constant({ ...ctx, project: `${ctx.project}x`.slice(-60) }),
    nameContext,
  );
const contextPair = nameContext.chain((ctx) => fc.tuple(fc.constant(ctx), twinOf(ctx)));

describe('generated names (properties)', () => {
  it('pass their own rule for every context', () => {
    fc.assert(
      fc.property(nameContext, azId, purpose, (ctx, az, as) => {
        for (const [kind, name] of Object.entries(allNames(ctx, az, as)) as [NameKind, string][]) {
          expect(nameRules[kind](name)).toBeUndefined();
        }
      }),
    );
  });

  it('are the same every time for the same context', () => {
    fc.assert(
      fc.property(nameContext, azId, purpose, (ctx, az, as) => {
        expect(allNames({ ...ctx }, az, as)).toEqual(allNames(ctx, az, as));
      }),
    );
  });

  it('keep the whole hash at the end, whatever is shortened', () => {
    fc.assert(
      fc.property(nameContext, azId, purpose, (ctx, az, as) => {
        const hash = stableHash([ctx.project, ctx.stack, ctx.store]);
        // Its own piece of the name, or all of it when project and stack have nothing usable.
        const endsWith = (tail: string) => new RegExp(`(?:^|[-/])${tail}$`);
        const all = allNames(ctx, az, as);
        for (const kind of ['s3Bucket', 'gcsBucket', 'kmsKeyAlias', 'gcpKeyRing', 'keyVault'] as const) {
          expect(all[kind]).toMatch(endsWith(hash));
        }
        expect(all.storageAccount).toMatch(new RegExp(`${hash}$`));
        expect(all.s3DirectoryBucket).toMatch(endsWith(`${hash}--${az}--x-s3`));
        for (const kind of ['iamRole', 'gcpServiceAccountId', 'managedIdentity'] as const) {
          expect(all[kind]).toMatch(endsWith(`${as}-${hash}`));
        }
        expect(all.resourceGroup).toMatch(endsWith(stableHash([ctx.project, ctx.stack])));
        expect(all.awsStoreRoleBoundary).toMatch(
          endsWith(`store-role-boundary-${stableHash([ctx.project, ctx.stack])}`),
        );
      }),
    );
  });

  it('differ between different contexts', () => {
    fc.assert(
      fc.property(contextPair, azId, purpose, ([a, b], az, as) => {
        fc.pre(a.project !== b.project || a.stack !== b.stack || a.store !== b.store);
        const namesA = allNames(a, az, as);
        const namesB = allNames(b, az, as);
        for (const kind of uniqueKinds) {
          expect(namesA[kind]).not.toBe(namesB[kind]);
        }
        if (a.project !== b.project || a.stack !== b.stack) {
          expect(namesA.resourceGroup).not.toBe(namesB.resourceGroup);
          expect(namesA.awsStoreRoleBoundary).not.toBe(namesB.awsStoreRoleBoundary);
        }
      }),
    );
  });

  it('differ between the writer and the reader of a store', () => {
    fc.assert(
      fc.property(nameContext, (ctx) => {
        expect(names.iamRole(ctx, 'writer')).not.toBe(names.iamRole(ctx, 'reader'));
        expect(names.gcpServiceAccountId(ctx, 'writer')).not.toBe(names.gcpServiceAccountId(ctx, 'reader'));
        expect(names.managedIdentity(ctx, 'writer')).not.toBe(names.managedIdentity(ctx, 'reader'));
      }),
    );
  });

  it("never give a store's replica bucket or replication role the name of any store's bucket or role", () => {
    fc.assert(
      fc.property(nameContext, nameContext, (a, b) => {
        expect(names.s3ReplicaBucket(a)).not.toBe(names.s3Bucket(b));
        for (const purpose of ['writer', 'reader'] as const) {
          expect(names.iamRole(a, 'replication')).not.toBe(names.iamRole(b, purpose));
        }
      }),
    );
  });
});
