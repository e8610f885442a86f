import type { Render, RenderedResource } from '@checkpoints/render';

/** The stack resource every hand-made render's resources hang from. */
export const STACK_ROOT: RenderedResource = {
  urn: 'urn:stack',
  type: 'pulumi:pulumi:Stack',
  name: 'stack',
  parent: null,
  protect: false,
  retainOnDelete: false,
  dependsOn: [],
  inputs: {},
};

/** A resource of store component `store`, named and with a URN as synth renders a store's own. */
export function storeResource(
  store: string,
  type: string,
  suffix: string,
  inputs: Record<string, unknown>,
): RenderedResource {
  return {
    urn: `urn:${store}:${type}::${suffix}`,
    type,
    name: `${store}-${suffix}`,
    parent: `urn:store:${store}`,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
  };
}

/** A hand-made render: a stack, a store component, the store's resources and any others. */
export function renderOf(
  store: { type: string; name?: string },
  storeResources: Omit<RenderedResource, 'urn' | 'parent' | 'protect' | 'retainOnDelete' | 'dependsOn'>[],
  others: Omit<RenderedResource, 'urn' | 'parent' | 'protect' | 'retainOnDelete' | 'dependsOn'>[] = [],
): Pick<Render, 'resources'> {
  const storeUrn = `urn:store:${store.name ?? 'ckpt'}`;
  const complete = (parent: string | null) => (resource: (typeof storeResources)[number], index: number) => ({
    ...resource,
    urn: `urn:${parent ?? 'top'}:${resource.type}::${resource.name}:${index}`,
    parent,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
  });
  return {
    resources: [
      STACK_ROOT,
      {
        urn: storeUrn,
        type: store.type,
        name: store.name ?? 'ckpt',
        parent: 'urn:stack',
        protect: false,
        retainOnDelete: false,
        dependsOn: [],
        inputs: {},
      },
      ...storeResources.map(complete(storeUrn)),
      ...others.map(complete(null)),
    ],
  };
}

export function resource(type: string, name: string, inputs: Record<string, unknown>) {
  return { type, name, inputs };
}
