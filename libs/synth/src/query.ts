import type { ChangePlan, PlannedRender } from '@checkpoints/analysis';
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

/**
 * For each component of a type but the last, in registration order: whether one of its own cloud
 * resources registered before the next component of that type was (a stack building one store per turn).
 */
export function registeredInTurns(snapshot: Snapshot, type: string): { name: string; ownFirst: boolean }[] {
  const order = new Map(snapshot.resources.map((resource, index) => [resource.urn, index]));
  const components = ofType(snapshot, type);
  return components.slice(0, -1).map((component, index) => {
    const own = snapshot.resources.findIndex(
      (resource) => resource.custom && resource.parent === component.urn,
    );
    return { name: component.name, ownFirst: own >= 0 && own < order.get(components[index + 1]!.urn)! };
  });
}

/**
 * A copy of a render with the inputs of its first resource matching `which` (a logical name or a type) changed,
 * as a hand edit of the program would render it.
 */
export function editedRender(
  render: PlannedRender,
  which: string,
  change: (inputs: Record<string, unknown>) => void,
): PlannedRender {
  const copy = structuredClone(render) as PlannedRender;
  const resource = copy.resources.find((candidate) => candidate.name === which || candidate.type === which);
  if (!resource) throw new Error(`no resource named or typed ${which} in the render`);
  change(resource.inputs);
  return copy;
}

/** A plan's weakening as rows: store, aspect, what weakens, before, after. */
export function weakeningRows(plan: ChangePlan): unknown[][] {
  return plan.weakening.map((weakening) => [
    weakening.store,
    weakening.aspect,
    weakening.what,
    weakening.before,
    weakening.after,
  ]);
}
