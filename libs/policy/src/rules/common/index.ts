import { noCredentialsInOutputs } from './no-credentials-in-outputs';
import { protectDataInProd } from './protect-data-in-prod';
import { retentionPromises } from './retention-promises';
import { standardTags } from './standard-tags';

export const commonPolicies = [standardTags, protectDataInProd, noCredentialsInOutputs, retentionPromises];
