import { join } from 'node:path';
import {
  type AwsPrincipal,
  awsRequestAllowed,
  awsTrailsRecording,
  complianceOf,
  createAnalysisContext,
} from '@checkpoints/analysis';
import { byName, renderStackFile, type Snapshot } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { documentOf, resource, sharedRenderStack } from './render-stack';

const replicated = {
  name: 'llm-pretrain',
  dataClassification: 'confidential',
  recovery: { replicaRegion: 'us-west-2' },
};
const LOGGING = 'aws:s3/bucketLogging:BucketLogging';

const bucketName = (snapshot: Snapshot, name: string) =>
  String(resource(snapshot, 'bucket', name).inputs['bucket']);

describe('the audit trail protects itself, and records and logs every bucket of a store', () => {
  let prod: Snapshot;
  beforeAll(async () => {
    prod = await sharedRenderStack({ environment: 'prod', stores: [replicated] });
  });

  it("records the reads and writes of the replica's objects, not only the store's", () => {
    const replica = bucketName(prod, 'llm-pretrain-replica-bucket');
    for (const readOnly of [true, false]) {
      const event = {
        resourceType: 'AWS::S3::Object',
        arn: `arn:aws:s3:::${replica}/run-1/model.pt`,
        readOnly,
      };
      expect(awsTrailsRecording(prod.resources, event)).toHaveLength(1);
    }
  });

  it('logs the requests of the store bucket, its replica and the audit-log bucket into a log bucket of their own region', () => {
    const logging = prod.resources.filter((r) => r.type === LOGGING);
    const targets = Object.fromEntries(
      logging.map((setting) => [
        setting.inputs['bucket'],
        [setting.inputs['targetBucket'], setting.inputs['region'] ?? 'us-east-1'],
      ]),
    );
    const home = bucketName(prod, 'access-log-bucket');
    const west = bucketName(prod, 'access-log-us-west-2-bucket');
    expect(targets).toEqual({
      [bucketName(prod, 'llm-pretrain-bucket')]: [home, 'us-east-1'],
      [bucketName(prod, 'audit-bucket')]: [home, 'us-east-1'],
      [bucketName(prod, 'llm-pretrain-replica-bucket')]: [west, 'us-west-2'],
    });
  });

  it('locks every log file for a year and denies deleting a record, the log bucket or the lock to every principal', async () => {
    const lock = byName(
      prod,
      'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration',
      'audit-retention-lock',
    );
    expect(lock.inputs).toMatchObject({
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'GOVERNANCE', days: 365 } },
    });
    const log = bucketName(prod, 'audit-bucket');
    const policy = documentOf(resource(prod, 'bucketPolicy', 'audit-policy'));
    const admin: AwsPrincipal = {
      principal: { id: 'admin', label: 'administrator', kind: 'cloud-default' as const },
      arn: 'arn:aws:iam::123456789012:role/admin',
      policies: [
        {
          name: 'admin',
          policy: {
            Version: '2012-10-17',
            Statement: [{ Effect: 'Allow' as const, Action: '*', Resource: '*' }],
          },
        },
      ],
    };
    // The same administrator reads a log file: the denial is the policy's statement, not the simulation's.
    const read = {
      action: 's3:GetObject',
      resource: `arn:aws:s3:::${log}/AWSLogs/x.json.gz`,
      resourcePolicy: policy,
    };
    expect(await awsRequestAllowed(admin, read)).toBeDefined();
    for (const [action, target] of [
      ['s3:DeleteObjectVersion', `arn:aws:s3:::${log}/AWSLogs/123456789012/x.json.gz`],
      ['s3:DeleteBucket', `arn:aws:s3:::${log}`],
      ['s3:BypassGovernanceRetention', `arn:aws:s3:::${log}/AWSLogs/123456789012/x.json.gz`],
    ] as const) {
      expect(
        await awsRequestAllowed(admin, { action, resource: target, resourcePolicy: policy }),
      ).toBeUndefined();
    }
  });
});

describe('compliance of the shipped prod stores', () => {
  let shipped: Snapshot;
  beforeAll(async () => {
    shipped = await renderStackFile(join(__dirname, '..'), 'prod', checkpointStack);
  }, 60_000);
  const failingOf = async (snapshot: Snapshot) => {
    const { stores } = await complianceOf(createAnalysisContext(snapshot));
    for (const each of stores.flatMap((store) => store.controls)) {
      if (each.verdict === 'exception') expect(each.reason).toEqual(expect.any(String));
    }
    return stores.flatMap((store) =>
      store.controls
        .filter((each) => each.verdict === 'fail')
        .map((each) => `${store.store} ${each.control}: ${each.detail}`),
    );
  };

  it('fails no control: every deviation is a declared exception with its reason', async () => {
    expect(await failingOf(shipped)).toEqual([]);
  });

  it('declares the high-throughput store unscanned, with the reason: GuardDuty does not support directory buckets', async () => {
    const { stores } = await complianceOf(createAnalysisContext(shipped));
    const fast = stores.find((store) => store.store === 'llm-pretrain-fast');
    const scan = fast?.controls.find((each) => each.control === 'checkpoints malware-scan (AWS)');
    expect(scan?.verdict).toBe('exception');
    expect(scan?.reason).toContain('supports general purpose buckets only');
  });

  it('fails the malware-scan control when a store bucket loses its plan in the render', async () => {
    const broken = {
      ...shipped,
      resources: shipped.resources.filter(
        (each) =>
          !(
            each.type === 'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan' &&
            each.name === 'llm-releases-malware-scan'
          ),
      ),
    };
    expect(await failingOf(broken)).toEqual([
      'llm-releases checkpoints malware-scan (AWS): no GuardDuty malware protection plan for the store bucket',
    ]);
  });

  it('fails the releases-replicated control when the release store loses its replica in the render', async () => {
    const replica = resource(shipped, 'bucket', 'llm-releases-replica-bucket').parent;
    const broken = {
      ...shipped,
      resources: shipped.resources.filter((each) => each.urn !== replica && each.parent !== replica),
    };
    expect(await failingOf(broken)).toContain(
      'llm-releases checkpoints releases-replicated (AWS): a prod store of released checkpoints with no replica',
    );
  });
});
