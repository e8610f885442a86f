import { resourceRule } from '../define';
import { inputsOf } from '../inputs';
import { IAM_DOCUMENT_TYPES, iamDocuments, isAllow, statementsOf } from './support';

/** `*`, or every action of a service: `s3:*` (any name made only of wildcards). */
export function isServiceWideAction(action: unknown): boolean {
  if (typeof action !== 'string') return false;
  if (action === '*') return true;
  const [, name] = action.split(':');
  return name !== undefined && /^[*?]*\*[*?]*$/.test(name);
}

export const awsIamNoWildcardActions = resourceRule({
  name: 'aws-iam-no-wildcard-actions',
  description:
    'No Allow statement of an identity, trust or bucket policy grants every action (`*`) or every action of a service (`s3:*`), or uses NotAction',
  source:
    'CIS AWS Foundations Benchmark v3.0.0 1.16 (no IAM policies that allow full administrative privileges); AWS Foundational Security Best Practices IAM.1 and IAM.21 (no wildcard actions for services)',
  types: IAM_DOCUMENT_TYPES,
  validate: (_props, args, report) => {
    // A key policy's own conventions (the account root holds kms:* on the key) are not an identity grant.
    const documents = iamDocuments(args.type, inputsOf(args)).filter(({ kind }) => kind !== 'key');
    for (const { where, document } of documents) {
      for (const statement of statementsOf(document).filter(isAllow)) {
        const wildcards = statement.actions.filter(isServiceWideAction);
        if (wildcards.length > 0) {
          report(
            `${where}: Allow statement ${statement.label} grants ${wildcards.map(String).join(', ')}; expected the named actions it needs`,
          );
        }
        if (statement.notActions.length > 0) {
          report(
            `${where}: Allow statement ${statement.label} uses NotAction, which grants every other action; expected Action with the named actions it needs`,
          );
        }
      }
    }
  },
});
