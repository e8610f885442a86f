import type { PolicyResource } from '@pulumi/policy';

/**
 * Which child resources (an S3 bucket's settings, a storage account's companions) belong to which parents:
 * a child belongs to a parent when its `property` input depends on the parent (how a real first preview
 * shows it, the name being unknown), or, both being known, it names the parent (`nameOf`, the parent's
 * name and the child's reference being the same input). Each resource's name is read once and the links
 * are found by dependency and by name, not by testing every child against every parent.
 */
export function childLinks(
  children: readonly PolicyResource[],
  parents: readonly PolicyResource[],
  property: string,
  readName: (resource: PolicyResource) => unknown,
) {
  const names = new Map<PolicyResource, unknown>();
  const nameOf = (resource: PolicyResource) => {
    if (!names.has(resource)) names.set(resource, readName(resource));
    return names.get(resource);
  };
  const dependenciesOf = (child: PolicyResource) =>
    (child.propertyDependencies[property] ?? []).map((dependency) => dependency.urn);
  const linkedUrns = new Set(children.flatMap(dependenciesOf));
  const linkedNames = new Set(children.map(nameOf).filter((name) => typeof name === 'string'));
  const firstByUrn = new Map<string, number>();
  const firstByName = new Map<string, number>();
  parents.forEach((parent, index) => {
    if (!firstByUrn.has(parent.urn)) firstByUrn.set(parent.urn, index);
    const name = nameOf(parent);
    if (typeof name === 'string' && !firstByName.has(name)) firstByName.set(name, index);
  });
  return {
    /** Whether one of the children belongs to the parent. */
    hasChild: (parent: PolicyResource) => {
      const name = nameOf(parent);
      return linkedUrns.has(parent.urn) || (typeof name === 'string' && linkedNames.has(name));
    },
    /** The first of the parents (in their order) the child belongs to. */
    parentOf: (child: PolicyResource): PolicyResource | undefined => {
      const name = nameOf(child);
      const candidates = [
        ...dependenciesOf(child).map((urn) => firstByUrn.get(urn)),
        typeof name === 'string' ? firstByName.get(name) : undefined,
      ].filter((index) => index !== undefined);
      return candidates.length > 0 ? parents[Math.min(...candidates)] : undefined;
    },
  };
}
