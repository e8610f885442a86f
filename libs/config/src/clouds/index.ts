export { awsRules } from './aws';
export { gcpProjectIssues, gcpRules } from './gcp';
export {
  azureLocationIssues,
  azureReplicaIssues,
  azureRules,
  azureWorkspaceIdIssues,
  ipv4RangesOverlap,
  parseIpv4Range,
} from './azure';
