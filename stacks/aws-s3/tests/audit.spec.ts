import { awsTrailsRecording } from '@checkpoints/analysis';
import type { Snapshot } from '@checkpoints/synth';
import { ACCOUNT, documentOf, renderStack, resource } from './render-stack';

const standard = { name: 'llm-pretrain', dataClassification: 'internal' };
const express = {
  name: 'llm-fast',
  dataClassification: 'internal',
  tier: 'high-throughput',
  zone: 'use1-az4',
};
const TRAIL = 'aws:cloudtrail/trail:Trail';

/** The trails that record a read and a write of an object of the store's bucket. */
function recording(snapshot: Snapshot, store: string): { read: string[]; write: string[] } {
  const bucket = snapshot.resources.find((r) => r.name === `${store}-bucket`)!;
  const name = bucket.inputs['bucket'] as string;
  const directory = bucket.type === 'aws:s3/directoryBucket:DirectoryBucket';
  const arn = directory ? `arn:aws:s3express:us-east-1:${ACCOUNT}:bucket/${name}` : `arn:aws:s3:::${name}`;
  const event = (readOnly: boolean) => ({
    resourceType: directory ? 'AWS::S3Express::Object' : 'AWS::S3::Object',
    arn: `${arn}/run-1/step-100/model.pt`,
    readOnly,
  });
  return {
    read: awsTrailsRecording(snapshot.resources, event(true)),
    write: awsTrailsRecording(snapshot.resources, event(false)),
  };
}

describe('audit: CloudTrail data events', () => {
  let prod: Snapshot;
  beforeAll(async () => {
    prod = await renderStack({ environment: 'prod', stores: [standard, express] });
  });

  it('prod: one stack trail records every read and write of every store, of both tiers', () => {
    const [trail] = prod.resources.filter((r) => r.type === TRAIL);
    const name = trail!.inputs['name'] as string;
    expect(prod.resources.filter((r) => r.type === TRAIL)).toHaveLength(1);
    expect(recording(prod, 'llm-pretrain')).toEqual({ read: [name], write: [name] });
    expect(recording(prod, 'llm-fast')).toEqual({ read: [name], write: [name] });
    expect(prod.outputs['audit']).toEqual({
      trail: `arn:aws:cloudtrail:us-east-1:${ACCOUNT}:trail/${name}`,
      logBucket: `s3://${String(resource(prod, 'bucket', 'audit-bucket').inputs['bucket'])}/AWSLogs/`,
    });
  });

  it('the trail is multi-region (a replica elsewhere is recorded too), validates its files and is encrypted with its own key', () => {
    const trail = prod.resources.find((r) => r.type === TRAIL)!;
    const key = resource(prod, 'key', 'audit-key');
    expect(trail.inputs).toMatchObject({ isMultiRegionTrail: true, enableLogFileValidation: true });
    expect(trail.inputs['kmsKeyId']).toMatch(/^arn:aws:kms:us-east-1:\d{12}:key\//);
    expect(documentOf(key).Statement.map((statement) => statement.Sid)).toEqual([
      'Enable IAM User Permissions',
      'AllowCloudTrailToEncryptLogs',
      'AllowCloudTrailToDescribeKey',
    ]);
  });

  it('prod: the trail, its log bucket and its key are protected and never deleted by a deploy', () => {
    const holders = prod.resources.filter((r) =>
      ['audit-trail', 'audit-bucket', 'audit-key'].includes(r.name),
    );
    expect(holders.map((r) => [r.name, r.protect, r.retainOnDelete]).sort()).toEqual([
      ['audit-bucket', true, true],
      ['audit-key', true, true],
      ['audit-trail', true, true],
    ]);
  });

  it('the log bucket: private, owner-enforced, versioned, writable by CloudTrail for this trail only, TLS only', () => {
    const trail = prod.resources.find((r) => r.type === TRAIL)!;
    const trailArn = `arn:aws:cloudtrail:us-east-1:${ACCOUNT}:trail/${String(trail.inputs['name'])}`;
    expect(resource(prod, 'publicAccessBlock', 'audit-public-access-block').inputs).toMatchObject({
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    });
    expect(resource(prod, 'ownership', 'audit-ownership').inputs['rule']).toEqual({
      objectOwnership: 'BucketOwnerEnforced',
    });
    expect(resource(prod, 'versioning', 'audit-versioning').inputs['versioningConfiguration']).toEqual({
      status: 'Enabled',
    });
    const allows = documentOf(resource(prod, 'bucketPolicy', 'audit-policy')).Statement.filter(
      (statement) => statement.Effect === 'Allow',
    );
    expect(
      allows.map((statement) => [
        statement.Principal,
        statement.Condition?.['StringEquals']?.['aws:SourceArn'],
      ]),
    ).toEqual([
      [{ Service: ['cloudtrail.amazonaws.com'] }, trailArn],
      [{ Service: ['cloudtrail.amazonaws.com'] }, trailArn],
    ]);
  });

  it('the trail, log bucket and key carry the stack tags, classified as the most sensitive audited store', async () => {
    const snapshot = await renderStack({
      environment: 'prod',
      stores: [standard, { ...express, dataClassification: 'restricted' }],
    });
    for (const name of ['audit-trail', 'audit-bucket', 'audit-key']) {
      expect(snapshot.resources.find((r) => r.name === name)?.inputs['tags']).toEqual({
        owner: 'ml-platform',
        'cost-center': 'cc-1234',
        environment: 'prod',
        'data-classification': 'restricted',
        'managed-by': 'pulumi',
        'pulumi-project': 'checkpoints-aws',
        'pulumi-stack': 'prod',
      });
    }
  });

  it('dev: only stores whose classification calls for it are audited, and the log bucket is SSE-S3', async () => {
    const dev = await renderStack({
      environment: 'dev',
      stores: [standard, { ...express, dataClassification: 'restricted' }],
    });
    const [trail] = dev.resources.filter((r) => r.type === TRAIL);
    expect(recording(dev, 'llm-fast').write).toEqual([trail!.inputs['name']]);
    expect(recording(dev, 'llm-pretrain')).toEqual({ read: [], write: [] });
    expect(dev.resources.some((r) => r.name === 'audit-key')).toBe(false);
  });

  it('no trail at all when no store is audited, and no audit output', async () => {
    const dev = await renderStack({ environment: 'dev', stores: [standard] });
    expect(dev.resources.filter((r) => r.type === TRAIL || r.name.startsWith('audit'))).toEqual([]);
    expect(dev.outputs['audit']).toBeUndefined();
  });

  it('a declared organization trail replaces the stack trail, and the output names it', async () => {
    const organizationTrail = 'arn:aws:cloudtrail:us-east-1:111122223333:trail/org-trail';
    const snapshot = await renderStack({
      environment: 'prod',
      stores: [standard],
      extra: { 'checkpoints:organizationTrail': organizationTrail },
    });
    expect(snapshot.resources.filter((r) => r.type === TRAIL)).toEqual([]);
    expect(snapshot.outputs['audit']).toEqual({ trail: organizationTrail });
  });
});
