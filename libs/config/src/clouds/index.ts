export { AWS_AUDIT_LOG_NAME, awsRules, organizationTrailIssues } from './aws';
export { gcpProjectIssues, gcpRules } from './gcp';
export { azureLocationIssues, azureRules } from './azure';
