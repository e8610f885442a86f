import type { RenderedResource } from '@checkpoints/render';
import { RETENTION_DEFAULTS, type Cloud, type RetentionSpec } from '@checkpoints/config';
import { adlsManagementPolicy, gcsLifecycleRules, s3LifecycleRules } from '@checkpoints/translate';
import {
  adlsResources,
  FILESYSTEM,
  gcsResources,
  s3Resources,
} from '@checkpoints/translate/testing/retention';
import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { retentionPromises } from './retention-promises';

const s3Spec: RetentionSpec = { ...RETENTION_DEFAULTS, softDeleteDays: 0 };
const gcsSpec: RetentionSpec = RETENTION_DEFAULTS;
const adlsSpec: RetentionSpec = {
  ...RETENTION_DEFAULTS,
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  abortIncompleteUploadDays: 0,
  expireAfterDays: 90,
  keptPrefixes: ['releases/'],
  expirePrefixes: ['runs/'],
};

/** A store as a stack renders it: its component, carrying the spec's retention, and the store's resources. */
function stack(cloud: Cloud, retention: RetentionSpec, resources: RenderedResource[]): ResourceUnderTest[] {
  const type = `checkpoints:${cloud}:CheckpointStore`;
  const parent = `urn:pulumi:test::spec::${type}::llm-pretrain`;
  return [
    { type, name: 'llm-pretrain', props: { tier: 'standard', retention } },
    ...resources.map((resource, index) => ({
      type: resource.type,
      name: `llm-pretrain-${index}`,
      props: resource.inputs,
      parent,
    })),
  ];
}

const s3Rules = s3LifecycleRules(s3Spec);
const gcsRules = gcsLifecycleRules(gcsSpec);
const isGcsPurge = (rule: (typeof gcsRules)[number]) => rule.condition.daysSinceNoncurrentTime !== undefined;

describe('retention-promises', () => {
  it.each<[string, ResourceUnderTest[]]>([
    ['S3', stack('aws', s3Spec, s3Resources('standard', s3Spec))],
    ['Cloud Storage', stack('gcp', gcsSpec, gcsResources('standard', gcsSpec))],
    ['ADLS Gen2', stack('azure', adlsSpec, adlsResources('standard', adlsSpec))],
  ])('passes a %s store whose lifecycle keeps every promise of its spec', async (_cloud, resources) => {
    expect(await violationsOf(retentionPromises, resources)).toEqual([]);
  });

  it.each<[string, ResourceUnderTest[], RegExp]>([
    [
      'S3 without the purge rule',
      stack(
        'aws',
        s3Spec,
        s3Resources(
          'standard',
          s3Spec,
          s3Rules.filter((r) => r.id !== 'purge-noncurrent-versions'),
        ),
      ),
      /^store llm-pretrain breaks the purge promise on day \d+: a checkpoint deleted by a job is still stored/,
    ],
    [
      'S3 with the count back in the purge rule (the old shape)',
      stack(
        'aws',
        s3Spec,
        s3Resources(
          'standard',
          s3Spec,
          s3Rules
            .filter((rule) => rule.id !== 'keep-newest-noncurrent-versions')
            .map((rule) =>
              rule.id === 'purge-noncurrent-versions'
                ? { ...rule, noncurrentVersionExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 3 } }
                : rule,
            ),
        ),
      ),
      /^store llm-pretrain breaks the purge promise on day \d+: a checkpoint deleted by a job is still stored/,
    ],
    [
      'Cloud Storage without the purge rule',
      stack(
        'gcp',
        gcsSpec,
        gcsResources(
          'standard',
          gcsSpec,
          gcsRules.filter((rule) => !isGcsPurge(rule)),
        ),
      ),
      /^store llm-pretrain breaks the purge promise on day \d+: a checkpoint deleted by a job is still stored/,
    ],
    [
      'Cloud Storage with the count back in the purge rule (the old shape)',
      stack(
        'gcp',
        gcsSpec,
        gcsResources(
          'standard',
          gcsSpec,
          gcsRules
            .filter((rule) => rule.condition.numNewerVersions === undefined)
            .map((rule) =>
              isGcsPurge(rule) ? { ...rule, condition: { ...rule.condition, numNewerVersions: 4 } } : rule,
            ),
        ),
      ),
      /^store llm-pretrain breaks the purge promise on day \d+: a checkpoint deleted by a job is still stored/,
    ],
    [
      'ADLS Gen2 with one expiry rule for every blob (the old shape)',
      stack(
        'azure',
        adlsSpec,
        adlsResources(
          'standard',
          adlsSpec,
          adlsManagementPolicy({ ...adlsSpec, expirePrefixes: [] }, 'standard', FILESYSTEM),
        ),
      ),
      /^store llm-pretrain breaks the live-data promise on day 91: releases\/.* is deleted on day 91/,
    ],
  ])('fails %s, naming store, promise and day', async (_title, resources, message) => {
    expect(await violationsOf(retentionPromises, resources)).toContainEqual(expect.stringMatching(message));
  });

  it('fails a store whose render does not carry its spec, rather than passing it unchecked', async () => {
    const [component, ...children] = stack('aws', s3Spec, s3Resources('standard', s3Spec));
    const withoutSpec = [{ ...component, props: {} } as ResourceUnderTest, ...children];
    expect(await violationsOf(retentionPromises, withoutSpec)).toEqual([
      "store llm-pretrain: the render does not carry the spec's retention, so its promises cannot be checked",
    ]);
  });
});
