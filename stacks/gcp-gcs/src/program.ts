import * as pulumi from '@pulumi/pulumi';
import {
  ConfigError,
  gcpProjectIssues,
  gcpQuotaWarnings,
  gcpRules,
  loadStackSpec,
  type ConfigIssue,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { gcpLabels, standardTags } from '@checkpoints/tagging';
import { CheckpointStore } from './checkpoint-store';

/**
 * Validates the stack config (every problem at once, before any resource exists), then creates one
 * CheckpointStore per store and returns their outputs by store name.
 */
export function checkpointStack(): { stores: Record<string, StoreOutputs<pulumi.Output<string>>> } {
  const region = new pulumi.Config('gcp').get('region');
  const spec = loadGcpStackSpec(region);
  for (const warning of gcpQuotaWarnings(spec)) void pulumi.log.warn(warning);
  const project = pulumi.getProject();
  const stack = pulumi.getStack();
  const stores: Record<string, StoreOutputs<pulumi.Output<string>>> = {};
  for (const store of spec.stores) {
    const checkpointStore = new CheckpointStore(store.name, {
      store,
      location: bucketLocation(store, region),
      names: { project, stack, store: store.name },
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

/** The common spec with the GCP rules, and `gcp:project`, every problem of both reported at once. */
function loadGcpStackSpec(region: string | undefined): StackSpec {
  const source = `Pulumi.${pulumi.getStack()}.yaml`;
  const issues: ConfigIssue[] = gcpProjectIssues(new pulumi.Config('gcp').get('project'));
  let spec: StackSpec | undefined;
  try {
    spec = loadStackSpec(pulumi.runtime.allConfig(), gcpRules({ region }), source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  if (spec === undefined || issues.length > 0) throw new ConfigError(issues, source);
  return spec;
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
