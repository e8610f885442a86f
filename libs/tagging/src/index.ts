import { awsTagProblems } from './aws';
import { azureTagProblems } from './azure';
import { gcpLabelProblems } from './gcp';

export { awsTags } from './aws';
export { azureTags } from './azure';
export { gcpLabels } from './gcp';
export { standardTags } from './standard-tags';
export type { TagContext, Tags } from './standard-tags';

/** Every problem a cloud would have with tags as they are; [] when it would accept them. */
export const tagRules = { aws: awsTagProblems, gcp: gcpLabelProblems, azure: azureTagProblems };
