import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gcpPolicies } from '.';
import { GCP_IAM_TYPES, GCS_BUCKET_IAM_TYPES } from './iam';
import {
  GCS_ACL_TYPES,
  GCS_BUCKET,
  GCS_BUCKET_OBJECT,
  GCS_HMAC_KEY,
  KMS_CRYPTO_KEY,
  SERVICE_ACCOUNT_KEY,
} from './tokens';

/** Every `__pulumiType` the installed @pulumi/gcp declares. */
function sdkTypeTokens(): Set<string> {
  const root = dirname(require.resolve('@pulumi/gcp/package.json'));
  const tokens = new Set<string>();
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory() || folder.name === 'node_modules' || folder.name === 'types') continue;
    for (const file of readdirSync(join(root, folder.name))) {
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(root, folder.name, file), 'utf8');
      for (const match of text.matchAll(/__pulumiType = '([^']+)'/g)) tokens.add(match[1] as string);
    }
  }
  return tokens;
}

describe('gcpPolicies', () => {
  it('one rule per file, each named gcp-*, with a source and a spec', () => {
    const files = readdirSync(__dirname)
      .filter((file) => /^gcp-.*\.ts$/.test(file) && !file.endsWith('.spec.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(gcpPolicies.map((policy) => policy.name).sort()).toEqual(files.sort());
    for (const policy of gcpPolicies) {
      expect(policy.name).toMatch(/^gcp-[a-z0-9-]+$/);
      expect(policy.source.length).toBeGreaterThan(10);
      expect(policy.enforcementLevel).toBe('mandatory');
      expect(readdirSync(__dirname)).toContain(`${policy.name}.spec.ts`);
    }
  });

  it('matches type tokens the GCP provider SDK really declares', () => {
    const sdk = sdkTypeTokens();
    const ours = [
      GCS_BUCKET,
      GCS_BUCKET_OBJECT,
      GCS_HMAC_KEY,
      KMS_CRYPTO_KEY,
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
    const wanted = [...sdkTypeTokens()].filter(
      (token) => families.test(token) && !/ekmConnection/.test(token),
    );
    expect(wanted.filter((token) => !GCP_IAM_TYPES.includes(token))).toEqual([]);
  });
});
