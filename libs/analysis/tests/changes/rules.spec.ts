import { type RenderedResource } from '@checkpoints/render';
import { CHANGE_RULES, planChanges } from '../../src';

const STORE = 'urn:pulumi:dev::p::checkpoints:aws:CheckpointStore::s';

function resource(type: string, inputs: Record<string, unknown>, extra: Partial<RenderedResource> = {}) {
  return {
    urn: `urn:pulumi:dev::p::checkpoints:x:CheckpointStore$${type}::r`,
    type,
    name: 'r',
    parent: null,
    protect: false,
    retainOnDelete: true,
    dependsOn: [],
    inputs,
    ...extra,
  } satisfies RenderedResource;
}

function kindOf(type: string, before: Record<string, unknown>, after: Record<string, unknown>) {
  const plan = planChanges({ resources: [resource(type, before)] }, { resources: [resource(type, after)] });
  return plan.others[0];
}

function setPath(inputs: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...inputs, [head!]: value };
  return {
    ...inputs,
    [head!]: setPath((inputs[head!] as Record<string, unknown>) ?? {}, rest.join('.'), value),
  };
}

// One row per documented replace-on-change input of every type the stacks create, on every cloud.
const rows = Object.values(CHANGE_RULES).flatMap((cloud) =>
  Object.entries(cloud.types).flatMap(([type, rules]) =>
    rules.replacedBy.map((rule) => [cloud.cloud, type, rule.input, rule.source] as const),
  ),
);

describe('replace-on-change inputs, as the providers document them', () => {
  it('covers every cloud', () => {
    expect(new Set(rows.map(([cloud]) => cloud))).toEqual(new Set(['aws', 'gcp', 'azure']));
  });

  it.each(rows)('%s %s: a change of %s replaces it', (_cloud, type, input, source) => {
    expect(source).toMatch(/https:\/\/|azure-native: /);
    const before = setPath({ tags: { a: '1' } }, input, 'old');
    const change = kindOf(type, before, setPath(before, input, 'new'));
    expect(change?.kind).toBe('replaced');
    expect(change?.replacedBy.map((rule) => rule.input)).toEqual([input]);
  });

  it.each(Object.values(CHANGE_RULES).flatMap((cloud) => Object.keys(cloud.types)))(
    '%s: a change of anything else (tags) is an update in place',
    (type) => {
      const change = kindOf(type, { tags: { a: '1' } }, { tags: { a: '2' } });
      expect(change?.kind).toBe('updated');
      expect(change?.changedInputs).toEqual(['tags']);
    },
  );
});

describe('what holds checkpoints or their keys', () => {
  it.each([
    ['aws:s3/bucket:Bucket', {}, 'data'],
    ['aws:s3/directoryBucket:DirectoryBucket', {}, 'data'],
    ['aws:kms/key:Key', {}, 'key'],
    ['aws:s3/bucketVersioning:BucketVersioning', {}, 'safety'],
    ['aws:s3/bucketPolicy:BucketPolicy', {}, 'safety'],
    ['aws:iam/role:Role', {}, undefined],
    ['gcp:storage/bucket:Bucket', {}, 'data'],
    ['gcp:kms/keyRing:KeyRing', {}, 'key'],
    ['gcp:kms/cryptoKey:CryptoKey', {}, 'key'],
    ['gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember', {}, 'key'],
    ['gcp:serviceaccount/account:Account', {}, undefined],
    ['azure-native:storage:StorageAccount', {}, 'data'],
    ['azure-native:storage:BlobContainer', {}, 'data'],
    ['azure-native:keyvault:Vault', {}, 'key'],
    ['azure-native:keyvault:Key', {}, 'key'],
    ['azure-native:storage:BlobServiceProperties', {}, 'safety'],
    ['azure-native:storage:ManagementPolicy', {}, 'safety'],
    ['azure-native:resources:ResourceGroup', {}, 'data'],
    [
      'azure-native:authorization:RoleAssignment',
      {
        roleDefinitionId:
          '/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/e147488a-f6f5-4113-8e2d-b22465e65bf6',
      },
      'key',
    ],
    [
      'azure-native:authorization:RoleAssignment',
      {
        roleDefinitionId:
          '/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/ba92f5b4-2d11-453d-a403-e96b0029c9fe',
      },
      undefined,
    ],
  ])('%s %j holds %s', (type, inputs, holds) => {
    expect(kindOf(type, inputs, inputs)?.holds).toBe(holds);
  });
});

describe('planChanges', () => {
  const component = (name: string, aliases?: string[]): RenderedResource => ({
    urn: `urn:pulumi:dev::p::pulumi:pulumi:Stack$checkpoints:aws:CheckpointStore::${name}`,
    type: 'checkpoints:aws:CheckpointStore',
    name,
    parent: null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs: {},
    ...(aliases ? { aliases } : {}),
  });
  const bucket = (store: string, extra: Partial<RenderedResource> = {}): RenderedResource => ({
    urn: `urn:pulumi:dev::p::checkpoints:aws:CheckpointStore$aws:s3/bucket:Bucket::${store}-bucket`,
    type: 'aws:s3/bucket:Bucket',
    name: `${store}-bucket`,
    parent: component(store).urn,
    protect: false,
    retainOnDelete: true,
    dependsOn: [],
    inputs: { bucket: 'physical' },
    ...extra,
  });

  it('matches a renamed store and its resources through their aliases, the root stack left out as the engine does', () => {
    const base = { resources: [component('old'), bucket('old')] };
    const next = {
      resources: [
        component('new', [STORE.replace('::s', '::old')]),
        bucket('new', { aliases: [bucket('old').urn] }),
      ],
    };
    const plan = planChanges(base, next);
    expect(plan.stores.map((store) => [store.store, store.formerName, store.status])).toEqual([
      ['new', 'old', 'unchanged'],
    ]);
    expect(plan.dataLoss).toEqual([]);
  });

  it('deletes what the previous render does not retain, and calls it data loss when it holds data', () => {
    const plan = planChanges(
      { resources: [component('s'), bucket('s', { retainOnDelete: false })] },
      { resources: [] },
    );
    expect(plan.stores.map((store) => [store.store, store.status])).toEqual([['s', 'removed']]);
    expect(plan.dataLoss.map((loss) => [loss.kind, loss.holds])).toEqual([['deleted', 'data']]);
    expect(plan.dataLoss[0]?.message).toContain('retainOnDelete is off');
  });

  it('releases what the previous render retains; a protected one needs protect lifted first', () => {
    const plan = planChanges(
      { resources: [component('s'), bucket('s', { protect: true })] },
      { resources: [] },
    );
    expect(plan.stores[0]?.resources.map((change) => change.kind)).toEqual(['released']);
    expect(plan.dataLoss).toEqual([]);
    expect(plan.notes.join('\n')).toContain('protect: false first');
  });

  it('says a protected holder that would be replaced stops the deploy half-way', () => {
    const base = { resources: [component('s'), bucket('s', { protect: true })] };
    const next = { resources: [component('s'), bucket('s', { inputs: { bucket: 'other' } })] };
    const [loss] = planChanges(base, next).dataLoss;
    expect(loss?.kind).toBe('replaced');
    expect(loss?.message).toContain('`pulumi up` stops there, half-way');
  });

  it('flags a type it has no rules for, so a reader knows the verdict is uncertain', () => {
    const unknown = resource('aws:ec2/instance:Instance', { a: 1 });
    const plan = planChanges({ resources: [unknown] }, { resources: [{ ...unknown, inputs: { a: 2 } }] });
    expect(plan.others[0]).toMatchObject({ kind: 'updated', unknownType: true });
  });

  it('does not flag a component, which no provider replaces', () => {
    const group = resource('fixture:index:Group', {}, { custom: false });
    const plan = planChanges({ resources: [group] }, { resources: [group] });
    expect(plan.others[0]).not.toHaveProperty('unknownType');
  });
});
