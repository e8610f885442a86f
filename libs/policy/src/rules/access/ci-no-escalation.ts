import { isCi, type Operation } from '@checkpoints/analysis';
import { accessRule } from './analysis';

const ESCALATIONS: Partial<Record<Operation, string>> = {
  'act-as': 'can act as another identity',
  'add-credentials': 'can add a credential to a store identity',
  'self-grant': 'can grant itself data access',
};

export const ciNoEscalation = accessRule({
  name: 'ci-no-escalation',
  description:
    'No CI identity can act as another identity, grant itself data access, or add a credential to a store identity',
  source:
    'Checkpoint CI rights (never acts as another identity, never grants itself access); MITRE ATT&CK T1098 (account manipulation)',
  needsBootstrap: true,
  judge: (grant) => (isCi(grant.principal) ? ESCALATIONS[grant.operation] : undefined),
});
