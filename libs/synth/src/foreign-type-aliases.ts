import { Output, type Input } from '@pulumi/pulumi/output';
import type { Alias, Resource, ResourceTransformation, URN } from '@pulumi/pulumi/resource';

/**
 * A stack transformation for the offline render: leaves out of a provider resource's `aliases` each alias
 * that only names another type (`{ type: T }`, T not the resource's own type), the 20 to 30 former API
 * versions azure-native declares on every resource (aws: one or two). The SDK collapses each alias to a
 * URN twice (in the resource's constructor, and again when it registers), each through some ten
 * `Output`s of about 25 promises: most of an Azure render's heap, for URNs of type T that the render
 * drops (it keeps aliases of the resource's own type only, see `urnType` in render.ts).
 *
 * Those aliases matter to the resource's children only: a child inherits its parent's aliases as the type
 * prefix of aliases of its own, which the render keeps. A transformation sees a resource's options, not
 * the aliases the SDK collapsed from them, so it cannot give a child what its parent lost: components
 * (which have children, and whose type aliases are renames) keep theirs, and a child of a provider
 * resource whose aliases were left out fails the render rather than be recorded without them. No stack
 * of this repository gives a provider resource children.
 */
export function withoutForeignTypeAliases(): ResourceTransformation {
  const trimmed = new WeakMap<Resource, string>();
  return (args) => {
    const parent = args.opts.parent;
    const trimmedParent = parent && trimmed.get(parent);
    if (trimmedParent !== undefined) {
      throw new Error(
        `${args.type} '${args.name}' is a child of ${trimmedParent}, whose aliases to former types the offline render leaves out; the child would not inherit them, so synth cannot render it as Pulumi would register it`,
      );
    }
    const aliases = args.opts.aliases;
    if (!aliases?.length || !isProviderResource(args.resource)) return undefined;
    const kept = aliases.filter((alias) => !isForeignTypeAlias(alias, args.type));
    if (kept.length === aliases.length) return undefined;
    trimmed.set(args.resource, `${args.type} '${args.name}'`);
    return { props: args.props, opts: { ...args.opts, aliases: kept } };
  };
}

/**
 * Whether `resource` is being constructed by a provider SDK's generated class. Each has a static
 * `isInstance` that compares the type the Resource constructor records first with its own type token,
 * and holds across copies of the SDK (a test's fresh module registry); a component's class inherits
 * ComponentResource's, which is false until the constructor has returned.
 */
function isProviderResource(resource: Resource): boolean {
  const generated = resource.constructor as { isInstance?: (value: unknown) => boolean };
  return generated.isInstance?.(resource) === true;
}

/** `{ type: T }` and nothing else, T a plain type token other than `type` (a URN of type T, see `urnType`). */
function isForeignTypeAlias(alias: Input<URN | Alias>, type: string): alias is { type: string } {
  if (typeof alias !== 'object' || alias === null || Output.isInstance(alias)) return false;
  const keys = Object.keys(alias);
  const aliasType = (alias as Alias).type;
  return (
    keys.length === 1 &&
    keys[0] === 'type' &&
    typeof aliasType === 'string' &&
    aliasType !== type &&
    !aliasType.includes('$') &&
    !aliasType.includes('::')
  );
}
