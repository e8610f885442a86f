import * as pulumi from '@pulumi/pulumi';
import { Bucket } from '@pulumi/gcp/storage/bucket';
import {
  formerNameAliases,
  storeComponentInputs,
  type ReplacingSetting,
  type StoreOutputs,
  type StoreSpec,
  type CiRunnerSpec,
} from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import { gcsRetentionWarnings } from '@checkpoints/translate';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { checkpointBucketArgs, keyLocation } from './bucket';
import { createAnywhereCache } from './cache';
import { createCustomerManagedKey } from './encryption';
import {
  createStoreIdentities,
  grantBucketAccess,
  removeConvenienceBindings,
  type StoreIdentities,
} from './identities';

export interface CheckpointStoreArgs {
  store: StoreSpec;
  /** `gcp:project`: where the bucket, its identities and its Data Access audit config live. */
  project: string;
  /** `checkpoints:auditExemptMembers`: whose own access the project's audit config leaves unrecorded. */
  auditExemptMembers: readonly string[];
  /** The bucket's region: the store's `location`, else `gcp:region`. */
  location: string;
  names: NameContext;
  /** The standard tag set as GCP labels, for every resource that takes labels. */
  labels: Record<string, string>;
  /** `checkpoints:ciRunners`; absent: GitHub-hosted. */
  ciRunners?: CiRunnerSpec;
  /** `checkpoints:environment`: a prod bucket drops the project's convenience bindings. */
  environment: string;
}

/**
 * One checkpoint store: a private bucket (versioned, or with a hierarchical namespace and an optional
 * Anywhere Cache on the high-throughput tier), its lifecycle, an optional customer-managed key, and a
 * writer and a reader service account with object roles on that bucket alone; in prod, without the
 * project's convenience bindings.
 */
export class CheckpointStore extends pulumi.ComponentResource {
  readonly outputs: StoreOutputs<pulumi.Output<string>>;

  constructor(name: string, args: CheckpointStoreArgs, opts?: pulumi.ComponentResourceOptions) {
    // The component's inputs carry what libs/analysis judges the rendered resources against: the spec's
    // retention (the retention-promises rule), location and workload (the storage and cost projection),
    // and the settings a previous render is compared with (replacementIssues).
    // Children are named after the store, so they inherit the aliases with the former name in place of
    // the new one: a rename keeps every URN.
    super(COMPONENT_TYPES.store.gcp, name, gcpStoreInputs(args), {
      ...opts,
      aliases: [...(opts?.aliases ?? []), ...formerNameAliases(args.store)],
    });
    const { store, location, labels } = args;
    // Released, never deleted, by any deploy in any environment; `protect` also stops replacing them.
    const protection = { protect: store.protect, retainOnDelete: true };

    const identities = createStoreIdentities(this, name, args.names);
    const key =
      store.encryption === 'customer-managed'
        ? createCustomerManagedKey(this, name, {
            names: args.names,
            location: keyLocation(location, store),
            labels,
            protection,
            generation: store.keyGeneration,
          })
        : undefined;
    const bucket = new Bucket(
      `${name}-bucket`,
      checkpointBucketArgs({
        name: names.gcsBucket(args.names),
        store,
        location,
        labels,
        ...(key ? { kmsKeyName: key.key.id } : {}),
        ...(args.ciRunners ? { ciRunners: args.ciRunners } : {}),
      }),
      // The storage service agent must hold the key before the bucket names it as its default.
      { parent: this, ...protection, dependsOn: key ? [key.serviceAgentGrant] : [] },
    );
    grantBucketAccess(this, name, bucket, identities, store.access);
    // In prod no project-wide basic-role holder reads, writes or deletes checkpoints: only the principals
    // the store names. Elsewhere the project's people keep the cloud's defaults to look at their data.
    if (args.environment === 'prod') removeConvenienceBindings(this, name, bucket);
    if (store.tier === 'high-throughput' && store.zone !== undefined) {
      createAnywhereCache(this, name, bucket, store.zone);
    }
    for (const warning of gcsRetentionWarnings(store.tier, store.retention)) {
      void pulumi.log.warn(`store ${store.name}: ${warning}`, this);
    }

    this.outputs = storeOutputs(bucket, location, identities);
    this.registerOutputs(this.outputs);
  }
}

/**
 * The component's inputs: the common ones, the store's recovery options (a replica region changes where
 * the bucket lives, which a previous render is compared with), and what the Data Access audit rule checks
 * against the bootstrap render: whether the store is audited, in which project, with which exemptions.
 */
export function gcpStoreInputs(
  args: Pick<CheckpointStoreArgs, 'store' | 'location' | 'project' | 'auditExemptMembers' | 'ciRunners'>,
): Record<string, unknown> {
  return {
    ...storeComponentInputs(args.store, args.location),
    recovery: args.store.recovery,
    // The gcp-gcs-ip-filter rule reads it: a prod bucket without a filter is compliant only when declared public.
    ...(args.store.network === undefined ? {} : { network: args.store.network }),
    // The rights check reads it: where CI's calls on the bucket come from, which its IP filter must admit.
    ciRunners: args.ciRunners ?? { kind: 'github-hosted' },
    audit: {
      enabled: args.store.audit,
      project: args.project,
      exemptMembers: [...args.auditExemptMembers],
    },
  };
}

/** The outputs every cloud's stores export; `env` is what a training job needs as is: no key or token, only names. */
function storeOutputs(
  bucket: Bucket,
  location: string,
  identities: StoreIdentities,
): StoreOutputs<pulumi.Output<string>> {
  const uri = pulumi.interpolate`gs://${bucket.name}/`;
  return {
    uri,
    location: pulumi.output(location),
    writerIdentity: identities.writer.email,
    readerIdentity: identities.reader.email,
    env: {
      CHECKPOINT_URI: uri,
      GOOGLE_CLOUD_PROJECT: bucket.project,
      CHECKPOINT_SERVICE_ACCOUNT: identities.writer.email,
    },
  };
}

/** Settings a bucket cannot change in place, per the change rules of libs/analysis/src/changes/gcp.ts. */
export const STORE_REPLACING_SETTINGS: readonly ReplacingSetting[] = [
  {
    key: 'tier',
    consequence:
      'the tiers differ in hierarchical namespace, which is set when a bucket is created, so the bucket would be replaced by a new, empty one',
  },
  {
    key: 'location',
    consequence:
      "a bucket's location is set when it is created, so the bucket would be replaced by a new, empty one",
  },
  {
    key: 'recovery',
    consequence:
      "adding, changing or removing recovery.replicaRegion changes the bucket's location (a dual-region is its own location, set when the bucket is created), so the bucket would be replaced by a new, empty one",
    refuses: (before, after) => replicaOf(before) !== replicaOf(after),
  },
  {
    key: 'encryption',
    consequence:
      'dropping the customer-managed key would leave the checkpoints encrypted with a key ring and key the stack no longer manages',
    refuses: (before, after) => before === 'customer-managed' && after !== 'customer-managed',
  },
];

function replicaOf(recovery: unknown): unknown {
  return typeof recovery === 'object' && recovery !== null
    ? (recovery as { replicaRegion?: unknown }).replicaRegion
    : undefined;
}
