import { accessPolicies } from '../access';
import { noCredentialsInOutputs } from './no-credentials-in-outputs';
import { protectDataInProd } from './protect-data-in-prod';
import { releasesReplicatedInProd } from './releases-replicated-in-prod';
import { retentionPromises } from './retention-promises';
import { standardTags } from './standard-tags';

/** Common to every cloud: the baseline checks, the retention promises and copies, then the rules over each store's effective access. */
export const commonPolicies = [
  standardTags,
  protectDataInProd,
  noCredentialsInOutputs,
  retentionPromises,
  releasesReplicatedInProd,
  ...accessPolicies,
];
