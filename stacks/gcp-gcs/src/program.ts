import * as pulumi from '@pulumi/pulumi';
import {
  buildStoresInTurns,
  ConfigError,
  firstName,
  gcpAuditExemptionIssues,
  gcpProjectIssues,
  gcpQuotaWarnings,
  gcpRules,
  loadStackSpec,
  physicalNameIssues,
  deployedStoresOf,
  replacementIssues,
  type ConfigIssue,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import { gcpLabels, standardTags } from '@checkpoints/tagging';
import { auditOutputs, type AuditOutputs } from './audit';
import { CheckpointStore, gcpStoreInputs, STORE_REPLACING_SETTINGS } from './checkpoint-store';
import { generationName } from './encryption';

/**
 * Validates the stack config (every problem at once, thrown before any resource exists), then creates one
 * CheckpointStore per store, one per turn (`buildStoresInTurns`), and returns their outputs by store name.
 */
export function checkpointStack(): Promise<{
  stores: Record<string, StoreOutputs<pulumi.Output<string>>>;
  audit: AuditOutputs;
}> {
  const { spec, region, gcpProject } = loadGcpStackSpec();
  for (const warning of gcpQuotaWarnings(spec)) void pulumi.log.warn(warning);
  const project = pulumi.getProject();
  const stack = pulumi.getStack();
  return buildStoresInTurns(spec.stores, (store) => {
    const checkpointStore = new CheckpointStore(store.name, {
      store,
      project: gcpProject,
      auditExemptMembers: spec.auditExemptMembers ?? [],
      environment: spec.environment,
      ...(spec.ciRunners ? { ciRunners: spec.ciRunners } : {}),
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
    return [store.name, checkpointStore.outputs] as const;
  }).then((stores) => ({ stores: Object.fromEntries(stores), audit: auditOutputs(spec, gcpProject) }));
}

/** The common spec with the GCP rules, and the provider's own keys, every problem reported at once. */
function loadGcpStackSpec(): { spec: StackSpec; region: string | undefined; gcpProject: string } {
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
    spec = loadStackSpec(pulumi.runtime.allConfig(), gcpRules({ region, project }), source, {
      isSecret: isConfigSecret,
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  if (spec) issues.push(...physicalNameIssues(spec.stores, gcpPhysicalNames));
  if (spec && project) {
    issues.push(
      ...gcpAuditExemptionIssues(spec.auditExemptMembers, {
        environment: spec.environment,
        readers: spec.stores.flatMap((store) => [
          { member: storeReaderMember(store, project), store: store.name },
          ...store.access.readers.map((member) => ({ member, store: store.name })),
        ]),
      }),
    );
  }
  if (spec && project && issues.length === 0) {
    const exempt = spec.auditExemptMembers ?? [];
    issues.push(
      ...replacementIssues(
        spec.stores,
        (store) =>
          gcpStoreInputs({
            store,
            location: bucketLocation(store, region),
            project,
            auditExemptMembers: exempt,
          }),
        STORE_REPLACING_SETTINGS,
        deployedStoresOf(pulumi.runtime.allConfig()),
      ),
    );
  }
  if (spec === undefined || !project || issues.length > 0) throw new ConfigError(issues, source);
  return { spec, region, gcpProject: project };
}

/** The store's own reader service account, as an IAM member. */
function storeReaderMember(store: StoreSpec, project: string): string {
  const ctx = { project: pulumi.getProject(), stack: pulumi.getStack(), store: firstName(store) };
  return `serviceAccount:${names.gcpServiceAccountId(ctx, 'reader')}@${project}.iam.gserviceaccount.com`;
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
    'KMS key ring': generationName(names.gcpKeyRing(ctx), store.keyGeneration),
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
