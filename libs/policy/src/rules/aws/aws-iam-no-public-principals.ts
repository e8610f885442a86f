import { resourceRule } from '../define';
import { inputsOf } from '../inputs';
import { IAM_DOCUMENT_TYPES, iamDocuments, isAllow, principalsOf, statementsOf } from './support';

export const awsIamNoPublicPrincipals = resourceRule({
  name: 'aws-iam-no-public-principals',
  description:
    'No Allow statement of a bucket, trust or key policy names a public principal (`*`, `{"AWS": "*"}`) or uses NotPrincipal, whatever its conditions',
  source:
    'AWS Foundational Security Best Practices S3.2 and S3.3 (block public read and write access); AWS IAM User Guide: Security best practices in IAM (verify public and cross-account access with IAM Access Analyzer)',
  types: IAM_DOCUMENT_TYPES,
  validate: (_props, args, report) => {
    const documents = iamDocuments(args.type, inputsOf(args)).filter(({ kind }) => kind !== 'identity');
    for (const { where, document } of documents) {
      for (const statement of statementsOf(document).filter(isAllow)) {
        if (principalsOf(statement.principal).some((principal) => principal === '*')) {
          report(
            `${where}: Allow statement ${statement.label} has a public principal ${JSON.stringify(statement.principal)}; expected named accounts, roles or services`,
          );
        }
        if (statement.notPrincipal !== undefined) {
          report(
            `${where}: Allow statement ${statement.label} uses NotPrincipal, which allows everyone else; expected Principal with named accounts, roles or services`,
          );
        }
      }
    }
  },
});
