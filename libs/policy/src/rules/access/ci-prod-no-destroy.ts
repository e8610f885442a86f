import { isCi } from '@checkpoints/analysis';
import { accessRule } from './analysis';

export const ciProdNoDestroy = accessRule({
  name: 'ci-prod-no-destroy',
  description:
    'In prod, no CI identity can delete a data-holding resource or destroy a key: that is a break-glass action for an administrator',
  source:
    'Checkpoint security baseline (data never lost to a deploy) and CI rights; AWS Well-Architected REL09 (back up and protect data)',
  needsBootstrap: true,
  judge: (grant, store) => {
    if (!isCi(grant.principal) || store.environment !== 'prod') return undefined;
    if (grant.operation === 'delete-store') return 'can delete a data-holding resource in prod';
    if (grant.operation === 'destroy-key') return 'can destroy a key in prod';
    return undefined;
  },
});
