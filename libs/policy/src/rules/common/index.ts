import { noCredentialsInOutputs } from './no-credentials-in-outputs';
import { protectDataInProd } from './protect-data-in-prod';
import { standardTags } from './standard-tags';

export const commonPolicies = [standardTags, protectDataInProd, noCredentialsInOutputs];
