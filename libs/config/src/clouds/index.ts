export {
  allowedAccountsOf,
  allowedAccountsRequired,
  AWS_ACCESS_LOG_NAME,
  AWS_AUDIT_LOG_NAME,
  awsRules,
  organizationTrailIssues,
} from './aws';
export { gcpAuditExemptionIssues, gcpProjectIssues, gcpRules, type AuditExemptionContext } from './gcp';
export {
  azureIndependentCopyIssues,
  azureLocationIssues,
  azurePrivateDnsIssues,
  azurePrivateOnlyIssues,
  azureReplicaIssues,
  azureRules,
  azureWorkspaceIdIssues,
  ipv4RangesOverlap,
  parseIpv4Range,
} from './azure';
