import { isCi } from '@checkpoints/analysis';
import { accessRule } from './analysis';

export const ciProdNoBlindAudit = accessRule({
  name: 'ci-prod-no-blind-audit',
  description:
    'In prod, no CI identity can stop, narrow or reroute the audit of a store (trail, audit configs and sinks, diagnostic settings) where a guardrail of its cloud could refuse it; where none can, restricted data is refused',
  source:
    'Checkpoint security baseline (every access to checkpoint data is recorded); CIS AWS Foundations 3.x (CloudTrail), CIS Google Cloud 2.1 (Data Access audit logs), CIS Azure 5.1 (diagnostic settings)',
  needsBootstrap: true,
  judge: (grant, store) => {
    if (!isCi(grant.principal) || store.environment !== 'prod' || grant.operation !== 'blind-audit') {
      return undefined;
    }
    const effect = grant.configuration;
    if ((effect?.guardrails ?? []).length > 0) return undefined;
    const writes = (effect?.writes ?? []).map((write) => write.permission).join(', ');
    if (effect?.unguarded === undefined) return `can blind the audit of the store in prod (${writes})`;
    return store.dataClassification === 'restricted'
      ? `can blind the audit of restricted data in prod (${writes}) and no guardrail of the cloud can refuse it (${effect.unguarded})`
      : undefined;
  },
});
