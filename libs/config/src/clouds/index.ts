export { awsRules } from './aws';
export { gcpAuditExemptionIssues, gcpProjectIssues, gcpRules, type AuditExemptionContext } from './gcp';
export {
  azureLocationIssues,
  azureReplicaIssues,
  azureRules,
  azureWorkspaceIdIssues,
  ipv4RangesOverlap,
  parseIpv4Range,
} from './azure';
