export { awsRules } from './aws';
export { gcpRules } from './gcp';
export { azureRules } from './azure';
