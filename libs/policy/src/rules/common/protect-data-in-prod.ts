import { resourceRule } from '../define';
import { DATA_RESOURCES, TAGGABLE } from '../taggable';

/** A resource's own tags or labels (its key resource may carry none). */
function tagsOf(props: Record<string, unknown>, type: string): Record<string, unknown> | undefined {
  const key = TAGGABLE[type];
  return key ? (props[key] as Record<string, unknown> | undefined) : undefined;
}

/** The verdict names the config key that drives the option, so the fix is made where the user writes config. */
function fix(store: unknown): string {
  const which = typeof store === 'string' ? `the store named '${store}'` : 'its store';
  return (
    `set checkpoints:stores[i].protect to true for ${which}, or remove that key (prod defaults to true); ` +
    'a deploy may then no longer delete it'
  );
}

export const protectDataInProd = resourceRule({
  name: 'protect-data-in-prod',
  description:
    'In prod, resources that hold checkpoints or their keys are protected against deletion by a deploy',
  source: 'Pulumi resource options guidance (protect); AWS Well-Architected REL09 (back up and protect data)',
  types: DATA_RESOURCES,
  validate: (props, args, report) => {
    const tags = tagsOf(props, args.type);
    if (tags?.['environment'] !== 'prod' || args.opts.protect) return;
    report(
      `${args.type} in prod holds checkpoints or their key without the 'protect' resource option: ${fix(tags['checkpoint-store'])}`,
    );
  },
});
