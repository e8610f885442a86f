import fc from 'fast-check';
import {
  awsRules,
  azureRules,
  ConfigError,
  gcpRules,
  loadStackSpec,
  type CloudRules,
  type RetentionSpec,
  type StoreSpec,
  type Tier,
} from '@checkpoints/config';
import type { RenderedResource } from '@checkpoints/render';
import { adlsResources, brokenPromises, gcsResources, judge, s3Resources } from '../testing/retention';

/** Values around every limit the config and the clouds have, each key optional as in a real spec. */
const limits = {
  keepNoncurrentVersions: fc.constantFrom(0, 1, 3, 100),
  noncurrentExpireDays: fc.constantFrom(0, 1, 7, 30),
  coolAfterDays: fc.constantFrom(0, 30, 60),
  archiveAfterDays: fc.constantFrom(0, 90, 400),
  expireAfterDays: fc.constantFrom(0, 1, 60, 120, 500),
  abortIncompleteUploadDays: fc.constantFrom(0, 1, 7),
  softDeleteDays: fc.constantFrom(0, 7, 14),
  keptPrefixes: fc.constantFrom([], ['releases/']),
  expirePrefixes: fc.constantFrom([], ['runs/'], ['runs/', 'eval/']),
};
const anyRetention = fc.record(limits, { requiredKeys: [] });
// ADLS Gen2 refuses every versioning and upload key but 0, so draw only what it may accept.
const adlsRetention = fc.record(
  {
    ...limits,
    keepNoncurrentVersions: fc.constant(0),
    noncurrentExpireDays: fc.constant(0),
    abortIncompleteUploadDays: fc.constant(0),
    archiveAfterDays: fc.constant(0),
  },
  { requiredKeys: [] },
);

const CLOUDS: [
  string,
  CloudRules,
  string | undefined,
  (tier: Tier, spec: RetentionSpec) => RenderedResource[],
][] = [
  ['aws', awsRules.forRegion('us-east-1'), 'use1-az4', s3Resources],
  ['gcp', gcpRules({ region: 'us-central1' }), undefined, gcsResources],
  ['azure', azureRules, undefined, adlsResources],
];

/** The store as the config accepts it, or undefined when the config refuses it. */
function accepted(rules: CloudRules, raw: Record<string, unknown>): StoreSpec | undefined {
  const config = {
    'checkpoints:environment': 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores': JSON.stringify([raw]),
  };
  try {
    return loadStackSpec(config, rules).stores[0];
  } catch (error) {
    if (error instanceof ConfigError) return undefined;
    throw error;
  }
}

describe('any retention the config accepts keeps every promise once rendered (simulated)', () => {
  it.each(CLOUDS)('%s', (cloud, rules, zone, render) => {
    const retentions = cloud === 'azure' ? adlsRetention : anyRetention;
    fc.assert(
      fc.property(fc.constantFrom<Tier>('standard', 'high-throughput'), retentions, (tier, retention) => {
        const raw = { name: 'llm', dataClassification: 'internal', tier, retention };
        const store = accepted(rules, tier === 'high-throughput' && zone ? { ...raw, zone } : raw);
        fc.pre(store !== undefined);
        if (!store) return;
        const outcome = judge(rules.cloud, store.tier, store.retention, render(store.tier, store.retention));
        expect(brokenPromises(outcome)).toEqual([]);
      }),
      { numRuns: 30, maxSkipsPerRun: 1000 },
    );
  });
});
