export { awsRules } from './aws';
export { gcpAuditExemptionIssues, gcpProjectIssues, gcpRules, type AuditExemptionContext } from './gcp';
export { azureLocationIssues, azureRules } from './azure';
