import { ConfigError, gcpRules, loadStackSpec, type ConfigIssue } from '../src';

/** A prod stack config of these stores, as Pulumi hands it to the program. */
export function prodConfig(stores: Record<string, unknown>[]): Record<string, string> {
  return {
    'checkpoints:environment': 'prod',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores': JSON.stringify(stores),
  };
}

/** The VPC network a prod GCP store declares as its perimeter. */
export const NETWORK = { networks: ['projects/ml-platform-prod-7310/global/networks/training'] };

/** The issues the GCP rules find in a prod config of these stores (none: it loads). */
export function gcpIssuesOf(stores: Record<string, unknown>[]): ConfigIssue[] {
  try {
    loadStackSpec(prodConfig(stores), gcpRules({ region: 'us-central1' }));
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}
