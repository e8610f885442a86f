import { brokenPromiseMessages, retentionOf } from '@checkpoints/analysis';
import { isStoreComponent } from '@checkpoints/render';
import { stackRule } from '../define';

export const retentionPromises = stackRule({
  name: 'retention-promises',
  description:
    "Every store's rendered lifecycle keeps the retention promises of its spec (purge, recovery, bounded copies, live data), replayed day by day against the cloud's documented semantics",
  source:
    'Checkpoint retention promises (docs/config.md); S3 lifecycle, Cloud Storage Object Lifecycle Management and Azure lifecycle management documentation',
  validate: (_args, report, evaluation) => {
    // The evaluation's resources: a value unknown on a preview is synth's mark there, which the replay
    // reads as unknown, where the engine's own props would throw and turn the rule advisory.
    const { resources } = evaluation();
    // Each store's component by name (the first of that name), looked up once for all stores.
    const components = new Map<string, string>();
    for (const resource of resources) {
      if (isStoreComponent(resource.type) && !components.has(resource.name))
        components.set(resource.name, resource.urn);
    }
    for (const store of retentionOf({ resources })) {
      const urn = components.get(store.store);
      if (store.tier === null) {
        report(
          `store ${store.store}: the render does not carry the spec's retention, so its promises cannot be checked`,
          urn,
        );
      }
      for (const message of brokenPromiseMessages(store)) report(message, urn);
    }
  },
});
