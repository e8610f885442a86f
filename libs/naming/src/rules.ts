import { AZ_ID, GOOGLE_LOOKALIKE, type NameKind } from './names';

/** Says what is wrong with a name in a few words, or undefined when this part of the rule holds. */
type Check = (name: string) => string | undefined;

interface Rule {
  /** The whole rule in one sentence: what a reader needs to fix the name. */
  summary: string;
  minLength: number;
  maxLength: number;
  /** Matches one allowed character. */
  allowedChar: RegExp;
  checks: readonly Check[];
}

const LOWER_ALNUM = /^[a-z0-9]$/;

const firstChar =
  (allowed: RegExp): Check =>
  (name) => {
    const first = [...name][0];
    return first === undefined || allowed.test(first) ? undefined : `starts with '${first}'`;
  };

const lastChar =
  (allowed: RegExp): Check =>
  (name) => {
    const last = [...name].at(-1);
    return last === undefined || allowed.test(last) ? undefined : `ends with '${last}'`;
  };

const noPrefix =
  (...prefixes: string[]): Check =>
  (name) => {
    const found = prefixes.find((prefix) => name.startsWith(prefix));
    return found === undefined ? undefined : `starts with '${found}'`;
  };

const noSuffix =
  (...suffixes: string[]): Check =>
  (name) => {
    const found = suffixes.find((suffix) => name.endsWith(suffix));
    return found === undefined ? undefined : `ends with '${found}'`;
  };

const noSubstring =
  (text: string): Check =>
  (name) =>
    name.includes(text) ? `contains '${text}'` : undefined;

const S3_RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];

// A directory bucket is '<base>--<az id>--x-s3'; AZ IDs hold single hyphens only, so the last '--' before
// the suffix ends the base.
const directoryBucketShape: Check = (name) => {
  const suffix = '--x-s3';
  if (!name.endsWith(suffix)) {
    return `does not end with '${suffix}'`;
  }
  const withoutSuffix = name.slice(0, -suffix.length);
  const separator = withoutSuffix.lastIndexOf('--');
  const azId = withoutSuffix.slice(separator + 2);
  if (separator < 0 || !AZ_ID.test(azId)) {
    return `'${azId}' is not an availability zone ID`;
  }
  const baseEnd = withoutSuffix.slice(0, separator).at(-1);
  return baseEnd === undefined || LOWER_ALNUM.test(baseEnd) ? undefined : `base ends with '${baseEnd}'`;
};

const noGoogleLookalike: Check = (name) => {
  const found = GOOGLE_LOOKALIKE.exec(name)?.[0];
  return found === undefined ? undefined : `contains '${found}'`;
};

function validator(rule: Rule): (name: string) => string | undefined {
  return (name) => {
    const chars = [...name];
    const tooShort = chars.length < rule.minLength;
    const tooLong = chars.length > rule.maxLength;
    const disallowed = [...new Set(chars.filter((char) => !rule.allowedChar.test(char)))];
    const problems = [
      disallowed.length > 0 ? `contains ${disallowed.map((char) => `'${char}'`).join(', ')}` : undefined,
      ...rule.checks.map((check) => check(name)),
    ].filter((problem) => problem !== undefined);
    if (!tooShort && !tooLong && problems.length === 0) {
      return undefined;
    }
    const length = tooLong
      ? `${chars.length} chars, over the ${rule.maxLength} limit`
      : tooShort
        ? `${chars.length} chars, under the ${rule.minLength} minimum`
        : `${chars.length} chars`;
    return `${rule.summary}; got '${name}' (${[length, ...problems].join(', ')})`;
  };
}

const s3BucketRule = validator({
  summary:
    'S3 bucket names must be 3-63 characters of lowercase letters, digits and hyphens (no dots: they ' +
    'break virtual-hosted TLS and allow IP-address look-alikes), start and end with a letter or digit, ' +
    "not start with 'xn--', 'sthree-' or 'amzn-s3-demo-', and not end with '-s3alias', '--ol-s3', " +
    "'--x-s3' or '--table-s3'",
  minLength: 3,
  maxLength: 63,
  allowedChar: /^[a-z0-9-]$/,
  checks: [
    firstChar(LOWER_ALNUM),
    lastChar(LOWER_ALNUM),
    noPrefix(...S3_RESERVED_PREFIXES),
    noSuffix('-s3alias', '--ol-s3', '--x-s3', '--table-s3'),
  ],
});

const gcsBucketRule = validator({
  summary:
    'GCS bucket names here must be 3-63 characters of lowercase letters, digits and hyphens (GCS also ' +
    "takes '_' and '.', which break virtual-hosted TLS), start and end with a letter or digit, not " +
    "start with 'goog', and not contain 'google' or a look-alike such as 'g00gle'",
  minLength: 3,
  maxLength: 63,
  allowedChar: /^[a-z0-9-]$/,
  checks: [firstChar(LOWER_ALNUM), lastChar(LOWER_ALNUM), noPrefix('goog'), noGoogleLookalike],
});

/** Per kind: undefined when `name` is valid, otherwise the rule it breaks and how. */
export const nameRules: Record<NameKind, (name: string) => string | undefined> = {
  s3Bucket: s3BucketRule,
  // A replica bucket is a general purpose bucket like any other.
  s3ReplicaBucket: s3BucketRule,
  s3DirectoryBucket: validator({
    summary:
      "S3 directory bucket names must be 3-63 characters in all, '<base>--<az id>--x-s3' with an AZ ID " +
      "such as 'use1-az4' and a base of lowercase letters, digits and hyphens that starts and ends with a " +
      "letter or digit and does not start with 'xn--', 'sthree-' or 'amzn-s3-demo-'",
    minLength: 3,
    maxLength: 63,
    allowedChar: /^[a-z0-9-]$/,
    checks: [firstChar(LOWER_ALNUM), noPrefix(...S3_RESERVED_PREFIXES), directoryBucketShape],
  }),
  gcsBucket: gcsBucketRule,
  // The independent copies' bucket is a GCS bucket like any store's.
  gcsCopyBucket: gcsBucketRule,
  resourceGroup: validator({
    summary:
      "Azure resource group names must be 1-90 characters of letters, digits, '-', '_', '.', '(' and ')' " +
      "and not end with '.'",
    minLength: 1,
    maxLength: 90,
    allowedChar: /^[A-Za-z0-9_.()-]$/,
    checks: [noSuffix('.')],
  }),
  storageAccount: validator({
    summary: 'storage account names must be 3-24 characters, lowercase letters and digits only',
    minLength: 3,
    maxLength: 24,
    allowedChar: LOWER_ALNUM,
    checks: [],
  }),
  adlsFilesystem: validator({
    summary:
      'ADLS Gen2 filesystem (container) names must be 3-63 characters of lowercase letters, digits and ' +
      'hyphens, start with a letter or digit, not end with a hyphen and have no consecutive hyphens',
    minLength: 3,
    maxLength: 63,
    allowedChar: /^[a-z0-9-]$/,
    checks: [firstChar(LOWER_ALNUM), noSuffix('-'), noSubstring('--')],
  }),
  iamRole: validator({
    summary: "IAM role names must be 1-64 characters of letters, digits and '+=,.@_-'",
    minLength: 1,
    maxLength: 64,
    allowedChar: /^[A-Za-z0-9+=,.@_-]$/,
    checks: [],
  }),
  // https://docs.aws.amazon.com/aws-backup/latest/devguide/API_CreateBackupVault.html: ^[a-zA-Z0-9\-\_]{2,50}$
  awsBackupVault: validator({
    summary: "AWS Backup vault names must be 2-50 characters of letters, digits, '-' and '_'",
    minLength: 2,
    maxLength: 50,
    allowedChar: /^[A-Za-z0-9_-]$/,
    checks: [],
  }),
  gcpServiceAccountId: validator({
    summary:
      'GCP service account IDs must be 6-30 characters of lowercase letters, digits and hyphens, start ' +
      'with a letter and end with a letter or digit',
    minLength: 6,
    maxLength: 30,
    allowedChar: /^[a-z0-9-]$/,
    checks: [firstChar(/^[a-z]$/), lastChar(LOWER_ALNUM)],
  }),
  managedIdentity: validator({
    summary:
      "Azure managed identity names must be 3-128 characters of letters, digits, '-' and '_', starting " +
      'with a letter or digit',
    minLength: 3,
    maxLength: 128,
    allowedChar: /^[A-Za-z0-9_-]$/,
    checks: [firstChar(/^[A-Za-z0-9]$/)],
  }),
  awsStoreRoleBoundary: validator({
    summary: "IAM policy names must be 1-128 characters of letters, digits and '+=,.@_-'",
    minLength: 1,
    maxLength: 128,
    allowedChar: /^[A-Za-z0-9+=,.@_-]$/,
    checks: [],
  }),
  kmsKeyAlias: validator({
    summary:
      "KMS alias names must be 'alias/' and then letters, digits, '/', '_' and '-', 7-256 characters in " +
      "all, and not start with 'alias/aws/' (reserved for AWS managed keys)",
    minLength: 7,
    maxLength: 256,
    allowedChar: /^[A-Za-z0-9/_-]$/,
    checks: [
      (name) => (name.startsWith('alias/') ? undefined : "does not start with 'alias/'"),
      noPrefix('alias/aws/'),
    ],
  }),
  gcpKeyRing: validator({
    summary: "Cloud KMS key ring names must be 1-63 characters of letters, digits, '_' and '-'",
    minLength: 1,
    maxLength: 63,
    allowedChar: /^[A-Za-z0-9_-]$/,
    checks: [],
  }),
  gcpCryptoKey: validator({
    summary: "Cloud KMS crypto key names must be 1-63 characters of letters, digits, '_' and '-'",
    minLength: 1,
    maxLength: 63,
    allowedChar: /^[A-Za-z0-9_-]$/,
    checks: [],
  }),
  keyVault: validator({
    summary:
      'Key Vault names must be 3-24 characters of letters, digits and hyphens, start with a letter, end ' +
      'with a letter or digit and have no consecutive hyphens',
    minLength: 3,
    maxLength: 24,
    allowedChar: /^[A-Za-z0-9-]$/,
    checks: [firstChar(/^[A-Za-z]$/), lastChar(/^[A-Za-z0-9]$/), noSubstring('--')],
  }),
};
