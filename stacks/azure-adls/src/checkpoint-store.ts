import * as pulumi from '@pulumi/pulumi';
import {
  firstName,
  formerNameAliases,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { azureTags, standardTags } from '@checkpoints/tagging';
import { applyLifecycle, createAccount, createFilesystem, enableSoftDelete } from './account';
import { customerManagedKey, microsoftManagedKeys } from './encryption';
import { createStoreIdentities, grantFilesystemAccess } from './identities';
import type { StoreScope } from './scope';

export interface CheckpointStoreArgs {
  store: StoreSpec;
  stack: Pick<StackSpec, 'environment' | 'owner' | 'costCenter'>;
  location: string;
  resourceGroupName: pulumi.Input<string>;
  subscriptionId: pulumi.Output<string>;
  tenantId: pulumi.Output<string>;
}

/** One checkpoint store on ADLS Gen2: account, filesystem, lifecycle, encryption and identities. */
export class CheckpointStore extends pulumi.ComponentResource {
  readonly outputs: StoreOutputs<pulumi.Output<string>>;

  constructor(name: string, args: CheckpointStoreArgs, opts?: pulumi.ComponentResourceOptions) {
    // The spec's retention, which the retention-promises rule judges the rendered lifecycle against, and
    // the store's location and workload, which the storage and cost projection prices.
    // Children are named after the store, so they inherit the aliases with the former name in place of
    // the new one: a rename keeps every URN.
    super(
      'checkpoints:azure:CheckpointStore',
      name,
      {
        tier: args.store.tier,
        retention: args.store.retention,
        location: args.location,
        workload: args.store.workload ?? {},
      },
      {
        ...opts,
        aliases: [...(opts?.aliases ?? []), ...formerNameAliases(args.store)],
      },
    );
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
    applyLifecycle(scope, account);
    grantFilesystemAccess(scope, filesystem, identities);

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
