/**
 * Each published fact table, through the rule that uses it: a real value (taken from the cited page) is
 * accepted, a wrong one is refused with the nearest valid values.
 */
import {
  awsQuotaWarnings,
  awsRules,
  azureLocationIssues,
  azureQuotaWarnings,
  ConfigError,
  gcpProjectIssues,
  gcpQuotaWarnings,
  gcpRules,
  loadStackSpec,
  type CloudRules,
  type ConfigIssue,
} from '../src';

function config(stores: unknown[]): Record<string, string> {
  return {
    'checkpoints:environment': 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores': JSON.stringify(stores),
  };
}

function issuesOf(stores: unknown[], rules: CloudRules): ConfigIssue[] {
  try {
    loadStackSpec(config(stores), rules);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

const store = (extra: Record<string, unknown> = {}) => ({
  name: 'llm-pretrain',
  dataClassification: 'internal',
  ...extra,
});
const fast = (zone: string) => store({ tier: 'high-throughput', zone });

describe('AWS regions per partition (AWS SDK partitions.json)', () => {
  it.each(['us-east-1', 'eu-central-2', 'mx-central-1', 'cn-northwest-1', 'us-gov-east-1'])(
    'accepts %s',
    (region) => expect(awsRules.regionIssues(region)).toEqual([]),
  );

  it('refuses a region that does not exist, with the nearest ones', () => {
    expect(awsRules.regionIssues('eu-centrl-1')).toEqual([
      {
        path: 'aws:region',
        value: 'eu-centrl-1',
        message:
          'is not an AWS region (the published list is in libs/config/src/facts/aws.ts); did you mean eu-central-1, eu-central-2, ca-central-1?',
      },
    ]);
  });

  it("refuses a principal of another partition than the region's", () => {
    expect(
      issuesOf(
        [store({ access: { writers: ['arn:aws:iam::123456789012:role/trainer'] } })],
        awsRules.forRegion('cn-north-1'),
      ),
    ).toEqual([
      {
        path: 'checkpoints:stores[0].access.writers[0]',
        value: 'arn:aws:iam::123456789012:role/trainer',
        message:
          'is in partition aws, but aws:region cn-north-1 is in partition aws-cn: a role can only trust principals of its own partition; write arn:aws-cn:iam::123456789012:role/trainer if that principal exists there',
      },
    ]);
  });
});

describe('S3 Express One Zone AZ IDs (S3 user guide, s3-express-Endpoints)', () => {
  it.each([
    ['us-east-1', 'use1-az4'],
    ['us-west-2', 'usw2-az3'],
    ['ap-south-1', 'aps1-az3'],
    ['eu-north-1', 'eun1-az3'],
  ])('accepts %s %s', (region, zone) => {
    expect(issuesOf([fast(zone)], awsRules.forRegion(region))).toEqual([]);
  });

  it.each<[string, string, string]>([
    [
      'ap-south-1',
      'aps1-az2',
      'is an AZ of ap-south-1 without S3 Express One Zone; S3 Express One Zone AZ IDs in ap-south-1: aps1-az1, aps1-az3',
    ],
    [
      'us-east-1',
      'use1-az9',
      'is not an AZ ID of us-east-1; did you mean use1-az4, use1-az5, use1-az6? (S3 Express One Zone AZ IDs in us-east-1: use1-az4, use1-az5, use1-az6)',
    ],
    [
      'eu-west-1',
      'euw2-az1',
      'is an AZ of eu-west-2, not of aws:region eu-west-1; S3 Express One Zone AZ IDs in eu-west-1: euw1-az1, euw1-az3',
    ],
  ])('in %s refuses %s, naming the valid zones', (region, zone, message) => {
    expect(issuesOf([fast(zone)], awsRules.forRegion(region))).toEqual([
      { path: 'checkpoints:stores[0].zone', value: zone, message },
    ]);
  });

  it.each<[string, string]>([
    [
      'eu-central-1',
      'S3 Express One Zone (tier high-throughput) is not offered in aws:region eu-central-1; it is offered in us-east-1, us-east-2, us-west-2, ap-south-1, ap-northeast-1, eu-west-1, eu-north-1; or use tier: standard',
    ],
    [
      'cn-north-1',
      'S3 Express One Zone (tier high-throughput) is not offered in partition aws-cn (aws:region cn-north-1); use tier: standard',
    ],
  ])('refuses the high-throughput tier where S3 Express One Zone is not offered (%s)', (region, message) => {
    expect(issuesOf([fast('euc1-az1')], awsRules.forRegion(region))).toEqual([
      { path: 'checkpoints:stores[0].tier', value: 'high-throughput', message },
    ]);
  });
});

describe('GCP regions and zones (Compute Engine regions-zones)', () => {
  it.each(['us-central1', 'europe-west4', 'northamerica-south1', 'africa-south1'])('accepts %s', (region) => {
    expect(issuesOf([store()], gcpRules({ region }))).toEqual([]);
  });

  it('refuses a location that does not exist, with the nearest regions', () => {
    expect(issuesOf([store({ location: 'europe-west7' })], gcpRules({ region: 'us-central1' }))).toEqual([
      {
        path: 'checkpoints:stores[0].location',
        value: 'europe-west7',
        message:
          'is not a Google Cloud region (the published list is in libs/config/src/facts/gcp.ts); did you mean europe-west1, europe-west2, europe-west3?',
      },
    ]);
  });

  it.each(['us-central1-f', 'us-east1-d', 'europe-west1-b'])('accepts the cache zone %s', (zone) => {
    const region = zone.slice(0, -2);
    expect(issuesOf([store({ tier: 'high-throughput', zone })], gcpRules({ region }))).toEqual([]);
  });

  it.each<[string, string]>([
    [
      'us-central1-z',
      'does not exist: the zones of us-central1 are us-central1-a, us-central1-b, us-central1-c, us-central1-f',
    ],
    ['us-east1-a', 'does not exist: the zones of us-east1 are us-east1-b, us-east1-c, us-east1-d'],
  ])('refuses the zone letter that does not exist (%s)', (zone, message) => {
    const region = zone.slice(0, -2);
    expect(issuesOf([store({ tier: 'high-throughput', zone })], gcpRules({ region }))).toEqual([
      { path: 'checkpoints:stores[0].zone', value: zone, message },
    ]);
  });

  it.each(['ml-platform-test-1234', 'abcdef'])('accepts the project ID %s', (project) => {
    expect(gcpProjectIssues(project)).toEqual([]);
  });

  it.each<[string, string]>([
    ['123456789012', ' (that is a project number; gcp:project takes the project ID)'],
    ['ML-Platform', ' (project IDs are lowercase: ml-platform)'],
    ['ml-', ''],
  ])('refuses the malformed project %s', (project, hint) => {
    expect(gcpProjectIssues(project)).toEqual([
      {
        path: 'gcp:project',
        value: project,
        message: `allowed: a project ID: 6 to 30 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen${hint}`,
      },
    ]);
  });
});

describe('Azure regions and their availability zones (Azure regions list)', () => {
  it.each(['eastus2', 'westeurope', 'swedencentral', 'East US 2'])('accepts %s', (location) => {
    expect(azureLocationIssues(location)).toEqual([]);
  });

  it('refuses a location that does not exist, with the nearest regions', () => {
    expect(azureLocationIssues('eastus3')).toEqual([
      {
        path: 'azure-native:location',
        value: 'eastus3',
        message:
          'is not an Azure public-cloud region (the published list is in libs/config/src/facts/azure.ts); did you mean eastus, eastus2, westus3?',
      },
    ]);
  });

  it('refuses a region without availability zones, naming the nearest ones that have them', () => {
    expect(azureLocationIssues('westus')).toEqual([
      {
        path: 'azure-native:location',
        value: 'westus',
        message:
          "has no availability zones, and every store's account is zone-redundant (ZRS) so checkpoints survive a zone outage; use a region with zones, e.g. westus2, westus3, eastus",
      },
    ]);
  });
});

describe('default quotas a stack can reach on its own: warnings that name the quota and how to raise it', () => {
  const spec = (stores: number) =>
    loadStackSpec(config(Array.from({ length: stores }, (_, i) => store({ name: `store-${i}` }))), awsRules);

  it.each<[string, () => string[], () => string[], string]>([
    [
      'AWS roles per account (1,000)',
      () => awsQuotaWarnings(spec(500)),
      () => awsQuotaWarnings(spec(501)),
      'the stack needs 1002 IAM roles (a writer and a reader role per store), more than the default quota "Roles per account" of 1000 (before anything else in it is counted); raise it in Service Quotas (IAM, quota code L-FE177D64) before pulumi up, or split the stores over stacks in several accounts',
    ],
    [
      'GCP service accounts per project (100)',
      () => gcpQuotaWarnings(spec(50)),
      () => gcpQuotaWarnings(spec(51)),
      'the stack needs 102 service accounts (a writer and a reader per store), more than the default quota "Number of service accounts" of 100',
    ],
    [
      'Azure storage accounts per region (250)',
      () => azureQuotaWarnings(spec(250), 0),
      () => azureQuotaWarnings(spec(251), 0),
      'the stack needs 251 storage accounts in one region (one per store), more than the default quota "Storage accounts per region per subscription" of 250',
    ],
    [
      'Azure role assignments per subscription (4,000)',
      () => azureQuotaWarnings(spec(1), 4000),
      () => azureQuotaWarnings(spec(1), 4001),
      'this limit cannot be raised: grant access to Microsoft Entra groups instead of individual principals',
    ],
  ])('%s: none at the quota, one above it', (_title, atQuota, aboveQuota, message) => {
    expect(atQuota()).toEqual([]);
    const warnings = aboveQuota();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(message);
  });
});
