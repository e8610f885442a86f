import { accessPolicies } from '../access';
import { noCredentialsInOutputs } from './no-credentials-in-outputs';
import { protectDataInProd } from './protect-data-in-prod';
import { standardTags } from './standard-tags';

/** Common to every cloud: the baseline checks, then the rules over each store's effective access. */
export const commonPolicies = [standardTags, protectDataInProd, noCredentialsInOutputs, ...accessPolicies];
