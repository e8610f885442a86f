import type { Cloud } from '@checkpoints/config';
import { isStoreComponent } from '@checkpoints/render';
import { ROOT_STACK_TYPE, storesOf, type Render, type RenderedResource } from '@checkpoints/render';
import { awsChangeRules } from './aws';
import { azureChangeRules } from './azure';
import { gcpChangeRules } from './gcp';
import type { ChangeKind, ChangePlan, DataLoss, ResourceChange, StorePlan } from './model';
import type { CloudChangeRules, Holding, ResourceTypeRules } from './rules';

export type { CloudChangeRules, Holding, ReplacingInput, ResourceTypeRules } from './rules';
export { awsChangeRules, azureChangeRules, gcpChangeRules };
export { formatPlan } from './format';
export type { ChangeKind, ChangePlan, DataLoss, ResourceChange, StorePlan } from './model';

export const CHANGE_RULES: Readonly<Record<Cloud, CloudChangeRules>> = {
  aws: awsChangeRules,
  gcp: gcpChangeRules,
  azure: azureChangeRules,
};

type PlannedRender = Pick<Render, 'resources'>;

/** The change plan of deploying `next` over a stack last deployed as `base` (both renders of one stack). */
export function planChanges(base: PlannedRender, next: PlannedRender): ChangePlan {
  const baseByUrn = new Map(base.resources.map((resource) => [resource.urn, resource]));
  const baseByIdentity = new Map(base.resources.map((resource) => [identity(resource.urn), resource]));
  const matched = new Map<string, RenderedResource>();
  const changes = new Map<string, ResourceChange>();
  for (const resource of next.resources) {
    const previous = [resource.urn, ...(resource.aliases ?? [])]
      .map((urn) => baseByIdentity.get(identity(urn)))
      .find((candidate) => candidate !== undefined && !matched.has(candidate.urn));
    if (previous) matched.set(previous.urn, resource);
    changes.set(resource.urn, previous ? compare(previous, resource) : created(resource));
  }
  const gone = base.resources.filter((resource) => !matched.has(resource.urn)).map(removed);

  const baseStores = storesOf(base);
  const nextStores = storesOf(next);
  const inStore = new Set<string>();
  const stores: StorePlan[] = nextStores.map((store) => {
    const component = changes.get(store.urn);
    const formerUrn = component?.baseUrn;
    const former = formerUrn ? baseStores.find((candidate) => candidate.urn === formerUrn) : undefined;
    const resources = store.resources.map((resource) => changes.get(resource.urn)).filter(isDefined);
    // A removed child of a store that still exists (e.g. the key after encryption went provider-managed).
    const formerStoreUrn = formerUrn ?? (baseByUrn.has(store.urn) ? store.urn : undefined);
    const formerStore = baseStores.find((candidate) => candidate.urn === formerStoreUrn);
    const removedChildren = gone.filter((change) =>
      formerStore?.resources.some((resource) => resource.urn === change.urn),
    );
    resources.push(...removedChildren);
    for (const change of [...resources, ...(component ? [component] : [])]) inStore.add(change.urn);
    const plan: StorePlan = {
      store: store.name,
      status: !formerStoreUrn ? 'created' : resources.every(isUnchanged) ? 'unchanged' : 'changed',
      resources,
    };
    if (former && former.name !== store.name) plan.formerName = former.name;
    return plan;
  });
  const matchedStoreUrns = new Set(
    nextStores
      .map((store) => changes.get(store.urn)?.baseUrn ?? store.urn)
      .filter((urn) => baseByUrn.has(urn)),
  );
  for (const store of baseStores) {
    if (matchedStoreUrns.has(store.urn)) continue;
    const resources = gone.filter((change) =>
      store.resources.some((resource) => resource.urn === change.urn),
    );
    for (const change of resources) inStore.add(change.urn);
    inStore.add(store.urn);
    stores.push({ store: store.name, status: 'removed', resources });
  }
  const others = [...changes.values(), ...gone].filter(
    (change) => !inStore.has(change.urn) && !isStoreComponent(change.type),
  );

  const plan: ChangePlan = { stores, others, dataLoss: [], notes: [] };
  for (const store of stores) {
    for (const change of store.resources) {
      const loss = dataLossOf(store, change) ?? supersededHolder(store, change);
      if (loss) plan.dataLoss.push(loss);
    }
  }
  for (const change of others) {
    const loss = dataLossOf({ store: '(stack)', status: 'changed', resources: [] }, change);
    if (loss) plan.dataLoss.push(loss);
  }
  plan.notes.push(...renameHints(stores), ...protectedReleases(stores));
  return plan;
}

/** How many resources of the plan each kind of change touches, over every store and the rest of the stack. */
export function countChanges(plan: ChangePlan): Partial<Record<ChangeKind, number>> {
  const counts: Partial<Record<ChangeKind, number>> = {};
  for (const change of [...plan.stores.flatMap((store) => store.resources), ...plan.others]) {
    counts[change.kind] = (counts[change.kind] ?? 0) + 1;
  }
  return counts;
}

/** The exit-worthy verdict: true when a deploy of the plan would lose checkpoints or their keys. */
export function losesData(plan: ChangePlan): boolean {
  return plan.dataLoss.length > 0;
}

function compare(previous: RenderedResource, resource: RenderedResource): ResourceChange {
  const rules = rulesOf(resource.type);
  const changedInputs = [...new Set([...Object.keys(previous.inputs), ...Object.keys(resource.inputs)])]
    .filter((key) => !sameValue(previous.inputs[key], resource.inputs[key]))
    .sort();
  const replacedBy = (rules?.replacedBy ?? []).filter(({ input, replaces }) => {
    const [before, after] = [valueAtPath(previous.inputs, input), valueAtPath(resource.inputs, input)];
    return !sameValue(before, after) && (replaces?.(before, after) ?? true);
  });
  const kind: ChangeKind =
    replacedBy.length > 0 ? 'replaced' : changedInputs.length > 0 ? 'updated' : 'unchanged';
  const change = describe(resource, kind, rules, previous.protect);
  change.changedInputs = changedInputs;
  change.replacedBy = replacedBy;
  if (previous.urn !== resource.urn) change.baseUrn = previous.urn;
  // A holder is judged by what it held: a grant that no longer names the key still guarded it.
  change.holds ??= holdingOf(previous, rules);
  if (!change.holds) delete change.holds;
  return change;
}

function created(resource: RenderedResource): ResourceChange {
  return describe(resource, 'created', rulesOf(resource.type), false);
}

function removed(resource: RenderedResource): ResourceChange {
  return describe(
    resource,
    resource.retainOnDelete ? 'released' : 'deleted',
    rulesOf(resource.type),
    resource.protect,
  );
}

function describe(
  resource: RenderedResource,
  kind: ChangeKind,
  rules: ResourceTypeRules | undefined,
  protectedInBase: boolean,
): ResourceChange {
  const change: ResourceChange = {
    urn: resource.urn,
    type: resource.type,
    name: resource.name,
    kind,
    changedInputs: [],
    replacedBy: [],
    protectedInBase,
  };
  const holds = holdingOf(resource, rules);
  if (holds) change.holds = holds;
  // Only a custom resource has a provider that could replace it; components and the stack have none.
  if (!rules && resource.custom !== false && resource.type !== ROOT_STACK_TYPE) change.unknownType = true;
  return change;
}

function rulesOf(type: string): ResourceTypeRules | undefined {
  const cloud = type.startsWith('azure-native:') ? 'azure' : type.split(':')[0];
  return cloud === 'aws' || cloud === 'gcp' || cloud === 'azure'
    ? CHANGE_RULES[cloud].types[type]
    : undefined;
}

function holdingOf(resource: RenderedResource, rules: ResourceTypeRules | undefined): Holding | undefined {
  const holds = rules?.holds;
  return typeof holds === 'function' ? holds(resource.inputs) : holds;
}

/** What a rendered resource holds for its store's checkpoints, per its cloud's change rules. */
export function holdingOfResource(resource: RenderedResource): Holding | undefined {
  return holdingOf(resource, rulesOf(resource.type));
}

/** The resources that hold data, keys or safety settings, each with its deletion options. */
export function dataHolders(
  render: Pick<Render, 'resources'>,
): { name: string; type: string; holds: Holding; protect: boolean; retainOnDelete: boolean }[] {
  return render.resources.flatMap((resource) => {
    const holds = holdingOfResource(resource);
    if (!holds) return [];
    const { name, type, protect, retainOnDelete } = resource;
    return [{ name, type, holds, protect, retainOnDelete }];
  });
}

function dataLossOf(store: StorePlan, change: ResourceChange): DataLoss | undefined {
  if (change.holds !== 'data' && change.holds !== 'key') return undefined;
  if (change.kind !== 'replaced' && change.kind !== 'deleted') return undefined;
  const what = `${change.type} '${change.name}'`;
  const stopped = change.protectedInBase ? ' It is protected, so `pulumi up` stops there, half-way.' : '';
  const message =
    change.kind === 'replaced'
      ? `store ${store.store}: ${what} would be replaced (${change.replacedBy.map((input) => input.input).join(', ')} changed): the new one starts empty and the checkpoints stay behind in the old one.${stopped} ${replacementAdvice(change.holds)}`
      : `store ${store.store}: ${what} would be deleted: the previous render does not retain it (retainOnDelete is off).${stopped} Deploy once with the store still in the config, so every data holder gets retainOnDelete, then remove it (docs/operations.md, "Retire a store").`;
  return {
    store: store.store,
    urn: change.urn,
    type: change.type,
    kind: change.kind,
    holds: change.holds,
    message,
  };
}

/**
 * A store that stays but swaps a data holder for one of another type (e.g. a bucket for a directory bucket)
 * points its consumers at a new, empty holder: the checkpoints stay behind in the released one.
 */
function supersededHolder(store: StorePlan, change: ResourceChange): DataLoss | undefined {
  if (store.status === 'removed' || change.holds !== 'data' || change.kind !== 'released') return undefined;
  const successor = store.resources.find((other) => other.kind === 'created' && other.holds === 'data');
  if (!successor) return undefined;
  return {
    store: store.store,
    urn: change.urn,
    type: change.type,
    kind: 'replaced',
    holds: 'data',
    message: `store ${store.store}: ${change.type} '${change.name}' would be replaced by a new ${successor.type} '${successor.name}': the store would point at an empty one and its checkpoints stay behind in the released one. ${replacementAdvice('data')}`,
  };
}

function replacementAdvice(holds: 'data' | 'key'): string {
  return holds === 'data'
    ? 'To change it safely: add a new store with the new setting, copy the checkpoints, then retire the old store (docs/operations.md, "Migrate a store to another tier or location").'
    : 'To change it safely: keep the key as it is and rotate its versions instead, or migrate to a new store (docs/operations.md, "Rotate a key").';
}

/** A store that vanished while another appeared is likely a rename that forgot `formerNames`. */
function renameHints(stores: readonly StorePlan[]): string[] {
  const removedStores = stores.filter((store) => store.status === 'removed');
  const createdStores = stores.filter((store) => store.status === 'created');
  if (removedStores.length === 0 || createdStores.length === 0) return [];
  return createdStores.map(
    (store) =>
      `store ${store.store} is new and store(s) ${removedStores.map((s) => s.store).join(', ')} are removed: if ${store.store} is a rename, add formerNames: [${removedStores[0]?.store}] to it, so it keeps the old store's resources and data instead of starting empty`,
  );
}

/** Pulumi refuses to delete a protected resource, even one it would only release. */
function protectedReleases(stores: readonly StorePlan[]): string[] {
  return stores.flatMap((store) => {
    const held = store.resources.filter((change) => change.kind === 'released' && change.protectedInBase);
    if (held.length === 0) return [];
    return [
      `store ${store.store}: ${held.length} protected resource(s) would be released; \`pulumi up\` refuses until protection is lifted: deploy the store with protect: false first, then remove it (docs/operations.md, "Retire a store")`,
    ];
  });
}

/**
 * The engine leaves the root stack out of its children's URNs (https://www.pulumi.com/docs/iac/concepts/resources/names/#urns);
 * the mock engine of an offline render keeps it, while the aliases the SDK computes leave it out.
 */
function identity(urn: string): string {
  return urn.replace(/::pulumi:pulumi:Stack\$/, '::');
}

function isUnchanged(change: ResourceChange): boolean {
  return change.kind === 'unchanged';
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function valueAtPath(inputs: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = inputs;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
