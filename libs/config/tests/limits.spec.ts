import { awsRules, azureRules, ConfigError, gcpRules, loadStackSpec, type CloudRules } from '../src';

function config(retention: Record<string, unknown>): Record<string, string> {
  return {
    'checkpoints:environment': 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores': JSON.stringify([{ name: 'llm', dataClassification: 'internal', retention }]),
  };
}

function messagesOf(rules: CloudRules, retention: Record<string, unknown>): string[] {
  try {
    loadStackSpec(config(retention), rules);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => issue.message);
    throw error;
  }
  return [];
}

/** Every range a message states, e.g. `7 to 90`. */
function rangesIn(messages: readonly string[]): string[] {
  return messages.flatMap((message) => [...message.matchAll(/\b\d+(?: \([^)]*\))? to \d+\b/g)].map(String));
}

describe('a limit is stated the same way each time a value misses it', () => {
  it('GCP softDeleteDays: 400, then 200 after a fix, are both told 7 to 90; 90 is accepted', () => {
    const rules = gcpRules({ region: 'us-central1' });
    const first = messagesOf(rules, { softDeleteDays: 400 });
    expect(first).toHaveLength(1);
    expect(rangesIn(first)).toEqual(['7 to 90']);
    expect(messagesOf(rules, { softDeleteDays: 200 })).toEqual(first);
    expect(rangesIn(messagesOf(rules, { softDeleteDays: 3 }))).toEqual(['7 to 90']);
    expect(messagesOf(rules, { softDeleteDays: 90 })).toEqual([]);
  });

  it('AWS softDeleteDays: 400, then 200, are both told S3 has no soft delete', () => {
    const rules = awsRules.forRegion('us-east-1');
    const first = messagesOf(rules, { softDeleteDays: 400 });
    expect(first).toEqual([expect.stringContaining('S3 has no soft delete')]);
    expect(messagesOf(rules, { softDeleteDays: 200 })).toEqual(first);
  });

  it('Azure softDeleteDays: 400, then 3, are both told 7 to 365', () => {
    const retention = { coolAfterDays: 30 };
    const first = messagesOf(azureRules, { ...retention, softDeleteDays: 400 });
    expect(first).toHaveLength(1);
    expect(rangesIn(first)).toEqual(['7 to 365']);
    expect(rangesIn(messagesOf(azureRules, { ...retention, softDeleteDays: 3 }))).toEqual(['7 to 365']);
    expect(messagesOf(azureRules, { ...retention, softDeleteDays: 365 })).toEqual([]);
  });
});
