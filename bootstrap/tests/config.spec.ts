import { ConfigError } from '@checkpoints/config';
import { render, type RenderFailure } from '@checkpoints/synth';
import { loadBootstrapConfig } from '../src/config';
import { bootstrapStack } from '../src/program';
import { configWith, renderFailure, REPOSITORY, SUBSCRIPTION } from './helpers';

const REPOSITORY_ALLOWED =
  "allowed: the GitHub repository CI runs in, as owner/name (e.g. acme/checkpoint-storage): no URL, no '.git', no wildcard";
const ENVIRONMENT_ALLOWED = 'allowed: one of dev | staging | prod';

describe('bad bootstrap config is refused before any resource, every problem named', () => {
  it.each([
    [
      'a missing repository',
      { 'bootstrap:repository': undefined },
      [
        {
          path: 'bootstrap:repository',
          value: undefined,
          message:
            "is required: the GitHub repository CI runs in, as owner/name (e.g. acme/checkpoint-storage): no URL, no '.git', no wildcard",
        },
      ],
    ],
    [
      "the repository's URL",
      { 'bootstrap:repository': 'https://github.com/acme/checkpoint-storage.git' },
      [
        {
          path: 'bootstrap:repository',
          value: 'https://github.com/acme/checkpoint-storage.git',
          message: `did you mean 'acme/checkpoint-storage'? ${REPOSITORY_ALLOWED}`,
        },
      ],
    ],
    [
      'a wildcard repository',
      { 'bootstrap:repository': 'acme/*' },
      [{ path: 'bootstrap:repository', value: 'acme/*', message: REPOSITORY_ALLOWED }],
    ],
    [
      'an owner without a repository name',
      { 'bootstrap:repository': 'acme' },
      [{ path: 'bootstrap:repository', value: 'acme', message: REPOSITORY_ALLOWED }],
    ],
    [
      'an environment the stacks do not have',
      { 'bootstrap:environments': ['dev', 'qa'] },
      [{ path: 'bootstrap:environments[1]', value: 'qa', message: ENVIRONMENT_ALLOWED }],
    ],
    [
      'environments written as one string',
      { 'bootstrap:environments': 'dev' },
      [
        {
          path: 'bootstrap:environments',
          value: 'dev',
          message:
            'allowed: a list of one or more GitHub environments, each one of dev | staging | prod (the stack it deploys has the same name)',
        },
      ],
    ],
    [
      'no environment',
      { 'bootstrap:environments': [] },
      [
        {
          path: 'bootstrap:environments',
          value: [],
          message:
            'allowed: a list of one or more GitHub environments, each one of dev | staging | prod (the stack it deploys has the same name)',
        },
      ],
    ],
    [
      'an environment listed twice',
      { 'bootstrap:environments': ['dev', 'prod', 'dev'] },
      [{ path: 'bootstrap:environments[2]', value: 'dev', message: 'is listed twice' }],
    ],
    [
      'an unknown cloud',
      { 'bootstrap:clouds': ['aws', 'oci'], 'bootstrap:azure': undefined },
      [{ path: 'bootstrap:clouds[1]', value: 'oci', message: 'allowed: one of aws | gcp | azure' }],
    ],
    [
      'a misspelt key, with every other problem of the same run',
      { 'bootstrap:environments': undefined, 'bootstrap:enviroments': ['dev'], 'aws:region': undefined },
      [
        {
          path: 'bootstrap:environments',
          value: undefined,
          message:
            'is required: a list of one or more GitHub environments, each one of dev | staging | prod (the stack it deploys has the same name)',
        },
        {
          path: 'bootstrap:enviroments',
          value: undefined,
          message:
            "unknown key; did you mean 'environments'? known keys here: repository, environments, clouds, owner, costCenter, aws, gcp, azure",
        },
        {
          path: 'aws:region',
          value: undefined,
          message:
            'is required when aws is in bootstrap:clouds: an AWS region such as us-east-1 (IAM is global; the region picks the STS endpoint)',
        },
      ],
    ],
    [
      'a misspelt per-cloud key',
      {
        'bootstrap:aws': {
          oidcProviderARN: 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com',
        },
      },
      [
        {
          path: 'bootstrap:aws.oidcProviderARN',
          value: undefined,
          message:
            "unknown key; did you mean 'oidcProviderArn'? known keys here: oidcProviderArn, stateBucket",
        },
      ],
    ],
    [
      'an OIDC provider of another issuer',
      { 'bootstrap:aws': { oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/gitlab.com' } },
      [
        {
          path: 'bootstrap:aws.oidcProviderArn',
          value: 'arn:aws:iam::123456789012:oidc-provider/gitlab.com',
          message:
            "allowed: the ARN of the account's existing GitHub OIDC provider: arn:aws:iam::<12-digit account>:oidc-provider/token.actions.githubusercontent.com",
        },
      ],
    ],
    ...['s3://pulumi-state', 'Pulumi-State', 'ab', 'state..bucket', '-state'].map(
      (bucket): [string, Record<string, unknown>, unknown[]] => [
        `a state bucket that is not an S3 bucket name (${bucket})`,
        { 'bootstrap:aws': { stateBucket: bucket } },
        [
          {
            path: 'bootstrap:aws.stateBucket',
            value: bucket,
            message:
              "allowed: the name of the S3 bucket of the AWS stacks' self-managed Pulumi state backend (s3://<bucket>): 3-63 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit",
          },
        ],
      ],
    ),
    [
      'settings of a cloud that is not enabled',
      { 'bootstrap:clouds': ['aws'] },
      [
        {
          path: 'bootstrap:gcp',
          value: { stackProjects: { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' } },
          message: 'is set, but gcp is not in bootstrap:clouds (aws); add it there or remove this key',
        },
        {
          path: 'bootstrap:azure',
          value: { stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' } },
          message: 'is set, but azure is not in bootstrap:clouds (aws); add it there or remove this key',
        },
      ],
    ],
    [
      "an enabled cloud's missing provider keys",
      { 'aws:region': undefined, 'azure-native:location': undefined },
      [
        {
          path: 'aws:region',
          value: undefined,
          message:
            'is required when aws is in bootstrap:clouds: an AWS region such as us-east-1 (IAM is global; the region picks the STS endpoint)',
        },
        {
          path: 'azure-native:location',
          value: undefined,
          message:
            'is required when azure is in bootstrap:clouds: the Azure region of the CI identities, e.g. eastus2',
        },
      ],
    ],
    [
      'a GCP project name instead of its ID',
      { 'gcp:project': 'My Project' },
      [
        {
          path: 'gcp:project',
          value: 'My Project',
          message:
            'allowed: the ID of the GCP project that holds the workload identity pool and the CI service accounts',
        },
      ],
    ],
    [
      'a subscription name instead of its ID',
      { 'azure-native:subscriptionId': 'Production' },
      [
        {
          path: 'azure-native:subscriptionId',
          value: 'Production',
          message: 'allowed: the ID (a GUID) of the Azure subscription the stacks deploy into',
        },
      ],
    ],
    [
      'an environment without its Azure resource group',
      { 'bootstrap:azure': { stackResourceGroups: { dev: 'rg-checkpoints-dev' } } },
      [
        {
          path: 'bootstrap:azure.stackResourceGroups.prod',
          value: undefined,
          message:
            "is required: an Azure resource group name: 1-90 letters, digits, '-', '_', '.', '(' and ')', not ending with '.'; deploy rights are granted there alone",
        },
      ],
    ],
    [
      'a resource group for an environment not listed',
      {
        'bootstrap:azure': {
          stackResourceGroups: { dev: 'rg-dev', staging: 'rg-staging', prod: 'rg-prod' },
        },
      },
      [
        {
          path: 'bootstrap:azure.stackResourceGroups.staging',
          value: 'rg-staging',
          message: 'is not an environment of bootstrap:environments (dev, prod)',
        },
      ],
    ],
    [
      'a subnet that is not a subnet resource ID',
      {
        'bootstrap:azure': {
          stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
          subnets: { prod: ['gpu-nodes'] },
        },
      },
      [
        {
          path: 'bootstrap:azure.subnets.prod[0]',
          value: 'gpu-nodes',
          message:
            'allowed: a list of subnet resource IDs: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>',
        },
      ],
    ],
    [
      'a private DNS zone that is not a zone resource ID',
      {
        'bootstrap:azure': {
          stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
          privateDnsZones: { prod: ['privatelink.blob.core.windows.net'] },
        },
      },
      [
        {
          path: 'bootstrap:azure.privateDnsZones.prod[0]',
          value: 'privatelink.blob.core.windows.net',
          message:
            'allowed: a list of private DNS zone resource IDs: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.Network/privateDnsZones/<zone>, e.g. privatelink.blob.core.windows.net',
        },
      ],
    ],
    [
      'private DNS zones of an environment not listed',
      {
        'bootstrap:azure': {
          stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
          privateDnsZones: {
            staging: [
              '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/dns/providers/Microsoft.Network/privateDnsZones/privatelink.dfs.core.windows.net',
            ],
          },
        },
      },
      [
        {
          path: 'bootstrap:azure.privateDnsZones.staging',
          value: [
            '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/dns/providers/Microsoft.Network/privateDnsZones/privatelink.dfs.core.windows.net',
          ],
          message: 'is not an environment of bootstrap:environments (dev, prod)',
        },
      ],
    ],
    [
      'subnets of an environment not listed',
      {
        'bootstrap:azure': {
          stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
          subnets: {
            staging: [
              '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/s',
            ],
          },
        },
      },
      [
        {
          path: 'bootstrap:azure.subnets.staging',
          value: [
            '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/s',
          ],
          message: 'is not an environment of bootstrap:environments (dev, prod)',
        },
      ],
    ],
    [
      'a resource group name Azure refuses',
      { 'bootstrap:azure': { stackResourceGroups: { dev: 'rg/dev', prod: 'rg-prod.' } } },
      [
        {
          path: 'bootstrap:azure.stackResourceGroups.dev',
          value: 'rg/dev',
          message:
            "Azure resource group names must be 1-90 characters of letters, digits, '-', '_', '.', '(' and ')' and not end with '.'; got 'rg/dev' (6 chars, contains '/')",
        },
        {
          path: 'bootstrap:azure.stackResourceGroups.prod',
          value: 'rg-prod.',
          message:
            "Azure resource group names must be 1-90 characters of letters, digits, '-', '_', '.', '(' and ')' and not end with '.'; got 'rg-prod.' (8 chars, ends with '.')",
        },
      ],
    ],
    [
      'an environment without its GCP project',
      { 'bootstrap:gcp': { stackProjects: { prod: 'acme-checkpoints-prod' } } },
      [
        {
          path: 'bootstrap:gcp.stackProjects.dev',
          value: undefined,
          message:
            'is required: a GCP project ID: 6-30 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen; deploy rights are granted there alone',
        },
      ],
    ],
    [
      'two environments in one GCP project, or one in the CI project',
      { 'bootstrap:gcp': { stackProjects: { dev: 'acme-checkpoints-ci', prod: 'acme-checkpoints-ci' } } },
      [
        {
          path: 'bootstrap:gcp.stackProjects.dev',
          value: 'acme-checkpoints-ci',
          message:
            "is gcp:project, where the CI service accounts live: give the stacks projects of their own, out of the deploy accounts' reach",
        },
        {
          path: 'bootstrap:gcp.stackProjects.prod',
          value: 'acme-checkpoints-ci',
          message:
            "is gcp:project, where the CI service accounts live: give the stacks projects of their own, out of the deploy accounts' reach",
        },
      ],
    ],
    [
      'two environments in one GCP project',
      { 'bootstrap:gcp': { stackProjects: { dev: 'acme-shared', prod: 'acme-shared' } } },
      [
        {
          path: 'bootstrap:gcp.stackProjects.prod',
          value: 'acme-shared',
          message:
            "is also the project of dev: each environment needs a project of its own, or its deploy account reaches the other's stores",
        },
      ],
    ],
    ...[
      ['organizations/123456789012', 'organizations/123456789012'],
      ['a number, unquoted', 123456789012],
    ].map(([what, given]): [string, Record<string, unknown>, unknown[]] => [
      `a GCP organization ID that is ${what}`,
      {
        'bootstrap:gcp': {
          stackProjects: { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' },
          organizationId: given,
        },
      },
      [
        {
          path: 'bootstrap:gcp.organizationId',
          value: given,
          message:
            'allowed: the numeric ID of the GCP organization gcp:project and every stack project sit under, digits only and quoted (e.g. "123456789012", as `gcloud organizations list` prints it; not organizations/N)',
        },
      ],
    ]),
    [
      'a GCP stack project that is not a project ID',
      { 'bootstrap:gcp': { stackProjects: { dev: 'acme-checkpoints-dev', prod: 'Acme Prod' } } },
      [
        {
          path: 'bootstrap:gcp.stackProjects.prod',
          value: 'Acme Prod',
          message:
            'allowed: a GCP project ID: 6-30 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen',
        },
      ],
    ],
  ])('%s', async (_case, overrides, issues) => {
    const failure = await renderFailure(overrides);
    expect(failure.cause).toBeInstanceOf(ConfigError);
    expect((failure.cause as ConfigError).issues).toEqual(issues);
    expect(failure.resources.filter((registered) => registered.custom)).toEqual([]);
  });

  it('says where the problems are, with the value given and what is allowed', () => {
    expect(() =>
      loadBootstrapConfig(
        configWith({ 'bootstrap:repository': 'acme/*', 'bootstrap:environments': ['qa'] }),
        'bootstrap/Pulumi.ci.yaml',
      ),
    ).toThrow(
      [
        'Invalid stack config in bootstrap/Pulumi.ci.yaml (2 problems):',
        `  - bootstrap:repository: got "acme/*"; ${REPOSITORY_ALLOWED}`,
        `  - bootstrap:environments[0]: got "qa"; ${ENVIRONMENT_ALLOWED}`,
      ].join('\n'),
    );
  });
});

describe('valid bootstrap config', () => {
  it('reads the repository, the environments and each enabled cloud with its settings', () => {
    expect(loadBootstrapConfig(configWith())).toEqual({
      repository: { owner: 'acme', name: 'checkpoint-storage', fullName: REPOSITORY },
      environments: ['dev', 'prod'],
      clouds: ['aws', 'gcp', 'azure'],
      owner: 'ml-platform',
      costCenter: 'cc-1234',
      aws: { region: 'us-east-1' },
      gcp: {
        project: 'acme-checkpoints-ci',
        stackProjects: { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' },
        auditExemptMembers: { dev: [], prod: [] },
        independentCopy: {},
      },
      azure: {
        subscriptionId: SUBSCRIPTION,
        location: 'eastus2',
        stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
      },
    });
  });

  it('accepts the GCP organization ID, digits only', () => {
    const gcp = { stackProjects: { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' } };
    expect(
      loadBootstrapConfig(configWith({ 'bootstrap:gcp': { ...gcp, organizationId: '123456789012' } })),
    ).toEqual(loadBootstrapConfig(configWith({ 'bootstrap:gcp': gcp })));
  });

  it('needs no settings of the clouds it leaves out', () => {
    const config = loadBootstrapConfig(
      configWith({
        'bootstrap:clouds': ['aws'],
        'bootstrap:gcp': undefined,
        'bootstrap:azure': undefined,
        'gcp:project': undefined,
        'azure-native:subscriptionId': undefined,
        'azure-native:location': undefined,
        'bootstrap:aws': {
          oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com',
        },
      }),
    );
    expect(config.clouds).toEqual(['aws']);
    expect(config.aws).toEqual({
      region: 'us-east-1',
      oidcProviderArn: 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com',
    });
    expect(config.gcp).toBeUndefined();
    expect(config.azure).toBeUndefined();
  });

  it.each(['Octo-Org/repo.name_2', 'a/b', 'acme/.github'])('takes the repository %s', (repository) => {
    expect(loadBootstrapConfig(configWith({ 'bootstrap:repository': repository })).repository.fullName).toBe(
      repository,
    );
  });

  it.each(['-acme/repo', 'acme--corp/repo', 'acme/..', 'acme/repo/extra', ' acme/repo'])(
    'refuses the repository %j',
    (repository) => {
      expect(() => loadBootstrapConfig(configWith({ 'bootstrap:repository': repository }))).toThrow(
        ConfigError,
      );
    },
  );
});

describe('a bootstrap stack name no cloud accepts in its identity names', () => {
  it('fails before any resource, with the rule it breaks', async () => {
    const failure = await render(() => bootstrapStack(), {
      project: 'checkpoints-bootstrap',
      stack: 'continuous-integration',
      config: configWith(),
    }).then(
      () => undefined,
      (error: unknown) => error as RenderFailure,
    );
    expect(failure?.message).toBe(
      "bootstrap stack name gives an invalid name: GCP service account IDs must be 6-30 characters of lowercase letters, digits and hyphens, start with a letter and end with a letter or digit; got 'checkpoints-continuous-integration-preview' (42 chars, over the 30 limit)",
    );
    expect(failure?.resources.filter((registered) => registered.custom)).toEqual([]);
  });
});
