import { resourceRule } from '../define';
import { REQUIRED_TAGS, TAGGABLE } from '../taggable';

export const standardTags = resourceRule({
  name: 'standard-tags',
  description:
    'Every taggable resource carries the standard tag set (owner, cost-center, environment, data-classification, managed-by, pulumi-project, pulumi-stack)',
  source: 'AWS Tagging Best Practices; Google Cloud labels guidance; Azure Cloud Adoption Framework tagging',
  types: Object.keys(TAGGABLE),
  validate: (props, args, report) => {
    const key = TAGGABLE[args.type] ?? 'tags';
    const tags = (props[key] ?? {}) as Record<string, unknown>;
    const missing = REQUIRED_TAGS.filter((tag) => typeof tags[tag] !== 'string' || tags[tag] === '');
    if (missing.length > 0) report(`${key} missing: ${missing.join(', ')}`);
    if (tags['managed-by'] !== undefined && tags['managed-by'] !== 'pulumi') {
      report(`${key}['managed-by'] is ${JSON.stringify(tags['managed-by'])}; must be "pulumi"`);
    }
  },
});
