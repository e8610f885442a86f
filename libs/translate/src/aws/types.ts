/** An IAM policy document as AWS reads it; lists are always arrays so readers and tests see one shape. */
export interface AwsPolicyDocument {
  Version: '2012-10-17';
  Statement: AwsPolicyStatement[];
}

export interface AwsPolicyStatement {
  Sid: string;
  Effect: 'Allow' | 'Deny';
  /** Resource policies only (bucket and trust policies); identity policies have none. */
  Principal?: '*' | AwsPrincipals;
  Action: string[];
  /** Absent in trust policies, whose resource is the role itself. */
  Resource?: string[];
  Condition?: Record<string, Record<string, string | number | string[]>>;
}

export interface AwsPrincipals {
  AWS?: string[];
  Service?: string[];
}

export function awsPolicyDocument(statements: AwsPolicyStatement[]): AwsPolicyDocument {
  return { Version: '2012-10-17', Statement: statements };
}
