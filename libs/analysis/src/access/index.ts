import type { Cloud } from '@checkpoints/config';
import { storesOf, type Render } from '../render';
import { awsStoreAccess } from './aws';
import { azureStoreAccess } from './azure';
import { gcpStoreAccess } from './gcp';
export {
  gcsIpFilterVerdict,
  ipInRange,
  type GcsNetworkRequest,
  type GcsNetworkVerdict,
  type GcsRequestSource,
} from './gcp';
import {
  environmentOf,
  type AccessAnalysis,
  type AccessGrant,
  type StoreAccess,
  type StoreAccessInput,
} from './model';

export * from './model';
export {
  allows as azureRoleAllows,
  CHECKPOINT_WRITER_ROLE,
  checkpointWriterRoleGuid,
  roleDefinitionsOf as azureRoleDefinitionsOf,
} from './azure';
export {
  allowed as awsRequestAllowed,
  awsStoreAccess,
  defaultKeyPolicy as awsDefaultKeyPolicy,
  insideOrigin,
  type AwsNetworkOrigin,
  type AwsPrincipal,
  type PolicyDocument,
} from './aws';

const BY_CLOUD: Record<Cloud, (input: StoreAccessInput) => Promise<AccessGrant[]>> = {
  aws: awsStoreAccess,
  gcp: gcpStoreAccess,
  azure: azureStoreAccess,
};

/**
 * The effective access of every principal that can reach each store of `render`: its identities, the
 * principals in its `access`, the CI identities of `bootstrap` and what the cloud grants by default.
 */
export async function analyzeAccess(
  render: Pick<Render, 'resources'>,
  bootstrap?: Pick<Render, 'resources'>,
): Promise<AccessAnalysis> {
  const stores: StoreAccess[] = [];
  for (const store of storesOf(render)) {
    const grants = await BY_CLOUD[store.cloud]({ store, render, bootstrap });
    stores.push({ store: store.name, cloud: store.cloud, environment: environmentOf(store), grants });
  }
  return { ciChecked: bootstrap !== undefined, stores };
}
export {
  accountNetworkOf,
  networkAllows,
  type AccountNetwork,
  type NetworkOrigin,
  type NetworkVerdict,
} from './azure-network';
