/**
 * The read-only preflight of the bootstrap: per cloud its Pulumi.<stack>.yaml sets up (bootstrap:clouds),
 * who runs it and what its first `up` needs that it does not create itself, asked through each cloud's
 * official SDK with GET, List and Head calls only (the tests hold it to that).
 */
const { GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
const { GetOpenIDConnectProviderCommand, ListOpenIDConnectProvidersCommand } = require('@aws-sdk/client-iam');
const { HeadBucketCommand } = require('@aws-sdk/client-s3');
const { checklist, missing } = require('./checks.cjs');
const aws = require('./aws.cjs');
const gcp = require('./gcp.cjs');
const azure = require('./azure.cjs');
const { awsAsRendered, azureAsRendered, gcpAsRendered } = require('./bootstrap-render.cjs');

/**
 * @typedef {import('./checks.cjs').Check} Check
 * @typedef {import('./bootstrap-render.cjs').Render} Render
 * @typedef {{
 *   aws?: () => import('./aws.cjs').AwsClients & { backup: import('@aws-sdk/client-backup').BackupClient },
 *   gcp?: () => Promise<import('./gcp.cjs').GcpClient>,
 *   azure?: () => import('./azure.cjs').AzureConnection,
 * }} BootstrapClients
 */

/** GitHub's OIDC issuer host, the URL of the IAM OIDC provider the bootstrap creates or reuses. */
const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';

/**
 * APIs the bootstrap's own up calls in a project without enabling them: Service Usage to enable the rest
 * (https://cloud.google.com/service-usage/docs/enable-disable) and Resource Manager for the project's IAM
 * policy (https://cloud.google.com/resource-manager/reference/rest/v1/projects/setIamPolicy); in the stack
 * projects also Cloud Logging for the Data Access log sink and the Organization Policy API for the soft
 * delete policy. A call to an API that is off fails with SERVICE_DISABLED.
 */
const GCP_BOOTSTRAP_CI_PROJECT_APIS = ['serviceusage.googleapis.com', 'cloudresourcemanager.googleapis.com'];
const GCP_BOOTSTRAP_STACK_PROJECT_APIS = [
  ...GCP_BOOTSTRAP_CI_PROJECT_APIS,
  'logging.googleapis.com',
  'orgpolicy.googleapis.com',
];
/**
 * What GitHub's tokens are exchanged through in the CI project (Security Token Service, IAM Credentials,
 * https://cloud.google.com/iam/docs/workload-identity-federation-with-deployment-pipelines#before-you-begin):
 * the bootstrap enables them; reported so that a disabled one is no surprise.
 */
const GCP_CI_APIS = ['iam.googleapis.com', 'iamcredentials.googleapis.com', 'sts.googleapis.com'];

/** @param {unknown} value @returns {Record<string, any>} */
function mapping(value) {
  return typeof value === 'object' && value !== null ? /** @type {Record<string, any>} */ (value) : {};
}

/**
 * @param {import('./aws.cjs').AwsClients} clients @param {Record<string, any>} config
 * @param {(name: string, question: () => Promise<string>) => Promise<void>} ask
 */
async function awsQuestions(clients, config, ask) {
  const settings = mapping(config['bootstrap:aws']);
  await ask('AWS: who am I', async () => {
    // GetCallerIdentity (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html).
    const caller = await clients.sts.send(new GetCallerIdentityCommand({}));
    return `${caller.Arn} in account ${caller.Account}`;
  });
  await ask(`AWS: GitHub OIDC provider (${GITHUB_OIDC_HOST})`, async () => {
    const reused = settings['oidcProviderArn'];
    if (typeof reused === 'string') {
      // GetOpenIDConnectProvider (https://docs.aws.amazon.com/IAM/latest/APIReference/API_GetOpenIDConnectProvider.html).
      try {
        await clients.iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: reused }));
        return `bootstrap:aws.oidcProviderArn ${reused} exists, reused`;
      } catch (error) {
        if (/** @type {{ name?: string }} */ (error)?.name === 'NoSuchEntityException') {
          return missing(
            `bootstrap:aws.oidcProviderArn ${reused} does not exist: fix it, or remove it to create one`,
          );
        }
        throw error;
      }
    }
    // ListOpenIDConnectProviders (https://docs.aws.amazon.com/IAM/latest/APIReference/API_ListOpenIDConnectProviders.html).
    // An account holds one provider per URL: CreateOpenIDConnectProvider of an existing one fails with
    // EntityAlreadyExists (https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateOpenIDConnectProvider.html).
    const { OpenIDConnectProviderList = [] } = await clients.iam.send(
      new ListOpenIDConnectProvidersCommand({}),
    );
    const existing = OpenIDConnectProviderList.map((entry) => entry.Arn ?? '').find((arn) =>
      arn.endsWith(`/${GITHUB_OIDC_HOST}`),
    );
    if (existing) {
      return missing(
        `the account has one already (${existing}), so creating it fails with EntityAlreadyExists: set bootstrap:aws.oidcProviderArn to it`,
      );
    }
    return 'none yet: the bootstrap creates it';
  });
  const stateBucket = settings['stateBucket'];
  if (typeof stateBucket === 'string') {
    await ask(`AWS: state backend s3://${stateBucket} reachable`, async () => {
      // HeadBucket (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html).
      await clients.s3.send(new HeadBucketCommand({ Bucket: stateBucket }));
      return 'the bucket answers';
    });
  }
}

/**
 * @param {import('./gcp.cjs').Get} get @param {() => Promise<import('./gcp.cjs').GcpClient>} makeClient
 * @param {Record<string, any>} config
 * @param {(name: string, question: () => Promise<string>) => Promise<void>} ask
 */
async function gcpQuestions(get, makeClient, config, ask) {
  const settings = mapping(config['bootstrap:gcp']);
  const ciProject = typeof config['gcp:project'] === 'string' ? config['gcp:project'] : undefined;
  await ask('GCP: who am I', () => gcp.gcpCaller(makeClient, get));
  /** @param {string} project @param {readonly string[]} apis */
  const requiredApis = async (project, apis) => {
    for (const api of apis) {
      await ask(`GCP: API ${api} enabled in ${project}`, async () => {
        if (await gcp.apiEnabled(get, project, api)) return 'ENABLED';
        return missing(
          `off, and the bootstrap does not enable it: gcloud services enable ${api} --project=${project}`,
        );
      });
    }
  };
  await ask(`GCP: CI project ${ciProject ?? '(gcp:project not set)'} exists`, async () =>
    ciProject
      ? gcp.projectActive(get, ciProject)
      : missing('set gcp:project to the project of the CI service accounts'),
  );
  if (ciProject) {
    await requiredApis(ciProject, GCP_BOOTSTRAP_CI_PROJECT_APIS);
    for (const api of GCP_CI_APIS) {
      await ask(`GCP: API ${api} in ${ciProject}`, async () =>
        (await gcp.apiEnabled(get, ciProject, api)) ? 'ENABLED' : 'off: the bootstrap enables it',
      );
    }
  }
  for (const [environment, project] of Object.entries(mapping(settings['stackProjects']))) {
    await ask(`GCP: stack project ${project} (${environment}) exists`, () =>
      gcp.projectActive(get, String(project)),
    );
    await requiredApis(String(project), GCP_BOOTSTRAP_STACK_PROJECT_APIS);
  }
  const projects = [
    ...(ciProject ? [ciProject] : []),
    ...Object.values(mapping(settings['stackProjects'])).map(String),
    ...Object.values(mapping(settings['independentCopy'])).map((copy) => String(mapping(copy)['project'])),
  ];
  await organizationQuestions(get, settings['organizationId'], projects, ask);
  // The independent copies' projects: the bootstrap enables Cloud Storage and Storage Transfer there through
  // Service Usage and grants the transfer agent through Resource Manager, as in a stack project.
  for (const [environment, copy] of Object.entries(mapping(settings['independentCopy']))) {
    const project = String(mapping(copy)['project']);
    await ask(`GCP: copy project ${project} (${environment}) exists`, () => gcp.projectActive(get, project));
    await requiredApis(project, GCP_BOOTSTRAP_CI_PROJECT_APIS);
  }
  const stateBucket = settings['stateBucket'];
  if (typeof stateBucket === 'string') {
    await ask(
      `GCP: state backend gs://${stateBucket} reachable, with uniform bucket-level access`,
      async () => {
        const { found, detail } = await gcp.bucketAnswers(get, stateBucket);
        // The state grants are IAM Conditions, which need uniform bucket-level access on the bucket
        // (https://cloud.google.com/storage/docs/using-uniform-bucket-level-access).
        if (found?.iamConfiguration?.uniformBucketLevelAccess?.enabled === true) return `${detail}, uniform`;
        return missing(
          `it has no uniform bucket-level access, which the state grants' IAM Conditions need: gcloud storage buckets update gs://${stateBucket} --uniform-bucket-level-access`,
        );
      },
    );
  }
}

/**
 * With bootstrap:gcp.organizationId: the organization answers (organizations.get,
 * https://cloud.google.com/resource-manager/reference/rest/v3/organizations/get), every project sits under
 * it, through its folders (projects.get, folders.get), and its log sinks, the organization-level prerequisite
 * the GCP stacks' preflight asks for, can be read (organizations.sinks.list,
 * https://cloud.google.com/logging/docs/reference/v2/rest/v2/organizations.sinks/list). The bootstrap's
 * admin needs Deny Admin and Organization Policy Administrator there: Google grants both on the organization
 * ("Lowest-level resources where you can grant this role: Organization",
 * https://cloud.google.com/iam/docs/roles-permissions/orgpolicy; https://cloud.google.com/iam/docs/deny-access,
 * "Required roles"). Without the key, one line says what was not checked.
 * @param {import('./gcp.cjs').Get} get @param {unknown} organizationId @param {readonly string[]} projects
 * @param {(name: string, question: () => Promise<string>) => Promise<void>} ask
 */
async function organizationQuestions(get, organizationId, projects, ask) {
  if (typeof organizationId !== 'string') {
    await ask(
      'GCP: organization (bootstrap:gcp.organizationId)',
      async () =>
        `not set, so not checked: that ${projects.join(', ') || 'the projects'} sit under one organization, nor that you can read it and its log sinks; set it to the organization's numeric ID (gcloud organizations list)`,
    );
    return;
  }
  const organization = `organizations/${organizationId}`;
  await ask(`GCP: organization ${organizationId} readable`, async () => {
    try {
      const found = await get(`https://cloudresourcemanager.googleapis.com/v3/${organization}`);
      if (found?.state !== 'ACTIVE') {
        return missing(`${organization} is ${found?.state ?? 'in no known state'}, not ACTIVE`);
      }
      return `${found.displayName ?? organization}, ACTIVE`;
    } catch (error) {
      const status = gcp.statusOf(error);
      if (status === 403 || status === 404) {
        return missing(
          `${organization} does not exist or you cannot see it (${gcp.failure(error)}): fix bootstrap:gcp.organizationId, or get resourcemanager.organizations.get on it (Organization Viewer)`,
        );
      }
      throw error;
    }
  });
  for (const project of projects) {
    await ask(`GCP: project ${project} under organization ${organizationId}`, async () => {
      const parent = await gcp.organizationOf(get, project);
      if (parent === organization) return `under ${organization}`;
      return missing(
        `it sits under ${parent ?? 'no organization'}, not ${organization}: the organization-level grants and policies do not reach it; move it, or fix bootstrap:gcp.organizationId`,
      );
    });
  }
  await ask(`GCP: organization ${organizationId}'s log sinks readable`, async () => {
    const page = await get(`https://logging.googleapis.com/v2/${organization}/sinks`);
    return `${(page?.sinks ?? []).length} sink(s) on the first page`;
  });
}

/**
 * @param {import('./azure.cjs').AzureConnection} connection @param {Record<string, any>} config
 * @param {(name: string, question: () => Promise<string>) => Promise<void>} ask
 */
async function azureQuestions(connection, config, ask) {
  const settings = mapping(config['bootstrap:azure']);
  const subscriptionId =
    typeof config['azure-native:subscriptionId'] === 'string'
      ? config['azure-native:subscriptionId']
      : undefined;
  await ask('Azure: who am I', () => azure.azureCaller(connection));
  await ask(`Azure: subscription ${subscriptionId ?? '(not set)'} reachable`, () =>
    azure.subscriptionEnabled(connection, subscriptionId),
  );
  await azure.providersRegistered(
    (name, question) => ask(`Azure: ${name}`, question),
    connection,
    subscriptionId,
    azure.AZURE_BOOTSTRAP_MODULES.map((module) => azure.AZURE_NATIVE_PROVIDERS[module]),
  );
  for (const [environment, group] of Object.entries(mapping(settings['stackResourceGroups']))) {
    await ask(`Azure: stack resource group ${group} (${environment}) exists`, async () => {
      if (!subscriptionId) return missing('no subscription to ask');
      return azure.resourceGroupExists(
        connection,
        subscriptionId,
        String(group),
        `create it first (az group create): the bootstrap grants the ${environment} deploy identity its rights there`,
      );
    });
  }
  const state = mapping(settings['stateContainer']);
  if (typeof state['storageAccountId'] === 'string' && typeof state['container'] === 'string') {
    const account = state['storageAccountId'].split('/').pop() ?? '';
    const container = state['container'];
    await ask(`Azure: state backend azblob://${container} in ${account} reachable`, () =>
      azure.containerAnswers(connection, { account, container }),
    );
  }
}

/**
 * The bootstrap applied as rendered, on one cloud: without a usable render, one failed check says why and
 * how to get one.
 * @param {string} cloud @param {{ render: Render } | { problem: string }} rendered
 * @param {(name: string, question: () => Promise<string>) => Promise<void>} ask
 * @param {(render: Render) => Promise<void>} compare
 */
async function asRendered(cloud, rendered, ask, compare) {
  if ('render' in rendered) return compare(rendered.render);
  return ask(`${cloud}: bootstrap applied as rendered`, async () => missing(rendered.problem));
}

/**
 * @param {Record<string, any>} config the bootstrap stack's config
 * @param {Required<BootstrapClients>} clients
 * @param {{ render: Render } | { problem: string }} rendered the bootstrap's offline render, or why there is none
 * @returns {Promise<Check[]>} one check per question, in order; a failed question never stops the others
 */
async function bootstrapPreflight(config, clients, rendered) {
  const clouds = Array.isArray(config['bootstrap:clouds']) ? config['bootstrap:clouds'] : [];
  /** @type {Check[]} */
  const checks = [];
  if (clouds.includes('aws')) {
    const list = checklist(aws.failure);
    const awsClients = clients.aws();
    await awsQuestions(awsClients, config, list.ask);
    await asRendered('AWS', rendered, list.ask, (render) => awsAsRendered(awsClients, render, list.ask));
    checks.push(...list.checks);
  }
  if (clouds.includes('gcp')) {
    const list = checklist(gcp.failure);
    const client = gcp.once(clients.gcp);
    const get = gcp.gcpGet(client);
    await gcpQuestions(get, client, config, list.ask);
    const ciProject = typeof config['gcp:project'] === 'string' ? config['gcp:project'] : undefined;
    await asRendered('GCP', rendered, list.ask, (render) => gcpAsRendered(get, ciProject, render, list.ask));
    checks.push(...list.checks);
  }
  if (clouds.includes('azure')) {
    const list = checklist(azure.failure);
    const connection = clients.azure();
    await azureQuestions(connection, config, list.ask);
    const subscriptionId =
      typeof config['azure-native:subscriptionId'] === 'string'
        ? config['azure-native:subscriptionId']
        : undefined;
    await asRendered('Azure', rendered, list.ask, (render) =>
      azureAsRendered(connection, subscriptionId, render, list.ask),
    );
    checks.push(...list.checks);
  }
  return checks;
}

module.exports = { bootstrapPreflight, GCP_CI_APIS };
