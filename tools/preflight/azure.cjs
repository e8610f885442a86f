/**
 * The read-only preflight of the Azure stack: what its first deploy needs, asked with the caller's own
 * credentials (DefaultAzureCredential: az login, environment, managed identity) through the Azure SDK,
 * never a write (GET requests only; the tests hold it to that).
 */
const { Buffer } = require('node:buffer');
const { URL } = require('node:url');
const { DefaultAzureCredential } = require('@azure/identity');
const { ResourceManagementClient } = require('@azure/arm-resources');
const { SubscriptionClient } = require('@azure/arm-resources-subscriptions');
const {
  bearerTokenAuthenticationPolicy,
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
} = require('@azure/core-rest-pipeline');
const { checklist, missing } = require('./checks.cjs');

/**
 * @typedef {import('./checks.cjs').Check} Check
 * @typedef {import('@azure/identity').TokenCredential} TokenCredential
 * @typedef {import('@azure/core-rest-pipeline').HttpClient} HttpClient
 * @typedef {{ credential: TokenCredential, httpClient?: HttpClient }} AzureConnection
 * @typedef {(name: string, question: () => Promise<string>) => Promise<void>} Ask
 * @typedef {{ account: string, container: string }} StateContainer
 * @typedef {{
 *   environment: string, subscriptionId?: string, resourceGroup?: string, bootstrapResourceGroup?: string,
 *   providers: string[], stateContainer?: StateContainer,
 * }} AzureTarget
 */

/**
 * The resource provider of each azure-native module the stacks and the bootstrap import: a deployment
 * of a type whose provider the subscription is not registered for fails with
 * MissingSubscriptionRegistration
 * (https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-register-resource-provider).
 * monitor's DiagnosticSetting is Microsoft.Insights/diagnosticSettings
 * (https://learn.microsoft.com/azure/templates/microsoft.insights/diagnosticsettings).
 */
// libs/render's AZURE_MODULE_PROVIDERS, which this plain-Node script cannot import; a test holds them equal.
const AZURE_NATIVE_PROVIDERS = {
  authorization: 'Microsoft.Authorization',
  dataprotection: 'Microsoft.DataProtection',
  keyvault: 'Microsoft.KeyVault',
  managedidentity: 'Microsoft.ManagedIdentity',
  monitor: 'Microsoft.Insights',
  network: 'Microsoft.Network',
  operationalinsights: 'Microsoft.OperationalInsights',
  resources: 'Microsoft.Resources',
  security: 'Microsoft.Security',
  storage: 'Microsoft.Storage',
};

/**
 * The azure-native modules the stack renders from, given its config: private endpoints only for a store
 * that has a privateEndpointSubnet, Defender for Storage only in prod.
 * @param {{ environment: string, stores: unknown }} stack
 * @returns {(keyof typeof AZURE_NATIVE_PROVIDERS)[]}
 */
function azureStackModules({ environment, stores }) {
  const list = Array.isArray(stores) ? stores : [];
  const privateEndpoints = list.some((store) => store?.network?.privateEndpointSubnet !== undefined);
  return [
    'authorization',
    'keyvault',
    'managedidentity',
    'monitor',
    ...(privateEndpoints ? /** @type {const} */ (['network']) : []),
    'operationalinsights',
    'resources',
    ...(environment === 'prod' ? /** @type {const} */ (['security']) : []),
    'storage',
  ];
}

/**
 * The modules the bootstrap renders from on Azure: its identities, their roles and resource groups, and the
 * write-once archive of the prod stores' resource logs (a storage account).
 */
const AZURE_BOOTSTRAP_MODULES = /** @type {const} */ ([
  'authorization',
  'dataprotection',
  'managedidentity',
  'resources',
  'storage',
]);

/** @returns {AzureConnection} the SDK's default credential chain */
function azureConnection() {
  return { credential: new DefaultAzureCredential() };
}

/** @param {AzureConnection} connection */
function clientOptions(connection) {
  return connection.httpClient ? { httpClient: connection.httpClient } : {};
}

/**
 * Azure's own words for a failed call, with what to do when it is the credentials.
 * @param {unknown} error
 */
function failure(error) {
  const { name = 'Error', message = String(error) } =
    error instanceof Error ? error : /** @type {{ name?: string, message?: string }} */ ({});
  // DefaultAzureCredential reports every credential it tried in one AggregateAuthenticationError.
  if (
    ['CredentialUnavailableError', 'AuthenticationRequiredError', 'AggregateAuthenticationError'].includes(
      name,
    )
  ) {
    return `no Azure credentials: run az login (or set AZURE_CLIENT_ID, AZURE_TENANT_ID and a secret or federated token) and run it again (${message})`;
  }
  const { statusCode, code } = /** @type {{ statusCode?: number, code?: string }} */ (error);
  return [statusCode && `HTTP ${statusCode}`, code, message].filter(Boolean).join(': ');
}

/** @param {unknown} error @returns {number | undefined} */
function statusOf(error) {
  const status = /** @type {{ statusCode?: unknown }} */ (error)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The caller, from the claims of its Resource Manager token (an Entra ID access token, a JWT:
 * https://learn.microsoft.com/entra/identity-platform/access-token-claims-reference).
 * @param {AzureConnection} connection
 */
async function azureCaller(connection) {
  const token = await connection.credential.getToken('https://management.azure.com/.default');
  if (!token) return missing('the credential gave no token: run az login');
  const payload = token.token.split('.')[1] ?? '';
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8') || '{}');
  const who =
    claims.upn ?? claims.unique_name ?? (claims.appid && `application ${claims.appid}`) ?? 'someone';
  return `${who} (object ${claims.oid ?? 'unknown'}) in tenant ${claims.tid ?? 'unknown'}`;
}

/**
 * Subscriptions - Get (https://learn.microsoft.com/rest/api/resources/subscriptions/get): Enabled.
 * @param {AzureConnection} connection @param {string | undefined} subscriptionId
 */
async function subscriptionEnabled(connection, subscriptionId) {
  if (!subscriptionId) {
    return missing(
      "no subscription: set azure-native:subscriptionId (or ARM_SUBSCRIPTION_ID) to the stack's subscription",
    );
  }
  try {
    const found = await new SubscriptionClient(
      connection.credential,
      clientOptions(connection),
    ).subscriptions.get(subscriptionId);
    if (found.state !== 'Enabled')
      return missing(`subscription ${subscriptionId} is ${found.state ?? 'in no known state'}, not Enabled`);
    return `${found.displayName ?? subscriptionId}, Enabled`;
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 403) {
      return missing(
        `subscription ${subscriptionId} not found for you (HTTP ${statusOf(error)}): sign in to its tenant, or get Reader on it`,
      );
    }
    throw error;
  }
}

/**
 * Providers - Get (https://learn.microsoft.com/rest/api/resources/providers/get): registrationState.
 * @param {Ask} ask @param {AzureConnection} connection @param {string | undefined} subscriptionId
 * @param {readonly string[]} providers
 */
async function providersRegistered(ask, connection, subscriptionId, providers) {
  for (const namespace of providers) {
    await ask(`resource provider ${namespace} registered`, async () => {
      if (!subscriptionId) return missing('no subscription to ask');
      const client = new ResourceManagementClient(
        connection.credential,
        subscriptionId,
        clientOptions(connection),
      );
      const { registrationState } = await client.providers.get(namespace);
      if (registrationState === 'Registered') return 'Registered';
      return missing(
        `${registrationState ?? 'unknown'}: register it once per subscription (az provider register --namespace ${namespace}; the CI identities cannot, their rights are resource-group-scoped)`,
      );
    });
  }
}

/**
 * Resource Groups - Get (https://learn.microsoft.com/rest/api/resources/resource-groups/get).
 * @param {AzureConnection} connection @param {string} subscriptionId @param {string} group @param {string} fix
 */
async function resourceGroupExists(connection, subscriptionId, group, fix) {
  try {
    const client = new ResourceManagementClient(
      connection.credential,
      subscriptionId,
      clientOptions(connection),
    );
    const found = await client.resourceGroups.get(group);
    return `${found.id ?? group} in ${found.location ?? 'unknown location'}`;
  } catch (error) {
    if (statusOf(error) === 404) return missing(`no resource group ${group}: ${fix}`);
    throw error;
  }
}

/**
 * The blob container of an azblob:// state backend: Get Container Properties, a GET
 * (https://learn.microsoft.com/rest/api/storageservices/get-container-properties), with an Entra token
 * for Storage (https://learn.microsoft.com/rest/api/storageservices/authorize-with-azure-active-directory).
 * @param {AzureConnection} connection @param {StateContainer} state
 */
async function containerAnswers(connection, { account, container }) {
  const pipeline = createPipelineFromOptions({});
  pipeline.addPolicy(
    bearerTokenAuthenticationPolicy({
      credential: connection.credential,
      scopes: 'https://storage.azure.com/.default',
    }),
  );
  const response = await pipeline.sendRequest(
    connection.httpClient ?? createDefaultHttpClient(),
    createPipelineRequest({
      url: `https://${account}.blob.core.windows.net/${container}?restype=container`,
      method: 'GET',
      // Entra ID authorization needs version 2017-11-09 or later (the page above).
      headers: createHttpHeaders({ 'x-ms-version': '2021-12-02' }),
    }),
  );
  if (response.status === 200) return 'the container answers';
  if (response.status === 404)
    return missing(`no container ${container} in ${account}: create it, or fix PULUMI_BACKEND_URL`);
  return missing(
    `HTTP ${response.status}: reading it needs a Storage Blob Data role on the container (Storage Blob Data Reader at least)`,
  );
}

/**
 * `azblob://<container>?storage_account=<account>` (docs/deploy.md, state backends).
 * @param {string} url @returns {StateContainer | undefined}
 */
function stateContainerOf(url) {
  if (!url.startsWith('azblob://')) return undefined;
  const parsed = new URL(url);
  const account = parsed.searchParams.get('storage_account') ?? '';
  return { account, container: parsed.hostname };
}

/**
 * The subscription- and tenant-level settings the Azure compliance controls judged outside the repository
 * need, keyed by the ids of the controls they answer (a test holds this table to @checkpoints/analysis's
 * AZURE_COMPLIANCE). None today: the Azure stack renders every control it is judged on, Defender for Storage
 * included.
 * @type {readonly import('./checks.cjs').Prerequisite<{ connection: AzureConnection, subscriptionId?: string }>[]}
 */
const AZURE_PREREQUISITES = [];

/**
 * @param {AzureConnection} connection
 * @param {AzureTarget} target
 * @returns {Promise<Check[]>} one check per question, in order; a failed question never stops the others
 */
async function azurePreflight(connection, target) {
  const { checks, ask, askPrerequisites } = checklist(failure);
  const { environment, subscriptionId, resourceGroup } = target;
  await ask('who am I', () => azureCaller(connection));
  await ask(`subscription ${subscriptionId ?? '(not set)'} reachable`, () =>
    subscriptionEnabled(connection, subscriptionId),
  );
  await providersRegistered(ask, connection, subscriptionId, target.providers);
  await ask(
    `bootstrap deploys environment ${environment} into ${resourceGroup ?? '(no resource group)'}`,
    async () => {
      if (resourceGroup !== undefined && target.bootstrapResourceGroup === resourceGroup) {
        return `bootstrap:azure.stackResourceGroups.${environment} names it`;
      }
      return missing(
        `checkpoints:resourceGroupName is ${resourceGroup ?? 'not set'}, bootstrap:azure.stackResourceGroups.${environment} ${target.bootstrapResourceGroup ?? 'not set'}: the deploy identity holds rights on that group only; make the two the same`,
      );
    },
  );
  if (resourceGroup !== undefined) {
    await ask(`stack resource group ${resourceGroup} exists`, async () => {
      if (!subscriptionId) return missing('no subscription to ask');
      return resourceGroupExists(
        connection,
        subscriptionId,
        resourceGroup,
        'create it (az group create) before the bootstrap',
      );
    });
  }
  const identity = deployIdentityName(environment);
  await ask(`bootstrap applied: deploy identity ${identity}`, async () => {
    if (!subscriptionId) return missing('no subscription to ask');
    // Resources - List (https://learn.microsoft.com/rest/api/resources/resources/list), filtered by type.
    const client = new ResourceManagementClient(
      connection.credential,
      subscriptionId,
      clientOptions(connection),
    );
    for await (const resource of client.resources.list({
      filter: "resourceType eq 'Microsoft.ManagedIdentity/userAssignedIdentities'",
    })) {
      if (resource.name === identity) return `${resource.id}`;
    }
    return missing(
      `no managed identity ${identity} in the subscription: apply the bootstrap (npx nx run bootstrap:admin-up)`,
    );
  });
  if (target.stateContainer !== undefined) {
    const state = target.stateContainer;
    await ask(`state backend azblob://${state.container} in ${state.account} reachable`, () =>
      containerAnswers(connection, state),
    );
  }
  await askPrerequisites(AZURE_PREREQUISITES, { connection, ...(subscriptionId ? { subscriptionId } : {}) });
  return checks;
}

/**
 * The bootstrap's deploy identity of an environment: checkpoints-<bootstrap stack>-deploy-<env>, on the
 * bootstrap stack ci (docs/bootstrap.md).
 * @param {string} environment
 */
function deployIdentityName(environment) {
  return `checkpoints-ci-deploy-${environment}`;
}

module.exports = {
  AZURE_BOOTSTRAP_MODULES,
  AZURE_PREREQUISITES,
  AZURE_NATIVE_PROVIDERS,
  azureCaller,
  azureConnection,
  azurePreflight,
  azureStackModules,
  containerAnswers,
  deployIdentityName,
  failure,
  providersRegistered,
  resourceGroupExists,
  stateContainerOf,
  subscriptionEnabled,
};
