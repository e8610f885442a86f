import type { Cloud } from '@checkpoints/config';
import { contextMemo, createAnalysisContext, type AnalysisContext } from '../context';
import { storesOf, type Render } from '@checkpoints/render';
import { awsStoreAccess } from './aws';
import { azureAccessOf } from './azure';
import { gcpAccessOf } from './gcp';
import { unreadGrantAccess, unreadGrantsOf } from './unread-grants';
export {
  gcsIpFilterVerdict,
  ipInRange,
  type GcsNetworkRequest,
  type GcsNetworkVerdict,
  type GcsRequestSource,
} from './gcp';
import {
  ciTrustOf,
  environmentsOf,
  probeTokens,
  reachOf,
  ciRepositoryOf,
  tokenLabel,
  type IdentityTrust,
} from '../trust';
import {
  environmentOf,
  tagOf,
  type AccessAnalysis,
  type AccessGrant,
  type CiTrust,
  type RendersInput,
  type StoreAccess,
  type StoreAccessOf,
} from './model';

export * from './model';
export {
  AWS_MALWARE_SCAN_PRINCIPAL,
  AWS_PERIMETER_SERVICES,
  awsAdmittedServiceRoles,
  type AwsAdmittedServiceRole,
} from './aws-service-roles';
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

/**
 * The grants of the principals the store's component lists as external (`externalPrincipals` of the stack
 * config), each with the reason given for it. A config principal names the cloud's identifier as is, or
 * after its type (`group:<object ID>` on Azure).
 */
function withExternalReasons(
  grants: AccessGrant[],
  render: Pick<Render, 'resources'>,
  storeUrn: string,
): AccessGrant[] {
  const listed = render.resources.find((resource) => resource.urn === storeUrn)?.inputs['externalPrincipals'];
  if (!Array.isArray(listed) || listed.length === 0) return grants;
  const reasonOf = (id: string) =>
    (listed as { principal?: unknown; reason?: unknown }[]).find(
      ({ principal }) => typeof principal === 'string' && (principal === id || principal.endsWith(`:${id}`)),
    )?.reason;
  return grants.map((grant) => {
    const reason = reasonOf(grant.principal.id);
    return typeof reason === 'string'
      ? { ...grant, reason: `${grant.reason}; an external principal, listed because: ${reason}` }
      : grant;
  });
}

async function analysis(context: AnalysisContext): Promise<AccessAnalysis> {
  const render = { resources: context.resources };
  const { bootstrap } = context;
  const stores: StoreAccess[] = [];
  const byCloud = new Map<Cloud, StoreAccessOf>();
  const unreadByCloud = new Map<Cloud, AccessGrant[]>();
  for (const store of storesOf(render)) {
    let accessOf = byCloud.get(store.cloud);
    if (!accessOf) {
      accessOf = BY_CLOUD[store.cloud]({ render, bootstrap, context });
      byCloud.set(store.cloud, accessOf);
    }
    // Fail closed: a grant resource no model reads counts as granting everything to someone unknown.
    let unread = unreadByCloud.get(store.cloud);
    if (!unread) {
      unread = unreadGrantsOf(store.cloud, render, bootstrap).flatMap(unreadGrantAccess);
      unreadByCloud.set(store.cloud, unread);
    }
    const grants = [...withExternalReasons(await accessOf(store), render, store.urn), ...unread];
    stores.push({
      store: store.name,
      cloud: store.cloud,
      environment: environmentOf(store),
      dataClassification: tagOf(store, 'data-classification'),
      grants,
    });
  }
  const clouds = new Set(stores.map((store) => store.cloud));
  const trust = bootstrap
    ? ciTrustTable(
        bootstrap,
        ciTrustOf(bootstrap).filter((each) => clouds.has(each.cloud)),
      )
    : [];
  return { ciChecked: bootstrap !== undefined, stores, ...(trust.length > 0 ? { trust } : {}) };
}

/** The trust of each identity for the access table: its paths and the probe tokens they admit. */
function ciTrustTable(bootstrap: Pick<Render, 'resources'>, trusts: readonly IdentityTrust[]): CiTrust[] {
  const repository = ciRepositoryOf(bootstrap, trusts);
  const environments = environmentsOf(trusts);
  return trusts.map((trust) => ({
    identity: trust.identity.label,
    cloud: trust.cloud,
    paths: trust.paths.map((path) => ({ where: path.where, subjects: path.subjects })),
    reachedBy:
      'fullName' in repository
        ? [
            ...new Set(
              reachOf(trust, probeTokens(repository, environments, trust.audience)).map(
                (reach) => `${tokenLabel(reach.token)}${reach.assumed ? ` (assumed: ${reach.assumed})` : ''}`,
              ),
            ),
          ]
        : [`not judged: ${repository.why}`],
    binding: trust.paths.every((path) => path.bindsImmutableIds)
      ? 'bound to the immutable repository ids'
      : `bound to the repository name: ${trust.immutableIdsNote}`,
  }));
}
export {
  accountNetworkOf,
  networkAllows,
  type AccountNetwork,
  type NetworkOrigin,
  type NetworkVerdict,
} from './azure-network';
export { awsCiChangesOf, type CiChange } from './aws-ci-changes';
export { unreadGrantAccess, unreadGrantType } from './unread-grants';
