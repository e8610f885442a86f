import { resourceRule } from '../define';
import { DATA_RESOURCES, TAGGABLE } from '../taggable';

/** The environment a resource belongs to, read from its own tags (its key resource may carry none). */
function environmentOf(props: Record<string, unknown>, type: string): unknown {
  const key = TAGGABLE[type];
  const tags = key ? (props[key] as Record<string, unknown> | undefined) : undefined;
  return tags?.['environment'];
}

export const protectDataInProd = resourceRule({
  name: 'protect-data-in-prod',
  description:
    'In prod, resources that hold checkpoints or their keys are protected against deletion by a deploy',
  source: 'Pulumi resource options guidance (protect); AWS Well-Architected REL09 (back up and protect data)',
  types: DATA_RESOURCES,
  validate: (props, args, report) => {
    if (environmentOf(props, args.type) !== 'prod') return;
    if (!args.opts.protect) report(`${args.type} in prod must set the 'protect' resource option`);
  },
});
