/** Which recoveries a tier of a cloud can offer at all (each cloud's file cites why). */
export interface TierRecovery {
  delete: boolean;
  overwrite: boolean;
  /** Whether previous states are object versions (else soft-deleted copies, or nothing). */
  versions: boolean;
}
