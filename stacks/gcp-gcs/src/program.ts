import * as pulumi from '@pulumi/pulumi';
import {
  ConfigError,
  firstName,
  gcpProjectIssues,
  gcpQuotaWarnings,
  gcpRules,
  loadStackSpec,
  physicalNameIssues,
  replacementIssues,
  storeComponentInputs,
  type ConfigIssue,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import { gcpLabels, standardTags } from '@checkpoints/tagging';
import { CheckpointStore, STORE_REPLACING_SETTINGS } from './checkpoint-store';

/**
 * Validates the stack config (every problem at once, before any resource exists), then creates one
 * CheckpointStore per store and returns their outputs by store name.
 */
export function checkpointStack(): { stores: Record<string, StoreOutputs<pulumi.Output<string>>> } {
  const { spec, region } = loadGcpStackSpec();
  for (const warning of gcpQuotaWarnings(spec)) void pulumi.log.warn(warning);
  const project = pulumi.getProject();
  const stack = pulumi.getStack();
  const stores: Record<string, StoreOutputs<pulumi.Output<string>>> = {};
  for (const store of spec.stores) {
    const checkpointStore = new CheckpointStore(store.name, {
      store,
      location: bucketLocation(store, region),
      names: { project, stack, store: firstName(store) },
      labels: gcpLabels(
        standardTags({
          ...stackTags(spec),
          project,
          stack,
          store: store.name,
          dataClassification: store.dataClassification,
        }),
      ),
    });
    stores[store.name] = checkpointStore.outputs;
  }
  return { stores };
}

/** The common spec with the GCP rules, and the provider's own keys, every problem reported at once. */
function loadGcpStackSpec(): { spec: StackSpec; region: string | undefined } {
  const source = `Pulumi.${pulumi.getStack()}.yaml`;
  const gcp = new pulumi.Config('gcp');
  const region = gcp.get('region');
  const project = gcp.get('project');
  const issues: ConfigIssue[] = gcpProjectIssues(project);
  // Without it the provider falls back to whatever project the credentials default to.
  if (!project) {
    issues.push({
      path: 'gcp:project',
      value: undefined,
      message:
        'is required: the ID of the Google Cloud project the stores are created in, e.g. ml-platform-prod-1234',
    });
  }
  let spec: StackSpec | undefined;
  try {
    spec = loadStackSpec(pulumi.runtime.allConfig(), gcpRules({ region }), source, {
      isSecret: isConfigSecret,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  if (spec) issues.push(...physicalNameIssues(spec.stores, gcpPhysicalNames));
  if (spec && issues.length === 0) {
    issues.push(
      ...replacementIssues(
        spec.stores,
        (store) => storeComponentInputs(store, bucketLocation(store, region)),
        STORE_REPLACING_SETTINGS,
      ),
    );
  }
  if (spec === undefined || issues.length > 0) throw new ConfigError(issues, source);
  return { spec, region };
}

/** Every name the stack derives for a store that must be unique in the project (or globally, for buckets). */
export function gcpPhysicalNames(store: StoreSpec): Record<string, string | string[]> {
  const ctx: NameContext = {
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
    store: firstName(store),
  };
  return {
    'GCS bucket': names.gcsBucket(ctx),
    'service account': [names.gcpServiceAccountId(ctx, 'writer'), names.gcpServiceAccountId(ctx, 'reader')],
    'KMS key ring': names.gcpKeyRing(ctx),
  };
}

function stackTags(spec: StackSpec) {
  return { owner: spec.owner, costCenter: spec.costCenter, environment: spec.environment };
}

/** The store's own location, else gcp:region; gcpRules has refused a store with neither. */
function bucketLocation(store: StoreSpec, region: string | undefined): string {
  const location = store.location ?? region;
  if (location === undefined) {
    throw new Error(`store ${store.name} has no location and gcp:region is not set`);
  }
  return location;
}

/**
 * Whether a config key is a secret: the predicate Pulumi's own Config consults, absent from the SDK's typings.
 * libs/config refuses secrets where they would land in tags, labels or names.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isConfigSecret } = require('@pulumi/pulumi/runtime/config') as {
  isConfigSecret(key: string): boolean;
};
