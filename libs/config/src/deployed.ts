import { CONFIG_NAMESPACE, type StoreSpec } from './spec';
import type { ConfigIssue } from './issues';

/** A store as a previous render of the stack shows it: its component's name and inputs. */
export interface DeployedStore {
  name: string;
  inputs: Readonly<Record<string, unknown>>;
}

/** A store setting that the cloud cannot change in place: a new value replaces a data holder or drops its key. */
export interface ReplacingSetting {
  key: 'tier' | 'location' | 'zone' | 'encryption' | 'recovery';
  /** What a change of it does to the store, e.g. `a new tier replaces its bucket, and the new one starts empty`. */
  consequence: string;
  /** Whether going from `before` to `after` is refused; default: any change. */
  refuses?: (before: unknown, after: unknown) => boolean;
}

/**
 * The inputs of a store's component: what libs/analysis judges the rendered resources against (the spec's
 * retention for the retention promises; location and workload for the cost projection) and the settings a
 * later deploy must not change (ReplacingSetting), which a previous render is compared with. The same on
 * every cloud; `zone` only where the store has one.
 */
export function storeComponentInputs(store: StoreSpec, location: string): Record<string, unknown> {
  return {
    tier: store.tier,
    retention: store.retention,
    encryption: store.encryption,
    ...(store.zone === undefined ? {} : { zone: store.zone }),
    location,
    workload: store.workload ?? {},
    // The change plan reads the acknowledgement of a weakening change beside the store it weakens.
    ...(store.acknowledge === undefined ? {} : { acknowledge: store.acknowledge }),
    // The retention promises judge a locked store's replays against its lock.
    ...(store.recovery.retentionLock === undefined ? {} : { retentionLock: store.recovery.retentionLock }),
    // The access and retention models hold the store's independent copy to the days it promises.
    ...(store.recovery.independentCopy === undefined
      ? {}
      : { independentCopy: store.recovery.independentCopy }),
    // The access table shows why each listed outside principal may reach the store.
    ...(store.access.external === undefined ? {} : { externalPrincipals: store.access.external }),
  };
}

/**
 * The stack config key by which the offline render (`synth --base`) hands the program the stores of a
 * previous render, the way any input reaches a Pulumi program. Only the offline render has a previous
 * render: `pulumi up` has none, and the key is then unset. Outside the `checkpoints:` namespace, which holds
 * what a stack file says.
 */
export const DEPLOYED_STORES_KEY = 'synth:deployedStores';

/** The config entry handing a program the stores of a previous render (see DEPLOYED_STORES_KEY). */
export function deployedStoresConfig(stores: readonly DeployedStore[]): Record<string, string> {
  return { [DEPLOYED_STORES_KEY]: JSON.stringify(stores) };
}

/** The stores of the previous render in a stack's config (`pulumi.runtime.allConfig()`), if it has one. */
export function deployedStoresOf(
  config: Readonly<Record<string, string>>,
): readonly DeployedStore[] | undefined {
  const text = config[DEPLOYED_STORES_KEY];
  if (text === undefined) return undefined;
  const stores: unknown = JSON.parse(text);
  if (!Array.isArray(stores))
    throw new Error(`${DEPLOYED_STORES_KEY}: expected a list of stores, got ${text}`);
  return stores as DeployedStore[];
}

/**
 * Changes to a store that already exists (in the previous render, under its name or a former one) that would
 * replace a data holder or drop its key: refused before any resource is registered, with the migration path.
 * `inputsOf` gives the store component's inputs this deploy would register; `deployed` the previous render's
 * stores (deployedStoresOf), undefined without one; a setting the previous render does not record is not
 * judged.
 */
export function replacementIssues(
  stores: readonly StoreSpec[],
  inputsOf: (store: StoreSpec) => Readonly<Record<string, unknown>>,
  settings: readonly ReplacingSetting[],
  deployed: readonly DeployedStore[] | undefined,
): ConfigIssue[] {
  if (deployed === undefined) return [];
  return stores.flatMap((store, index) => {
    const names = [store.name, ...store.formerNames];
    const previous = deployed.find((candidate) => names.includes(candidate.name));
    if (!previous) return [];
    const inputs = inputsOf(store);
    return settings.flatMap(({ key, consequence, refuses }): ConfigIssue[] => {
      if (!(key in previous.inputs)) return [];
      const before = previous.inputs[key];
      const after = inputs[key];
      if (JSON.stringify(before) === JSON.stringify(after)) return [];
      if (refuses && !refuses(before, after)) return [];
      return [
        {
          path: `${CONFIG_NAMESPACE}:stores[${index}].${key}`,
          value: after,
          message:
            `store ${store.name} already exists with ${key} ${shown(before)} (previous render): ${consequence}. ` +
            `Keep ${key} ${shown(before)} and migrate instead: add a new store with ${key} ${shown(after)}, ` +
            'copy the checkpoints into it, then retire this one ' +
            '(docs/operations.md, "Migrate a store to another tier or location")',
          refusal: true,
        },
      ];
    });
  });
}

function shown(value: unknown): string {
  return value === undefined ? 'unset' : JSON.stringify(value);
}
