import type { Operation } from '@checkpoints/analysis';
import { accessRule } from './analysis';

const SESSIONS: readonly Operation[] = ['open-session', 'read', 'write', 'delete', 'use-key'];

export const ciPreviewNoDataSessions = accessRule({
  name: 'ci-preview-no-data-sessions',
  description:
    'The preview identity (pull requests, drift) cannot open a data session, touch data or use a store key',
  source:
    'Checkpoint CI rights (CI preview reads configuration, never data); GitHub Actions security hardening (pull requests are untrusted)',
  needsBootstrap: true,
  judge: (grant) =>
    grant.principal.kind === 'ci-preview' && SESSIONS.includes(grant.operation)
      ? `can ${grant.operation === 'open-session' ? 'open a data session' : grant.operation}`
      : undefined,
});
