import { ciCannotChangeCi } from './ci-cannot-change-ci';
import { ciDeployRights } from './ci-deploy-rights';
import { ciEnvironmentIsolation } from './ci-environment-isolation';
import { ciNoDataAccess } from './ci-no-data-access';
import { ciNoEscalation } from './ci-no-escalation';
import { ciPreviewNoDataSessions } from './ci-preview-no-data-sessions';
import { ciProdNoBlindAudit } from './ci-prod-no-blind-audit';
import { ciProdNoDestroy } from './ci-prod-no-destroy';
import { ciTrustImmutableIds } from './ci-trust-immutable-ids';
import { ciTrustOwnEnvironment } from './ci-trust-own-environment';
import { ciTrustPullRequestsPreviewOnly } from './ci-trust-pull-requests-preview-only';
import { ciTrustThisRepository } from './ci-trust-this-repository';

export { CI_NOT_JUDGED } from './analysis';

/** The rules over the effective access of every store (libs/analysis access), CI's identities included. */
export const accessPolicies = [
  ciNoDataAccess,
  ciEnvironmentIsolation,
  ciNoEscalation,
  ciPreviewNoDataSessions,
  ciProdNoDestroy,
  ciProdNoBlindAudit,
  ciDeployRights,
  ciCannotChangeCi,
  ciTrustThisRepository,
  ciTrustPullRequestsPreviewOnly,
  ciTrustOwnEnvironment,
  ciTrustImmutableIds,
];
