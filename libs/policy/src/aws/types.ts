/** An IAM policy document as AWS reads it; lists are always arrays so readers and tests see one shape. */
export interface IamPolicyDocument {
  Version: '2012-10-17';
  Statement: IamStatement[];
}

export interface IamStatement {
  Sid: string;
  Effect: 'Allow' | 'Deny';
  /** Resource policies only (bucket and trust policies); identity policies have none. */
  Principal?: '*' | IamPrincipals;
  Action: string[];
  /** Absent in trust policies, whose resource is the role itself. */
  Resource?: string[];
  Condition?: Record<string, Record<string, string | number | boolean | string[]>>;
}

export interface IamPrincipals {
  AWS?: string[];
  Service?: string[];
}

export function policyDocument(statements: IamStatement[]): IamPolicyDocument {
  return { Version: '2012-10-17', Statement: statements };
}
