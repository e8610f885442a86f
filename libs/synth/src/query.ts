import type { RenderedResource, Snapshot } from './snapshot';

/** Every resource of a type, in registration order. */
export function ofType(snapshot: Snapshot, type: string): RenderedResource[] {
  return snapshot.resources.filter((resource) => resource.type === type);
}

/** The one resource of a type with this logical name; throws with the names there are when missing. */
export function byName(snapshot: Snapshot, type: string, name: string): RenderedResource {
  const candidates = ofType(snapshot, type);
  const found = candidates.find((resource) => resource.name === name);
  if (!found) {
    throw new Error(
      `no ${type} named '${name}'; rendered: ${candidates.map((resource) => resource.name).join(', ') || 'none'}`,
    );
  }
  return found;
}

/** The resources whose parent is the given one. */
export function childrenOf(snapshot: Snapshot, parent: RenderedResource): RenderedResource[] {
  return snapshot.resources.filter((resource) => resource.parent === parent.urn);
}

/** Cloud resources only (components left out). */
export function customResources(snapshot: Snapshot): RenderedResource[] {
  return snapshot.resources.filter((resource) => resource.custom);
}
