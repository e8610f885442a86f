import {
  awsRequestAllowed,
  awsStoreAccess,
  type AwsNetworkOrigin,
  type Operation,
  type PolicyDocument,
} from '@checkpoints/analysis';
import { storesOf } from '@checkpoints/render';
import type { Snapshot } from '@checkpoints/synth';
import { ACCOUNT_ROOT, renderStack } from './render-stack';

/**
 * The perimeter judged as IAM would judge it (libs/analysis, @cloud-copilot/iam-simulate): who may read and
 * write each store from a given network, with the bucket policy the stack renders.
 */
const LISTED_ENDPOINT = 'vpce-0a1b2c3d4e5f60718';
const LISTED_VPC = 'vpc-0123456789abcdef0';
const LISTED_RANGE = '203.0.113.0/24';
const network = { vpcEndpoints: [LISTED_ENDPOINT], vpcs: [LISTED_VPC], cidrs: [LISTED_RANGE] };

const ORIGINS: Record<string, AwsNetworkOrigin> = {
  'the listed endpoint': { vpcEndpoint: LISTED_ENDPOINT, vpc: 'vpc-99999999999999999' },
  'another endpoint of the listed VPC': { vpcEndpoint: 'vpce-11111111111111111', vpc: LISTED_VPC },
  'an address of the listed range': { sourceIp: '203.0.113.40' },
  'another VPC': { vpcEndpoint: 'vpce-22222222222222222', vpc: 'vpc-33333333333333333' },
  'the internet': { sourceIp: '198.51.100.7' },
};

async function operations(
  snapshot: Snapshot,
  store: string,
  principal: string,
  origin: AwsNetworkOrigin,
): Promise<Operation[]> {
  const rendered = storesOf(snapshot).find((each) => each.name === store);
  const grants = await awsStoreAccess({ store: rendered!, render: snapshot, bootstrap: undefined }, origin);
  return grants.filter((grant) => grant.principal.label === principal).map((grant) => grant.operation);
}

describe('network perimeter (store.network)', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack({
      environment: 'prod',
      stores: [
        { name: 'standard', dataClassification: 'confidential', network },
        {
          name: 'express',
          dataClassification: 'confidential',
          tier: 'high-throughput',
          zone: 'use1-az4',
          network,
        },
        { name: 'open', dataClassification: 'internal', network: { public: true } },
      ],
    });
  });

  it.each([
    ['the listed endpoint', true],
    ['another endpoint of the listed VPC', true],
    ['an address of the listed range', true],
    ['another VPC', false],
    ['the internet', false],
  ])('standard store: the writer role reads and writes from %s: %s', async (origin, inside) => {
    const allowed = await operations(snapshot, 'standard', 'writer', ORIGINS[origin]!);
    const data: Operation[] = ['read', 'write', 'delete'];
    expect(data.filter((operation) => allowed.includes(operation))).toEqual(inside ? data : []);
  });

  it.each([
    ['the listed endpoint', true],
    ['the internet', false],
  ])('high-throughput store: the writer opens sessions from %s: %s', async (origin, inside) => {
    const allowed = await operations(snapshot, 'express', 'writer', ORIGINS[origin]!);
    expect(
      ['read', 'write', 'open-session'].filter((operation) => allowed.includes(operation as Operation)),
    ).toEqual(inside ? ['read', 'write', 'open-session'] : []);
  });

  it('a store declared public: the writer reads from anywhere (its identity still decides)', async () => {
    expect(await operations(snapshot, 'open', 'writer', ORIGINS['the internet']!)).toEqual(
      expect.arrayContaining(['read', 'write']),
    );
    expect(await operations(snapshot, 'open', 'reader', ORIGINS['the internet']!)).not.toContain('write');
  });

  it.each([
    ['the preview role', 'checkpoints-ci-preview', true],
    ["this environment's deploy role", 'checkpoints-ci-deploy-prod', true],
    ['a role named like the preview role', 'checkpoints-lookalike-preview', false],
    ["another environment's deploy role", 'checkpoints-ci-deploy-dev', false],
  ])('lists the bucket from the internet as %s (exempt by exact ARN): %s', async (_who, name, exempt) => {
    const bucket = snapshot.resources.find(
      (resource) => resource.type === 'aws:s3/bucket:Bucket' && resource.name === 'standard-bucket',
    )!;
    const policy = snapshot.resources.find(
      (resource) =>
        resource.type === 'aws:s3/bucketPolicy:BucketPolicy' && resource.name === 'standard-policy',
    )!;
    const arn = ACCOUNT_ROOT.replace(/:root$/, `:role/${name}`);
    const listing: PolicyDocument = {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: 's3:ListBucket', Resource: '*' }],
    };
    const reason = await awsRequestAllowed(
      {
        principal: { id: arn, label: name, kind: 'declared' },
        arn,
        policies: [{ name: 'list', policy: listing }],
      },
      {
        action: 's3:ListBucket',
        resource: `arn:aws:s3:::${String(bucket.inputs['bucket'])}`,
        context: { 'aws:SourceIp': '198.51.100.7', 'aws:SecureTransport': 'true', 's3:TlsVersion': '1.3' },
        resourcePolicy: JSON.parse(String(policy.inputs['policy'])) as PolicyDocument,
      },
    );
    expect(reason !== undefined).toBe(exempt);
  });
});
