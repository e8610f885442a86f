/**
 * The read-only preflight of the GCP stack: what its first deploy needs, asked with the caller's own
 * Application Default Credentials through Google's auth library, never a write (GET requests only; the
 * tests hold it to that).
 */
const { GoogleAuth } = require('google-auth-library');
const { checklist, missing } = require('./checks.cjs');

/**
 * @typedef {import('./checks.cjs').Check} Check
 * @typedef {Pick<import('google-auth-library').AuthClient, 'request'>} GcpClient
 * @typedef {(url: string) => Promise<any>} Get
 * @typedef {{ kind?: string, networks?: string[], egressCidrs?: string[] }} CiRunners
 * @typedef {{
 *   environment: string, project: string, bootstrapProject?: string, ciProject?: string,
 *   stateBucket?: string, ipFilteredStores: string[], ciRunners: CiRunners,
 * }} GcpTarget
 * @typedef {{ get: Get, project: string, organization: () => Promise<string | undefined> }} GcpProject
 */

/**
 * The APIs the GCP stack calls in its project; the bootstrap enables the same list there (its
 * GCP_STACK_APIS, which a test holds this list to). A call to an API that is off fails with
 * SERVICE_DISABLED (https://cloud.google.com/service-usage/docs/enable-disable).
 */
const GCP_STACK_APIS = [
  'cloudkms.googleapis.com',
  'cloudresourcemanager.googleapis.com',
  'iam.googleapis.com',
  'storage.googleapis.com',
];

/**
 * cloud-platform for the APIs; userinfo.email so that the token info names the caller ("email: present only
 * if the email scope is present",
 * https://googleapis.dev/dotnet/Google.Apis.Oauth2.v2/latest/api/Google.Apis.Oauth2.v2.Data.Tokeninfo.html).
 */
const SCOPES = [
  'https://www.googleapis.com/auth/cloud-platform',
  'https://www.googleapis.com/auth/userinfo.email',
];

/** @returns {Promise<GcpClient>} the Application Default Credentials' client (gcloud auth application-default login) */
function gcpClient() {
  return new GoogleAuth({ scopes: SCOPES }).getClient();
}

/**
 * The client made once, when a question first needs it: one that cannot be made fails each question.
 * @param {() => Promise<GcpClient>} makeClient @returns {() => Promise<GcpClient>}
 */
function once(makeClient) {
  /** @type {Promise<GcpClient> | undefined} */
  let client;
  return () => (client ??= makeClient());
}

/**
 * GET requests through the client.
 * @param {() => Promise<GcpClient>} client
 * @returns {Get}
 */
function gcpGet(client) {
  return async (url) => (await (await client()).request({ url, method: 'GET' })).data;
}

/** @param {unknown} error @returns {number | undefined} the HTTP status of a failed call */
function statusOf(error) {
  const status = /** @type {{ response?: { status?: unknown } }} */ (error)?.response?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Google's own words for a failed call, with what to do when it is the credentials.
 * @param {unknown} error
 */
function failure(error) {
  const message = error instanceof Error ? error.message : String(error);
  if (/default credentials|credential file|invalid_grant|reauth/i.test(message)) {
    return `no usable Google credentials: run gcloud auth application-default login (or set GOOGLE_APPLICATION_CREDENTIALS) and run it again (${message})`;
  }
  const status = statusOf(error);
  return status === undefined ? message : `HTTP ${status}: ${message}`;
}

/**
 * The caller, from its token: Google's OAuth2 tokeninfo endpoint (the one google-auth-library's
 * OAuth2Client.getTokenInfo reads, there by POST), asked by GET with the token as `access_token`
 * (https://googleapis.dev/dotnet/Google.Apis.Oauth2.v2/latest/api/Google.Apis.Oauth2.v2.Data.Tokeninfo.html).
 * @param {() => Promise<GcpClient>} makeClient @param {Get} get
 */
async function gcpCaller(makeClient, get) {
  const client = /** @type {{ getAccessToken?: () => Promise<{ token?: string | null }> }} */ (
    await makeClient()
  );
  const token = (await client.getAccessToken?.())?.token;
  if (!token)
    return missing('the credentials gave no access token: run gcloud auth application-default login');
  const info = await get(`https://oauth2.googleapis.com/tokeninfo?access_token=${encodeURIComponent(token)}`);
  return String(info?.email ?? `a token for client ${info?.aud ?? 'unknown'} (no email in its scopes)`);
}

/**
 * projects.get (Resource Manager v3, https://cloud.google.com/resource-manager/reference/rest/v3/projects/get):
 * the project, ACTIVE. 403 and 404 look alike to a caller who may not see it.
 * @param {Get} get @param {string} project
 */
async function projectActive(get, project) {
  if (!project) return missing('gcp:project is not set: set it to the project the stack deploys into');
  try {
    const found = await get(
      `https://cloudresourcemanager.googleapis.com/v3/projects/${encodeURIComponent(project)}`,
    );
    if (found?.state !== 'ACTIVE')
      return missing(`project ${project} is ${found?.state ?? 'in no known state'}, not ACTIVE`);
    return `${found.name} (${found.parent ?? 'no parent'})`;
  } catch (error) {
    const status = statusOf(error);
    if (status === 403 || status === 404) {
      return missing(
        `project ${project} does not exist or you cannot see it (${failure(error)}): create it, or get resourcemanager.projects.get on it`,
      );
    }
    throw error;
  }
}

/**
 * services.get (Service Usage, https://cloud.google.com/service-usage/docs/reference/rest/v1/services/get):
 * the API's state in the project, ENABLED or DISABLED.
 * @param {Get} get @param {string} project @param {string} api
 * @returns {Promise<boolean>}
 */
async function apiEnabled(get, project, api) {
  const service = await get(
    `https://serviceusage.googleapis.com/v1/projects/${encodeURIComponent(project)}/services/${api}`,
  );
  return service?.state === 'ENABLED';
}

/**
 * buckets.get (Cloud Storage JSON API, https://cloud.google.com/storage/docs/json_api/v1/buckets/get).
 * @param {Get} get @param {string} bucket
 * @returns {Promise<{ found: any, detail: string }>} the bucket's metadata
 */
async function bucketAnswers(get, bucket) {
  try {
    const found = await get(`https://storage.googleapis.com/storage/v1/b/${encodeURIComponent(bucket)}`);
    return { found, detail: 'the bucket answers' };
  } catch (error) {
    if (statusOf(error) === 404) return missing(`no bucket ${bucket}: create it, or fix PULUMI_BACKEND_URL`);
    throw error;
  }
}

/**
 * The organization above a project, through its folders: projects.get and folders.get (Resource Manager
 * v3, https://cloud.google.com/resource-manager/reference/rest/v3/folders/get), both GETs.
 * @param {Get} get @param {string} project
 * @returns {Promise<string | undefined>} organizations/N, or undefined for a project in no organization
 */
async function organizationOf(get, project) {
  let parent = String(
    (await get(`https://cloudresourcemanager.googleapis.com/v3/projects/${encodeURIComponent(project)}`))
      ?.parent ?? '',
  );
  // Folders nest at most 10 deep ("must not cause the active folder hierarchy to exceed a height of 10",
  // https://cloud.google.com/resource-manager/reference/rest/v3/folders/create).
  for (let depth = 0; depth < 10 && parent.startsWith('folders/'); depth++) {
    parent = String((await get(`https://cloudresourcemanager.googleapis.com/v3/${parent}`))?.parent ?? '');
  }
  return parent.startsWith('organizations/') ? parent : undefined;
}

/**
 * The organization- and project-level settings the GCP compliance controls judged outside the repository need,
 * each keyed by the ids of the controls it answers (a test holds this table to @checkpoints/analysis's
 * GCP_COMPLIANCE).
 * @type {readonly import('./checks.cjs').Prerequisite<GcpProject>[]}
 */
const GCP_PREREQUISITES = [
  {
    controls: ['CIS GCP 2.2'],
    name: "the organization's aggregated sink of every log entry",
    enable: () =>
      'gcloud logging sinks create NAME DESTINATION --organization=ORGANIZATION_ID --include-children (no --log-filter), by an organization Logs Configuration Writer',
    check: async ({ get, project, organization }) => {
      if (!project) return missing('gcp:project is not set: the organization is unknown');
      const parent = await organization();
      if (parent === undefined) return missing(`project ${project} is in no organization`);
      /** @type {Array<{ name?: string, filter?: string, includeChildren?: boolean, disabled?: boolean, exclusions?: Array<{ disabled?: boolean }> }>} */
      const sinks = [];
      let pageToken = '';
      do {
        // organizations.sinks.list: the organization's own sinks, page by page (nextPageToken)
        // (https://cloud.google.com/logging/docs/reference/v2/rest/v2/organizations.sinks/list).
        const page = await get(
          `https://logging.googleapis.com/v2/${parent}/sinks${pageToken ? `?pageToken=${encodeURIComponent(pageToken)}` : ''}`,
        );
        sinks.push(...(page?.sinks ?? []));
        pageToken = String(page?.nextPageToken ?? '');
      } while (pageToken);
      // LogSink: an empty filter exports every entry, includeChildren those of every project below, disabled
      // stops the export, and each enabled exclusion drops the entries it matches
      // (https://cloud.google.com/logging/docs/reference/v2/rest/v2/organizations.sinks#LogSink).
      const everything = sinks.find(
        (sink) =>
          !sink.filter?.trim() &&
          sink.includeChildren === true &&
          sink.disabled !== true &&
          (sink.exclusions ?? []).every((exclusion) => exclusion.disabled === true),
      );
      if (everything === undefined) {
        return missing(
          `${parent} has ${sinks.length === 0 ? 'no sink' : `no sink without a filter or exclusions that includes its children (${sinks.map((sink) => sink.name).join(', ')})`}`,
        );
      }
      return `${everything.name} in ${parent}`;
    },
  },
  {
    controls: ['checkpoints malware-scan (GCP)'],
    name: 'Security Command Center Event Threat Detection on for the stack project',
    enable: ({ project }) =>
      `activate Security Command Center (Premium or Enterprise tier) for the organization, then gcloud scc manage services update event-threat-detection --project=${project || 'PROJECT'} --enablement-state=ENABLED`,
    check: async ({ get, project }) => {
      if (!project) return missing('gcp:project is not set');
      // securityCenterServices.get (Security Command Center Management API): effectiveEnablementState is the
      // state in force, an INHERITED intent resolved
      // (https://cloud.google.com/security-command-center/docs/reference/security-center-management/rest/v1/projects.locations.securityCenterServices/get).
      const service = await get(
        `https://securitycentermanagement.googleapis.com/v1/projects/${encodeURIComponent(project)}/locations/global/securityCenterServices/event-threat-detection`,
      );
      if (service?.effectiveEnablementState !== 'ENABLED') {
        return missing(
          `Event Threat Detection is ${service?.effectiveEnablementState ?? 'in no known state'} for ${project}`,
        );
      }
      return `ENABLED for ${project}`;
    },
  },
];

/**
 * The runners' networks against the stores' IP filters. The stack admits the self-hosted runners' networks
 * and egress ranges in every filter; the filter refuses everything else but getting, updating and deleting
 * the bucket (https://cloud.google.com/storage/docs/bypass-ip-filter, "Supported operations"), and the
 * networks of other organizations (allowCrossOrgVpcs false,
 * https://cloud.google.com/storage/docs/ip-filtering-overview).
 * @param {Get} get @param {(name: string, question: () => Promise<string>) => Promise<void>} ask
 * @param {GcpTarget} target
 */
async function runnerReachability(get, ask, target) {
  const { ciRunners, ipFilteredStores, project } = target;
  const networks = ciRunners.kind === 'self-hosted' ? (ciRunners.networks ?? []) : [];
  const egress = ciRunners.kind === 'self-hosted' ? (ciRunners.egressCidrs ?? []) : [];
  await ask(`CI runners inside the IP filter of ${ipFilteredStores.join(', ')}`, async () => {
    if (networks.length === 0 && egress.length === 0) {
      return missing(
        `CI runs on ${ciRunners.kind === 'self-hosted' ? 'self-hosted runners with no networks or egressCidrs' : 'GitHub-hosted runners'}, outside the filter: bucket IAM and Anywhere Cache calls get HTTP 403. Set checkpoints:ciRunners to self-hosted runners with networks or egressCidrs (docs/deploy.md, "Where CI runs")`,
      );
    }
    return `self-hosted runners in ${[...networks, ...egress].join(', ')}, which the filter admits`;
  });
  for (const network of networks) {
    await ask(`runner network ${network} exists in the stack's organization`, async () => {
      const [, networkProject = '', , , name = ''] = network.split('/');
      // networks.get (Compute Engine, https://cloud.google.com/compute/docs/reference/rest/v1/networks/get).
      try {
        await get(
          `https://compute.googleapis.com/compute/v1/projects/${networkProject}/global/networks/${name}`,
        );
      } catch (error) {
        if (statusOf(error) === 404)
          return missing(`no network ${network}: fix checkpoints:ciRunners.networks`);
        throw error;
      }
      const [stackOrganization, networkOrganization] = [
        await organizationOf(get, project),
        await organizationOf(get, networkProject),
      ];
      if (stackOrganization === undefined || stackOrganization !== networkOrganization) {
        return missing(
          `the network's project is in ${networkOrganization ?? 'no organization'}, the stack project in ${stackOrganization ?? 'no organization'}: the filter admits networks of its own organization only; run the runners there`,
        );
      }
      return `in ${stackOrganization}`;
    });
  }
}

/**
 * @param {() => Promise<GcpClient>} makeClient
 * @param {GcpTarget} target
 * @returns {Promise<Check[]>} one check per question, in order; a failed question never stops the others
 */
async function gcpPreflight(makeClient, target) {
  const { checks, ask, askPrerequisites } = checklist(failure);
  const client = once(makeClient);
  const get = gcpGet(client);
  const { environment, project } = target;
  await ask('who am I', () => gcpCaller(client, get));
  await ask(`stack project ${project} exists`, () => projectActive(get, project));
  await ask(`bootstrap deploys environment ${environment} into ${project}`, async () => {
    if (target.bootstrapProject === project) return `bootstrap:gcp.stackProjects.${environment} names it`;
    return missing(
      `bootstrap:gcp.stackProjects.${environment} is ${target.bootstrapProject ?? 'not set'}: the deploy account has no rights in ${project}; make the two the same and apply the bootstrap`,
    );
  });
  for (const api of GCP_STACK_APIS) {
    await ask(`API ${api} enabled in ${project}`, async () => {
      if (await apiEnabled(get, project, api)) return 'ENABLED';
      return missing(
        `off: apply the bootstrap (it enables it), or gcloud services enable ${api} --project=${project}`,
      );
    });
  }
  const account =
    target.ciProject && `${deployAccountId(environment)}@${target.ciProject}.iam.gserviceaccount.com`;
  await ask(`bootstrap applied: deploy service account ${account ?? `of ${environment}`}`, async () => {
    if (!account)
      return missing("the bootstrap's gcp:project is not set: the deploy account's project is unknown");
    try {
      // projects.serviceAccounts.get (IAM, https://cloud.google.com/iam/docs/reference/rest/v1/projects.serviceAccounts/get).
      const found = await get(
        `https://iam.googleapis.com/v1/projects/${target.ciProject}/serviceAccounts/${account}`,
      );
      if (found?.disabled)
        return missing(`${account} is disabled: enable it (gcloud iam service-accounts enable)`);
      return `${found?.email ?? account}`;
    } catch (error) {
      if (statusOf(error) === 404)
        return missing(`no ${account}: apply the bootstrap (npx nx run bootstrap:admin-up)`);
      throw error;
    }
  });
  if (target.stateBucket !== undefined) {
    await ask(`state backend gs://${target.stateBucket} reachable`, () =>
      bucketAnswers(get, target.stateBucket ?? '').then(({ detail }) => detail),
    );
  }
  if (target.ipFilteredStores.length > 0) await runnerReachability(get, ask, target);
  /** @type {Promise<string | undefined> | undefined} */
  let organization;
  await askPrerequisites(GCP_PREREQUISITES, {
    get,
    project,
    organization: () => (organization ??= organizationOf(get, project)),
  });
  return checks;
}

/**
 * The bootstrap's deploy service account of an environment: checkpoints-<bootstrap stack>-deploy-<env>,
 * on the bootstrap stack ci (docs/bootstrap.md).
 * @param {string} environment
 */
function deployAccountId(environment) {
  return `checkpoints-ci-deploy-${environment}`;
}

module.exports = {
  apiEnabled,
  bucketAnswers,
  deployAccountId,
  failure,
  gcpCaller,
  gcpClient,
  gcpGet,
  gcpPreflight,
  GCP_PREREQUISITES,
  GCP_STACK_APIS,
  once,
  organizationOf,
  projectActive,
  statusOf,
};
