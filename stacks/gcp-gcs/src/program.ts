import * as pulumi from '@pulumi/pulumi';
import {
  firstName,
  gcpRules,
  loadStackSpec,
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
  const spec = loadStackSpec(
    pulumi.runtime.allConfig(),
    gcpRules({ region }),
    `Pulumi.${pulumi.getStack()}.yaml`,
  );
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
