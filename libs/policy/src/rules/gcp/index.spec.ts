import { gcpPolicies } from '.';
import { describeCloudRules, sdkTypeTokens } from '../../../testing/rules';
import { GCP_IAM_TYPES, GCS_BUCKET_IAM_TYPES } from './iam';
import {
  GCS_ACL_TYPES,
  GCS_BUCKET,
  GCS_BUCKET_OBJECT,
  GCS_HMAC_KEY,
  KMS_CRYPTO_KEY,
  KMS_CRYPTO_KEY_IAM_MEMBER,
  KMS_KEY_RING,
  PROJECT_AUDIT_CONFIG,
  SERVICE_ACCOUNT_KEY,
} from './tokens';

describe('gcpPolicies', () => {
  describeCloudRules({
    cloud: 'gcp',
    policies: gcpPolicies,
    folder: __dirname,
    namePattern: /^gcp-[a-z0-9-]+$/,
    sdk: { package: '@pulumi/gcp' },
    tokenPrefix: 'gcp',
    leastTokens: 30,
  });

  it('declares in tokens.ts and iam.ts only type tokens the GCP provider SDK really declares', () => {
    const sdk = sdkTypeTokens('@pulumi/gcp');
    const ours = [
      GCS_BUCKET,
      GCS_BUCKET_OBJECT,
      GCS_HMAC_KEY,
      KMS_CRYPTO_KEY,
      KMS_CRYPTO_KEY_IAM_MEMBER,
      KMS_KEY_RING,
      PROJECT_AUDIT_CONFIG,
      SERVICE_ACCOUNT_KEY,
      ...GCS_ACL_TYPES,
      ...GCP_IAM_TYPES,
    ];
    expect(ours.filter((token) => !sdk.has(token))).toEqual([]);
    expect(GCS_BUCKET_IAM_TYPES).toHaveLength(6);
  });

  it('covers every IAM member, binding and policy resource of storage, projects, service accounts and KMS', () => {
    const families =
      /^gcp:(storage|projects|serviceaccount|kms|folder|organizations)\/.*I[Aa][Mm](Member|Binding|Policy):/;
    const wanted = [...sdkTypeTokens('@pulumi/gcp')].filter(
      (token) => families.test(token) && !/ekmConnection/.test(token),
    );
    expect(wanted.filter((token) => !GCP_IAM_TYPES.includes(token))).toEqual([]);
  });
});
