import { COMPONENT_TYPES, type RenderedResource, type RenderedStore } from '@checkpoints/render';
import type { AccessGrant } from '../access/model';
import { isCi, jsonOf, stringInput } from '../access/model';
import { AWS_MALWARE_SCAN_PRINCIPAL, awsAdmittedServiceRoles } from '../access/aws-service-roles';
import { awsTrailsRecording } from '../audit/aws';
import type { StoreRetention } from '../retention';
import { AWS_CONTROLS as C } from './controls';
import {
  fail,
  notApplicable,
  outsideRepo,
  pass,
  unknownAt,
  type Check,
  type CloudCompliance,
  type ComplianceException,
  type Finding,
  accountLevel,
  OUTSIDE_PROD_THREAT_DETECTION,
  outsideProd,
} from './model';

/** One S3 bucket of a store's data or of its audit trail, with the settings resources that configure it. */
export interface AwsBucket {
  /** What it is to the store, for messages. */
  role: 'store bucket' | 'replica bucket' | 'audit-log bucket';
  resource: RenderedResource;
  name: string;
  arn: string;
  settings(type: string): RenderedResource | undefined;
}

/** What the AWS checks judge one store by. */
export interface AwsSubject {
  store: RenderedStore;
  component: RenderedResource;
  environment: string;
  directory: boolean;
  /** The store's bucket, then its replica's (when it has one). */
  buckets: AwsBucket[];
  audit: {
    /** `checkpoints:organizationTrail`: the trail lives outside the stack. */
    organizationTrail?: string;
    trails: RenderedResource[];
    logBucket?: AwsBucket;
  };
  resources: readonly RenderedResource[];
  grants: readonly AccessGrant[];
  retention: StoreRetention | undefined;
}

const TYPES = {
  bucket: 'aws:s3/bucket:Bucket',
  directoryBucket: 'aws:s3/directoryBucket:DirectoryBucket',
  ownership: 'aws:s3/bucketOwnershipControls:BucketOwnershipControls',
  publicAccessBlock: 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock',
  versioning: 'aws:s3/bucketVersioning:BucketVersioning',
  encryption: 'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
  lifecycle: 'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
  policy: 'aws:s3/bucketPolicy:BucketPolicy',
  objectLock: 'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration',
  logging: 'aws:s3/bucketLogging:BucketLogging',
  trail: 'aws:cloudtrail/trail:Trail',
  key: 'aws:kms/key:Key',
  malwareProtection: 'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan',
} as const;

/** A bucket's settings resource: linked by its `bucket` input (the dependency, else the same name). */
function settingsOf(resources: readonly RenderedResource[], bucket: RenderedResource, name: string) {
  return (type: string) =>
    resources.find(
      (resource) =>
        resource.type === type &&
        ((resource.propertyDependencies?.['bucket'] ?? []).includes(bucket.urn) ||
          resource.inputs['bucket'] === name),
    );
}

/** The bucket's ARN, from its name (the one input a render always has). */
export function awsBucketOf(
  resources: readonly RenderedResource[],
  resource: RenderedResource,
  role: AwsBucket['role'],
): AwsBucket {
  const name = stringInput(resource, 'bucket') ?? resource.name;
  return {
    role,
    resource,
    name,
    arn: `arn:aws:s3:::${name}`,
    settings: settingsOf(resources, resource, name),
  };
}

type Statement = {
  Sid?: string;
  Effect?: string;
  Principal?: unknown;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, unknown>>;
};

function statementsOf(policy: RenderedResource | undefined): Statement[] | undefined {
  const document = jsonOf(policy?.inputs['policy']) as { Statement?: Statement[] } | undefined;
  return Array.isArray(document?.Statement) ? document.Statement : undefined;
}

const list = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());

/** Each bucket of the store judged by `judge`; the first that fails decides, naming the bucket. */
function everyBucket(subject: AwsSubject, judge: (bucket: AwsBucket) => Finding): Finding {
  const findings = subject.buckets.map((bucket) => ({ bucket, finding: judge(bucket) }));
  const failed = findings.find(({ finding }) => finding.verdict === 'fail');
  if (failed) return fail(`${failed.bucket.role} ${failed.bucket.name}: ${failed.finding.detail}`);
  return pass(findings.map(({ bucket, finding }) => `${bucket.role}: ${finding.detail}`).join('; '));
}

function denies(statements: Statement[], action: string, condition: (statement: Statement) => boolean) {
  return statements.some(
    (statement) =>
      statement.Effect === 'Deny' &&
      statement.Principal === '*' &&
      list(statement.Action).some((each) => each === action || each === 's3:*') &&
      condition(statement),
  );
}

function tlsOnly(bucket: AwsBucket): Finding {
  const policy = bucket.settings(TYPES.policy);
  const unknown = unknownAt(policy?.inputs['policy'], 'its bucket policy');
  if (unknown) return unknown;
  const statements = statementsOf(policy);
  if (!statements) return fail('no bucket policy');
  const denied = denies(
    statements,
    's3:*',
    (statement) => String(statement.Condition?.['Bool']?.['aws:SecureTransport']) === 'false',
  );
  return denied
    ? pass('bucket policy denies s3:* when aws:SecureTransport is false')
    : fail('no bucket policy statement denies requests without TLS');
}

function publicAccessBlocked(bucket: AwsBucket): Finding {
  const block = bucket.settings(TYPES.publicAccessBlock)?.inputs ?? {};
  const flags = ['blockPublicAcls', 'blockPublicPolicy', 'ignorePublicAcls', 'restrictPublicBuckets'];
  const off = flags.filter((flag) => block[flag] !== true);
  return off.length === 0 ? pass('all four flags on') : fail(`${off.join(', ')} not on`);
}

function noPublicAllow(bucket: AwsBucket): Finding {
  const blocked = publicAccessBlocked(bucket);
  if (blocked.verdict === 'fail') return fail(`public access block: ${blocked.detail}`);
  const statements = statementsOf(bucket.settings(TYPES.policy));
  if (!statements) return fail('no bucket policy');
  const open = statements.filter(
    (statement) =>
      statement.Effect === 'Allow' &&
      (statement.Principal === '*' || JSON.stringify(statement.Principal ?? '').includes('"AWS":"*"')),
  );
  return open.length === 0
    ? pass('public access block on, no Allow to Principal *')
    : fail(`statement ${open[0]?.Sid ?? '?'} allows Principal *`);
}

function crossAccountAllows(bucket: AwsBucket): Finding {
  const statements = statementsOf(bucket.settings(TYPES.policy));
  if (!statements) return fail('no bucket policy');
  const allows = statements.filter(
    (statement) =>
      statement.Effect === 'Allow' && JSON.stringify(statement.Principal ?? '').includes('"AWS"'),
  );
  return allows.length === 0
    ? pass('the bucket policy allows no AWS principal (access comes from the store roles of the account)')
    : fail(`statement ${allows[0]?.Sid ?? '?'} allows AWS principals`);
}

function ownerEnforced(bucket: AwsBucket): Finding {
  const rule = bucket.settings(TYPES.ownership)?.inputs['rule'] as { objectOwnership?: string } | undefined;
  return rule?.objectOwnership === 'BucketOwnerEnforced'
    ? pass('BucketOwnerEnforced (ACLs disabled)')
    : fail(`object ownership ${String(rule?.objectOwnership ?? 'not set')}: ACLs still apply`);
}

function accessLogged(bucket: AwsBucket, resources: readonly RenderedResource[]): Finding {
  const logging = bucket.settings(TYPES.logging);
  if (!logging) return fail('no server access logging (BucketLogging)');
  const target = logging.inputs['targetBucket'];
  const unknown = unknownAt(target, 'its access-log target bucket');
  if (unknown) return unknown;
  if (target === bucket.name) return fail('logs into itself');
  const targetBucket = resources.find(
    (resource) => resource.type === TYPES.bucket && resource.inputs['bucket'] === target,
  );
  if (!targetBucket) return fail(`access-log target ${String(target)} is not a bucket of the render`);
  return pass(`server access logs to ${String(target)}`);
}

function versioned(bucket: AwsBucket): Finding {
  const status = (bucket.settings(TYPES.versioning)?.inputs['versioningConfiguration'] as { status?: string })
    ?.status;
  return status === 'Enabled'
    ? pass('versioning Enabled')
    : fail(`versioning ${String(status ?? 'not set')}`);
}

function objectLocked(bucket: AwsBucket): Finding {
  const lock = bucket.settings(TYPES.objectLock)?.inputs;
  if (!lock || lock['objectLockEnabled'] !== 'Enabled') return fail('no Object Lock configuration');
  const retention = (lock['rule'] as { defaultRetention?: { mode?: string; days?: number } } | undefined)
    ?.defaultRetention;
  return retention?.days
    ? pass(`Object Lock, ${String(retention.mode)} default retention ${retention.days} d`)
    : fail('Object Lock without a default retention');
}

function kmsEncrypted(bucket: AwsBucket): Finding {
  const rules = bucket.settings(TYPES.encryption)?.inputs['rules'];
  const rule = Array.isArray(rules)
    ? (rules[0] as { applyServerSideEncryptionByDefault?: { sseAlgorithm?: string } })
    : undefined;
  const algorithm = rule?.applyServerSideEncryptionByDefault?.sseAlgorithm;
  return algorithm === 'aws:kms'
    ? pass('default encryption aws:kms')
    : fail(`default encryption ${String(algorithm ?? 'not set')}`);
}

function dataEvents(subject: AwsSubject, readOnly: boolean): Finding {
  if (subject.audit.organizationTrail !== undefined) {
    return outsideRepo(
      `recorded by the organization trail ${subject.audit.organizationTrail}, which the render cannot inspect`,
      `the organization trail selects ${readOnly ? 'read' : 'write'} data events of every bucket of the store, its replica included`,
    );
  }
  const what = readOnly ? 'reads' : 'writes';
  const missing = subject.buckets.filter(
    (bucket) =>
      awsTrailsRecording(subject.audit.trails, {
        resourceType: subject.directory ? 'AWS::S3Express::Object' : 'AWS::S3::Object',
        arn: `${subject.directory ? directoryArn(subject, bucket) : bucket.arn}/any/checkpoint.pt`,
        readOnly,
      }).length === 0,
  );
  if (missing.length > 0) {
    return fail(
      `no logging trail records the ${what} of ${missing.map((bucket) => `${bucket.role} ${bucket.name}`).join(', ')}`,
    );
  }
  return pass(
    `a logging trail records the ${what} of ${subject.buckets.map((bucket) => bucket.role).join(' and ')}`,
  );
}

/**
 * A directory bucket's ARN, `arn:<partition>:s3express:<region>:<account>:bucket/<name>`: the region is the store's
 * location, the account and partition those of the store's other ARNs (a directory bucket's name holds neither).
 */
function directoryArn(subject: AwsSubject, bucket: AwsBucket): string {
  const text = JSON.stringify(subject.store.resources.map((resource) => resource.inputs));
  const [, partition = 'aws', account = ''] =
    /arn:(aws[a-z-]*):[a-z0-9-]+:[a-z0-9-]*:(\d{12}):/.exec(text) ?? [];
  return `arn:${partition}:s3express:${String(subject.component.inputs['location'])}:${account}:bucket/${bucket.name}`;
}

function logTrail(subject: AwsSubject): RenderedResource | undefined {
  return subject.audit.trails.find((trail) => trail.inputs['enableLogging'] !== false);
}

const NOT_AUDITED = notApplicable(
  'the store is not audited (audit: false): no trail or log bucket records it',
);

function trailSetting(subject: AwsSubject, judge: (trail: RenderedResource) => Finding): Finding {
  if (subject.component.inputs['audit'] === false) return NOT_AUDITED;
  if (subject.audit.organizationTrail !== undefined) {
    return outsideRepo(
      `the organization trail ${subject.audit.organizationTrail} is configured outside the repository`,
      'the organization trail is multi-region, validates its log files and encrypts them with a KMS key',
    );
  }
  const trail = logTrail(subject);
  if (!trail) return fail('the store is audited by no trail of the render');
  return judge(trail);
}

function logBucketOf(subject: AwsSubject, judge: (bucket: AwsBucket) => Finding): Finding {
  if (subject.component.inputs['audit'] === false) return NOT_AUDITED;
  if (subject.audit.organizationTrail !== undefined) {
    return outsideRepo(
      `the organization trail's log bucket is outside the repository`,
      "the organization trail's log bucket has server access logging, Object Lock and a deny on deletes",
    );
  }
  const bucket = subject.audit.logBucket;
  if (!bucket) return fail('the render has no audit-log bucket');
  const finding = judge(bucket);
  return { ...finding, detail: `audit-log bucket ${bucket.name}: ${finding.detail}` };
}

/** The delete actions an audit-log bucket's policy refuses to everyone: versions, the bucket, the lock's bypass. */
export const AUDIT_LOG_PROTECTED_ACTIONS = [
  's3:DeleteObjectVersion',
  's3:DeleteBucket',
  's3:BypassGovernanceRetention',
] as const;

function deletesDenied(bucket: AwsBucket): Finding {
  const statements = statementsOf(bucket.settings(TYPES.policy));
  if (!statements) return fail('no bucket policy');
  const missing = AUDIT_LOG_PROTECTED_ACTIONS.filter((action) => !denies(statements, action, () => true));
  return missing.length === 0
    ? pass(
        `bucket policy denies ${AUDIT_LOG_PROTECTED_ACTIONS.join(', ')} to every principal (break-glass: an administrator removes the statement first)`,
      )
    : fail(`bucket policy does not deny ${missing.join(', ')}`);
}

function keyOf(subject: AwsSubject): RenderedResource | undefined {
  return subject.store.resources.find(
    (resource) => resource.type === TYPES.key && resource.parent === subject.store.urn,
  );
}

const GUARD_DUTY_PREFLIGHT =
  'GuardDuty is enabled in the account and region (guardduty:ListDetectors returns a detector) and its service-linked role exists';

const CHECKS: readonly Check<AwsSubject>[] = [
  {
    controls: [C.cis211, C.s3_5],
    field: `${TYPES.policy} policy (Deny aws:SecureTransport false)`,
    rule: 'aws-s3-tls-only',
    judge: (subject) =>
      subject.directory
        ? // https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-data-protection.html ("Encryption in transit").
          pass('S3 Express One Zone can only be accessed through HTTPS (TLS)')
        : everyBucket(subject, tlsOnly),
  },
  {
    controls: [C.cis212, C.s3_20],
    field: `${TYPES.versioning} versioningConfiguration.mfaDelete`,
    judge: (subject) =>
      subject.directory
        ? notApplicable('directory buckets have no versioning, so no MFA delete')
        : fail('MFA delete is not enabled'),
  },
  accountLevel(
    [C.cis213],
    'Amazon Macie (account)',
    'data discovery (Amazon Macie) is an account-level service no stack renders',
    'Macie is enabled in the account (macie2:GetMacieSession) or the data classification is declared another way',
  ),
  {
    controls: [C.cis214, C.s3_8],
    field: `${TYPES.publicAccessBlock} blockPublicAcls, blockPublicPolicy, ignorePublicAcls, restrictPublicBuckets`,
    rule: 'aws-s3-public-access-block',
    judge: (subject) =>
      subject.directory
        ? pass('a directory bucket blocks public access, and the setting cannot be changed')
        : everyBucket(subject, publicAccessBlocked),
  },
  accountLevel(
    [C.s3_1],
    'aws:s3/accountPublicAccessBlock (account)',
    "the account's public access block is an account-level setting no stack renders",
    's3control:GetPublicAccessBlock for the account returns all four flags true',
  ),
  {
    controls: [C.s3_2, C.s3_3],
    field: `${TYPES.publicAccessBlock} and ${TYPES.policy} (no Allow to Principal *)`,
    rule: 'aws-iam-no-public-principals',
    judge: (subject) =>
      subject.directory
        ? pass('a directory bucket blocks public access, and the setting cannot be changed')
        : everyBucket(subject, noPublicAllow),
  },
  {
    controls: [C.s3_6],
    field: `${TYPES.policy} policy (Allow statements to AWS principals)`,
    judge: (subject) => everyBucket(subject, crossAccountAllows),
  },
  {
    controls: [C.s3_9],
    field: `${TYPES.logging} targetBucket`,
    rule: 'aws-s3-access-logging',
    judge: (subject) =>
      subject.directory
        ? notApplicable(
            'S3 server access logging is not available for directory buckets; data events are recorded by the trail',
          )
        : everyBucket(subject, (bucket) => accessLogged(bucket, subject.resources)),
  },
  {
    controls: [C.s3_12],
    field: `${TYPES.ownership} rule.objectOwnership`,
    rule: 'aws-s3-bucket-owner-enforced',
    judge: (subject) =>
      subject.directory
        ? pass('directory buckets have no ACLs (object ownership is always bucket owner enforced)')
        : everyBucket(subject, ownerEnforced),
  },
  {
    controls: [C.s3_13],
    field: 'retention analysis (lifecycle replay): purge bound',
    rule: 'retention-promises',
    judge: (subject) =>
      subject.directory ? notApplicable('a directory bucket: S3.25 applies') : lifecycleJudged(subject),
  },
  {
    controls: [C.s3_25],
    field: 'retention analysis (lifecycle replay): purge bound',
    rule: 'retention-promises',
    judge: (subject) =>
      subject.directory ? lifecycleJudged(subject) : notApplicable('a general purpose bucket: S3.13 applies'),
  },
  {
    controls: [C.s3_14],
    field: `${TYPES.versioning} versioningConfiguration.status`,
    rule: 'aws-s3-versioning',
    judge: (subject) =>
      subject.directory
        ? fail('directory buckets have no versioning: a deleted or overwritten checkpoint cannot be restored')
        : everyBucket(subject, versioned),
  },
  {
    controls: [C.s3_15],
    field: `${TYPES.objectLock} rule.defaultRetention`,
    rule: 'aws-s3-object-lock-governance',
    judge: (subject) =>
      subject.directory ? fail('directory buckets have no Object Lock') : everyBucket(subject, objectLocked),
  },
  {
    controls: [C.s3_17],
    field: `${TYPES.encryption} rules[0].applyServerSideEncryptionByDefault.sseAlgorithm`,
    rule: 'aws-s3-default-encryption',
    judge: (subject) => everyBucket(subject, kmsEncrypted),
  },
  {
    controls: [C.cis38, C.s3_22],
    field: `${TYPES.trail} advancedEventSelectors (audit analysis: awsTrailsRecording)`,
    rule: 'aws-s3-data-events-audited',
    judge: (subject) => dataEvents(subject, false),
  },
  {
    controls: [C.cis39, C.s3_23],
    field: `${TYPES.trail} advancedEventSelectors (audit analysis: awsTrailsRecording)`,
    rule: 'aws-s3-data-events-audited',
    judge: (subject) => dataEvents(subject, true),
  },
  accountLevel(
    [C.cis31, C.cloudTrail1],
    'the account trail of management events (account)',
    "the stack's trail selects data events only; the account's multi-region trail of management events is not the stack's",
    'cloudtrail:DescribeTrails lists a multi-region trail with read and write management events, logging (GetTrailStatus)',
  ),
  {
    controls: [C.cis32, C.cloudTrail4],
    field: `${TYPES.trail} enableLogFileValidation`,
    judge: (subject) =>
      trailSetting(subject, (trail) =>
        trail.inputs['enableLogFileValidation'] === true
          ? pass('log file validation on')
          : fail('log file validation off'),
      ),
  },
  {
    controls: [C.cis35, C.cloudTrail2],
    field: `${TYPES.trail} kmsKeyId`,
    judge: (subject) =>
      trailSetting(subject, (trail) =>
        trail.inputs['kmsKeyId']
          ? pass('log files encrypted with the trail key')
          : fail('no KMS key: SSE-S3 only'),
      ),
  },
  {
    controls: [C.cis34, C.cloudTrail7],
    field: `${TYPES.logging} of the audit-log bucket`,
    rule: 'aws-s3-audit-log-protected',
    judge: (subject) => logBucketOf(subject, (bucket) => accessLogged(bucket, subject.resources)),
  },
  {
    controls: [C.auditImmutable],
    field: `${TYPES.objectLock} and ${TYPES.policy} of the audit-log bucket`,
    rule: 'aws-s3-audit-log-protected',
    judge: (subject) =>
      logBucketOf(subject, (bucket) => {
        const lock = objectLocked(bucket);
        if (lock.verdict === 'fail') return lock;
        const deletes = deletesDenied(bucket);
        return deletes.verdict === 'fail' ? deletes : pass(`${lock.detail}; ${deletes.detail}`);
      }),
  },
  {
    controls: [C.cis36, C.kms4],
    field: `${TYPES.key} enableKeyRotation`,
    rule: 'aws-kms-key-rotation',
    judge: (subject) => {
      const key = keyOf(subject);
      if (!key) return notApplicable('the store has no customer managed key (SSE-S3)');
      return key.inputs['enableKeyRotation'] === true ? pass('automatic rotation on') : fail('rotation off');
    },
  },
  {
    controls: [C.kms3],
    field: 'access analysis: destroy-key grants',
    rule: 'ci-prod-no-destroy',
    judge: (subject) => {
      if (!keyOf(subject)) return notApplicable('the store has no customer managed key (SSE-S3)');
      const ci = subject.grants.filter((grant) => grant.operation === 'destroy-key' && isCi(grant.principal));
      return ci.length === 0
        ? pass('no CI identity can schedule the key for deletion')
        : fail(`${ci.map((grant) => grant.principal.label).join(', ')} can destroy the key`);
    },
  },
  accountLevel(
    [C.guardDuty1],
    'GuardDuty detector (account)',
    'the GuardDuty detector is an account-level setting',
    GUARD_DUTY_PREFLIGHT,
  ),
  {
    controls: [C.malwareScan],
    field: `${TYPES.malwareProtection} protectedResource.s3Bucket.bucketName, role (trusting GuardDuty alone)`,
    rule: 'aws-s3-malware-protection',
    judge: malwareScanned,
  },
  {
    controls: [C.releasesReplicated],
    field: `${COMPONENT_TYPES.awsStoreReplica} of a store with recovery.retentionLock`,
    rule: 'releases-replicated-in-prod',
    judge: (subject) => {
      if (subject.component.inputs['retentionLock'] === undefined) {
        return notApplicable('not a store of released checkpoints (no retention lock)');
      }
      if (outsideProd(subject.environment)) return notApplicable('not a prod store');
      return subject.buckets.some((bucket) => bucket.role === 'replica bucket')
        ? pass('replicated into a second region')
        : fail('a prod store of released checkpoints with no replica');
    },
  },
];

/**
 * A GuardDuty malware protection plan protects the store's bucket, as a role of the render that trusts GuardDuty
 * Malware Protection for S3 alone. Directory buckets are not supported
 * (https://docs.aws.amazon.com/guardduty/latest/ug/supported-s3-features-malware-protection-s3.html): a fail
 * the exceptions declare.
 */
function malwareScanned(subject: AwsSubject): Finding {
  if (subject.directory) {
    return fail('GuardDuty Malware Protection for S3 supports general purpose buckets only');
  }
  const name = subject.buckets[0]?.name;
  const plan = subject.resources.find(
    (resource) =>
      resource.type === TYPES.malwareProtection &&
      (resource.inputs['protectedResource'] as { s3Bucket?: { bucketName?: string } } | undefined)?.s3Bucket
        ?.bucketName === name,
  );
  if (!plan) return fail('no GuardDuty malware protection plan for the store bucket');
  const unknown = unknownAt(plan.inputs['role'], "the plan's role");
  if (unknown) return unknown;
  const roleArn = String(plan.inputs['role'] ?? '');
  const admitted = awsAdmittedServiceRoles(subject.store, (roleName) =>
    roleArn.replace(/[^/]+$/, roleName),
  ).roles.find((role) => role.arn === roleArn && role.service === AWS_MALWARE_SCAN_PRINCIPAL);
  return admitted
    ? pass(
        `malware protection plan ${plan.name} scans every new object, as a role that trusts GuardDuty alone`,
      )
    : fail(
        `malware protection plan ${plan.name} names ${roleArn || 'no role'}, not a role of the store that trusts GuardDuty Malware Protection for S3 alone and the perimeter admits`,
      );
}

function lifecycleJudged(subject: AwsSubject): Finding {
  const retention = subject.retention;
  if (!retention) return fail('the retention analysis has no figures for the store');
  const lifecycle = subject.buckets[0]?.settings(TYPES.lifecycle);
  if (!lifecycle) return fail('no lifecycle configuration');
  if (retention.broken.length > 0)
    return fail(retention.broken[0]?.message ?? 'a retention promise is broken');
  return pass(
    `lifecycle keeps its promises: purge within ${retention.purgeWithinDays ?? 'never'} d, promised ${retention.promisedPurgeWithinDays ?? 'never'} d`,
  );
}

const EXCEPTIONS: readonly ComplianceException<AwsSubject>[] = [
  {
    controls: [C.cis212, C.s3_20],
    when: 'every general purpose bucket',
    reason:
      'MFA delete cannot coexist with the lifecycle rules that purge old versions (S3 refuses a lifecycle configuration on an MFA delete bucket, https://docs.aws.amazon.com/AmazonS3/latest/userguide/MultiFactorAuthenticationDelete.html), and only the root user can enable it; deletions are bounded by versioning, the purge promise and Object Lock instead',
    applies: () => true,
  },
  {
    controls: [C.s3_14, C.s3_15],
    when: 'a high-throughput store (directory bucket)',
    reason:
      'S3 Express One Zone directory buckets have neither versioning nor Object Lock (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-differences.html); the retention analysis states recovery 0 d for such a store, and restricted data is refused there',
    applies: (subject) => subject.directory,
  },
  {
    controls: [C.s3_15],
    when: 'a store without recovery.retentionLock',
    reason:
      "an ordinary store's recovery comes from versioning and noncurrent retention (the retention promises); Object Lock default retention is the lock of released checkpoints, opted into per store with recovery.retentionLock",
    applies: (subject) => subject.component.inputs['retentionLock'] === undefined,
  },
  {
    controls: [C.s3_17],
    when: 'a store with encryption: provider-managed',
    reason: 'the store spec chooses SSE-S3 (encryption: provider-managed, allowed outside prod by default)',
    applies: (subject) => subject.component.inputs['encryption'] === 'provider-managed',
  },
  {
    controls: [C.cis38, C.cis39, C.s3_22, C.s3_23, C.s3_9],
    when: 'a store with audit: false',
    reason:
      'the store spec turns audit off (audit: false, allowed only outside prod for public and internal data): neither data events nor server access logs are kept for it',
    applies: (subject) => subject.component.inputs['audit'] === false,
  },
  {
    controls: [C.malwareScan],
    when: 'a store outside prod',
    reason: OUTSIDE_PROD_THREAT_DETECTION,
    applies: (subject) => outsideProd(subject.environment),
  },
  {
    controls: [C.malwareScan],
    when: 'a high-throughput store (directory bucket)',
    reason:
      'GuardDuty Malware Protection for S3 supports general purpose buckets only, not S3 Express One Zone directory buckets (https://docs.aws.amazon.com/guardduty/latest/ug/supported-s3-features-malware-protection-s3.html); a high-throughput store holds the checkpoints of a running job for days (prod: llm-pretrain-fast expires after 7 d), and a checkpoint that leaves it for a release or an evaluation is written to a standard store, whose uploads are scanned',
    applies: (subject) => subject.directory,
  },
];

export const AWS_COMPLIANCE: CloudCompliance<AwsSubject> = { checks: CHECKS, exceptions: EXCEPTIONS };

/** The AWS subject of a store: its buckets (store, replica), the trails and log bucket of the render. */
export function awsSubjectOf(
  store: RenderedStore,
  resources: readonly RenderedResource[],
  environment: string,
  grants: readonly AccessGrant[],
  retention: StoreRetention | undefined,
): AwsSubject {
  const component = resources.find((resource) => resource.urn === store.urn)!;
  const replica = store.resources.find((resource) => resource.type === COMPONENT_TYPES.awsStoreReplica);
  const own = store.resources.find(
    (resource) =>
      resource.parent === store.urn &&
      (resource.type === TYPES.bucket || resource.type === TYPES.directoryBucket),
  );
  const replicaBucket = replica
    ? store.resources.find((resource) => resource.parent === replica.urn && resource.type === TYPES.bucket)
    : undefined;
  const buckets = [
    ...(own ? [awsBucketOf(resources, own, 'store bucket')] : []),
    ...(replicaBucket ? [awsBucketOf(resources, replicaBucket, 'replica bucket')] : []),
  ];
  const auditComponent = resources.find((resource) => resource.type === COMPONENT_TYPES.awsStackAudit);
  const organizationTrail = auditComponent?.inputs['organizationTrail'];
  const trails = resources.filter((resource) => resource.type === TYPES.trail);
  const logBucketName = trails.map((trail) => stringInput(trail, 's3BucketName')).find(Boolean);
  const logBucket = resources.find(
    (resource) => resource.type === TYPES.bucket && stringInput(resource, 'bucket') === logBucketName,
  );
  return {
    store,
    component,
    environment,
    directory: own?.type === TYPES.directoryBucket,
    buckets,
    audit: {
      ...(typeof organizationTrail === 'string' ? { organizationTrail } : {}),
      trails,
      ...(logBucket ? { logBucket: awsBucketOf(resources, logBucket, 'audit-log bucket') } : {}),
    },
    resources,
    grants,
    retention,
  };
}
