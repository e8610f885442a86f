import * as pulumi from '@pulumi/pulumi';
import {
  firstName,
  formerNameAliases,
  PRIVATE_DNS_MANAGED_BY_POLICY,
  storeComponentInputs,
  type ReplacingSetting,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { azureTags, standardTags } from '@checkpoints/tagging';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { applyLifecycle, createAccount, createFilesystem, enableSoftDelete } from './account';
import { customerManagedKey, keyLogicalName, microsoftManagedKeys } from './encryption';
import { createStoreIdentities, grantFilesystemAccess } from './identities';
import { auditStore, type AuditDestinations } from './audit';
import { lockFilesystem } from './immutability';
import { lockAgainstDeletion } from './locks';
import { createPrivateEndpoints } from './network';
import { protectFromMalware } from './threat-protection';
import { names } from '@checkpoints/naming';
import type { StoreScope } from './scope';

export interface CheckpointStoreArgs {
  store: StoreSpec;
  stack: Pick<StackSpec, 'environment' | 'owner' | 'costCenter'>;
  location: string;
  resourceGroupName: pulumi.Input<string>;
  subscriptionId: pulumi.Output<string>;
  tenantId: pulumi.Output<string>;
  /** Where the store's audit records go; present when the store is audited (`store.audit`). */
  audit?: AuditDestinations;
}

/** One checkpoint store on ADLS Gen2: account, filesystem, lifecycle, encryption and identities. */
export class CheckpointStore extends pulumi.ComponentResource {
  readonly outputs: StoreOutputs<pulumi.Output<string>>;

  constructor(name: string, args: CheckpointStoreArgs, opts?: pulumi.ComponentResourceOptions) {
    // The component's inputs carry what libs/analysis judges the rendered resources against: the spec's
    // retention (the retention-promises rule), location and workload (the storage and cost projection),
    // and the settings a previous render is compared with (replacementIssues).
    // Children are named after the store, so they inherit the aliases with the former name in place of
    // the new one: a rename keeps every URN.
    // A store open to every network in prod says so, for the perimeter rule of the policy pack; one whose
    // endpoints' DNS records come from Azure Policy says so, for the private endpoint DNS rule; `audit`, for
    // the compliance view (libs/analysis), which accepts an unaudited store's missing resource logs.
    const inputs = {
      ...storeComponentInputs(args.store, args.location),
      audit: args.store.audit,
      ...(args.store.network?.public ? { network: { public: true } } : {}),
      ...(args.store.network?.privateDnsZones === PRIVATE_DNS_MANAGED_BY_POLICY
        ? { network: { privateDnsZones: PRIVATE_DNS_MANAGED_BY_POLICY } }
        : {}),
    };
    super(COMPONENT_TYPES.store.azure, name, inputs, {
      ...opts,
      aliases: [...(opts?.aliases ?? []), ...formerNameAliases(args.store)],
    });
    const { store, stack } = args;
    const stackNames = { project: pulumi.getProject(), stack: pulumi.getStack() };
    const scope: StoreScope = {
      parent: this,
      store,
      names: { ...stackNames, store: firstName(store) },
      tags: azureTags(
        standardTags({
          ...stack,
          ...stackNames,
          store: store.name,
          dataClassification: store.dataClassification,
        }),
      ),
      location: args.location,
      resourceGroupName: args.resourceGroupName,
      subscriptionId: args.subscriptionId,
      tenantId: args.tenantId,
    };

    const identities = createStoreIdentities(scope);
    const keys = store.encryption === 'customer-managed' ? customerManagedKey(scope) : microsoftManagedKeys();
    const account = createAccount(scope, keys);
    const filesystem = createFilesystem(scope, account, enableSoftDelete(scope, account));
    lockFilesystem(scope, account, filesystem);
    applyLifecycle(scope, account);
    grantFilesystemAccess(scope, filesystem, identities);
    createPrivateEndpoints(scope, account, names.storageAccount(scope.names));
    protectFromMalware(scope, account, stack.environment);
    if (args.audit !== undefined) auditStore(scope, account, keys.vault, args.audit);
    if (store.protect) {
      lockAgainstDeletion(scope, `${store.name}-lock`, account.id, 'storage account');
      if (keys.vault)
        lockAgainstDeletion(
          scope,
          keyLogicalName(scope, `${store.name}-lock-vault`),
          keys.vault.id,
          'key vault',
        );
    }

    const uri = pulumi.interpolate`abfss://${filesystem.name}@${account.name}.dfs.core.windows.net/`;
    this.outputs = {
      uri,
      location: pulumi.output(args.location),
      writerIdentity: identities.writer.clientId,
      readerIdentity: identities.reader.clientId,
      env: {
        CHECKPOINT_URI: uri,
        AZURE_STORAGE_ACCOUNT_NAME: account.name,
        AZURE_CLIENT_ID: identities.writer.clientId,
        AZURE_TENANT_ID: args.tenantId,
        // adlfs (fsspec's abfss://) is anonymous unless told otherwise; with this it uses DefaultAzureCredential.
        AZURE_STORAGE_ANON: pulumi.output('false'),
      },
    };
    this.registerOutputs(this.outputs);
  }
}

/** Settings a storage account cannot change in place, per the change rules of libs/analysis/src/changes/azure.ts. */
export const STORE_REPLACING_SETTINGS: readonly ReplacingSetting[] = [
  {
    key: 'tier',
    consequence:
      'the tiers differ in account kind and SKU (StorageV2 Standard_ZRS, BlockBlobStorage Premium_ZRS), which are set when an account is created, so the account would be replaced by a new, empty one',
  },
  {
    key: 'encryption',
    consequence:
      'the key vault, its key and the encryption identity would be released and the account would fall back to Microsoft-managed keys, a weaker protection than the store was created with',
    refuses: (before, after) => before === 'customer-managed' && after !== 'customer-managed',
  },
];
