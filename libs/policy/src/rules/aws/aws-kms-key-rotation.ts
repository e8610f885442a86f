import { resourceRule } from '../define';
import { inputsOf, shown } from '../inputs';

/** Key specs and usages AWS rotates automatically: symmetric encryption keys only. */
function rotatable(inputs: Record<string, unknown>): boolean {
  const spec = inputs['customerMasterKeySpec'] ?? inputs['keySpec'];
  const usage = inputs['keyUsage'];
  const isString = (value: unknown): value is string => typeof value === 'string';
  return (
    (!isString(spec) || spec === 'SYMMETRIC_DEFAULT') && (!isString(usage) || usage === 'ENCRYPT_DECRYPT')
  );
}

export const awsKmsKeyRotation = resourceRule({
  name: 'aws-kms-key-rotation',
  description:
    'Every symmetric customer-managed KMS key has automatic rotation enabled (enableKeyRotation true)',
  source:
    'CIS AWS Foundations Benchmark v3.0.0 3.6 (rotation for customer-created symmetric CMKs is enabled); AWS Foundational Security Best Practices KMS.4',
  types: ['aws:kms/key:Key'],
  validate: (_props, args, report) => {
    const inputs = inputsOf(args);
    if (!rotatable(inputs)) args.notApplicable('AWS rotates symmetric encryption keys only');
    if (inputs['enableKeyRotation'] !== true) {
      report(
        `enableKeyRotation is ${shown(inputs['enableKeyRotation'])}; expected true (automatic yearly rotation)`,
      );
    }
  },
});
