export { awsRules } from './aws';
export { gcpProjectIssues, gcpRules } from './gcp';
export { azureLocationIssues, azureRules } from './azure';
