import type { Cloud } from '@checkpoints/config';
import { contextMemo, createAnalysisContext, type AnalysisContext } from '../context';
import { storesOf, type Render } from '@checkpoints/render';
import { awsStoreAccess } from './aws';
import { azureAccessOf } from './azure';
import { gcpAccessOf } from './gcp';
export {
  gcsIpFilterVerdict,
  ipInRange,
  type GcsNetworkRequest,
  type GcsNetworkVerdict,
  type GcsRequestSource,
} from './gcp';
import {
  environmentOf,
  tagOf,
  type AccessAnalysis,
  type RendersInput,
  type StoreAccess,
  type StoreAccessOf,
} from './model';

export * from './model';
export { allows as azureRoleAllows, roleDefinitionsOf as azureRoleDefinitionsOf } from './azure';
export {
  allowed as awsRequestAllowed,
  awsStoreTokens,
  awsStoreAccess,
  defaultKeyPolicy as awsDefaultKeyPolicy,
  insideOrigin,
  type AwsNetworkOrigin,
  type AwsPrincipal,
  type PolicyDocument,
} from './aws';

/** Per cloud, the access of a store of one analysis' render (Azure and GCP read the render once for all its stores). */
const BY_CLOUD: Record<Cloud, (input: RendersInput) => StoreAccessOf> = {
  aws: (input) => (store) => awsStoreAccess({ ...input, store }),
  gcp: gcpAccessOf,
  azure: azureAccessOf,
};

/**
 * The effective access of every principal that can reach each store of `render`: its identities, the
 * principals in its `access`, the CI identities of `bootstrap` and what the cloud grants by default.
 */
export function analyzeAccess(
  render: Pick<Render, 'resources'>,
  bootstrap?: Pick<Render, 'resources'>,
): Promise<AccessAnalysis> {
  return accessAnalysisOf(createAnalysisContext(render, bootstrap));
}

/** analyzeAccess of the context's render and bootstrap render, worked out once per context. */
export const accessAnalysisOf: (context: AnalysisContext) => Promise<AccessAnalysis> = contextMemo(
  (context) => analysis(context),
);

async function analysis(context: AnalysisContext): Promise<AccessAnalysis> {
  const render = { resources: context.resources };
  const { bootstrap } = context;
  const stores: StoreAccess[] = [];
  const byCloud = new Map<Cloud, StoreAccessOf>();
  for (const store of storesOf(render)) {
    let accessOf = byCloud.get(store.cloud);
    if (!accessOf) {
      accessOf = BY_CLOUD[store.cloud]({ render, bootstrap, context });
      byCloud.set(store.cloud, accessOf);
    }
    const grants = await accessOf(store);
    stores.push({
      store: store.name,
      cloud: store.cloud,
      environment: environmentOf(store),
      dataClassification: tagOf(store, 'data-classification'),
      grants,
    });
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
