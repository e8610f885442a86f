import { brokenPromiseMessages, retentionOf, type RenderedResource } from '@checkpoints/analysis';
import type { PolicyResource } from '@pulumi/policy';
import { isStoreComponent } from '@checkpoints/render';
import { stackRule } from '../define';

/** A policy resource in the shape libs/analysis reads (a real preview and synth give the same fields). */
function rendered(resource: PolicyResource): RenderedResource {
  return {
    urn: resource.urn,
    type: resource.type,
    name: resource.name,
    parent: resource.parent?.urn ?? null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs: resource.props,
  };
}

export const retentionPromises = stackRule({
  name: 'retention-promises',
  description:
    "Every store's rendered lifecycle keeps the retention promises of its spec (purge, recovery, bounded copies, live data), replayed day by day against the cloud's documented semantics",
  source:
    'DESIGN section 3 retention promises; S3 lifecycle, Cloud Storage Object Lifecycle Management and Azure lifecycle management documentation',
  validate: (args, report) => {
    const resources = args.resources.map(rendered);
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
