/** Spec helpers: a store's lifecycle translation, rendered the way a stack renders it, judged by libs/analysis. */
import { simulateStore, type RenderedResource, type StoreRetention } from '@checkpoints/analysis';
import type { Cloud, RetentionSpec, Tier } from '@checkpoints/config';

export function resource(type: string, inputs: Record<string, unknown>): RenderedResource {
  return {
    urn: `urn:pulumi:test::spec::${type}::store`,
    type,
    name: 'store',
    parent: 'store',
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
  };
}

/** The simulator's verdict on one store's rendered resources against the retention its spec states. */
export function judge(
  cloud: Cloud,
  tier: Tier,
  retention: RetentionSpec,
  resources: RenderedResource[],
): StoreRetention {
  return simulateStore({ name: 'llm', cloud, urn: 'store', resources }, { tier, retention });
}

/** Every promise broken, as `promise: message`, for readable failures. */
export function brokenPromises(outcome: StoreRetention): string[] {
  return outcome.broken.map((broken) => `${broken.promise}: ${broken.message}`);
}
