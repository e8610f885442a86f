import type { Principal } from '../access/model';

/** A change one CI identity can make to CI itself, in the violation's words. */
export interface CiChange {
  identity: Principal;
  /** What it can change: `the IAM policy of ci deploy-prod`, `the workload identity providers`. */
  target: string;
  reason: string;
}
