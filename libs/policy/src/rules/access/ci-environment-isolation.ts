import type { Operation } from '@checkpoints/analysis';
import { accessRule } from './analysis';

/** What changes a store or its key; reading configuration is not among them. */
const CHANGES: readonly Operation[] = [
  'write',
  'delete',
  'configure',
  'change-access',
  'self-grant',
  'delete-store',
  'disable-key',
  'destroy-key',
  'act-as',
  'add-credentials',
  'destroy-by-config',
  'blind-audit',
];

export const ciEnvironmentIsolation = accessRule({
  name: 'ci-environment-isolation',
  description: "No deploy identity of one environment can change another environment's stores or keys",
  source:
    'Checkpoint CI rights (a deploy identity never touches another environment); AWS Well-Architected SEC01-BP01 (separate workloads by environment)',
  needsBootstrap: true,
  judge: (grant, store) =>
    grant.principal.kind === 'ci-deploy' &&
    grant.principal.environment !== store.environment &&
    CHANGES.includes(grant.operation)
      ? `(environment ${grant.principal.environment ?? '?'}) can ${grant.operation} a store of environment ${store.environment}`
      : undefined,
});
