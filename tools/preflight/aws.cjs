/**
 * The read-only preflight of the AWS stack: what its first deploy needs, asked with the caller's own
 * credentials through the official SDK, never a write (only Get, List and Head calls; the tests hold it to that).
 */
const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
const { IAMClient, GetRoleCommand } = require('@aws-sdk/client-iam');
const {
  S3Client,
  GetBucketLoggingCommand,
  GetBucketPolicyCommand,
  GetObjectLockConfigurationCommand,
  HeadBucketCommand,
} = require('@aws-sdk/client-s3');
const { Macie2Client, GetMacieSessionCommand } = require('@aws-sdk/client-macie2');
const { S3ControlClient, GetPublicAccessBlockCommand } = require('@aws-sdk/client-s3-control');
const {
  CloudTrailClient,
  DescribeTrailsCommand,
  GetEventSelectorsCommand,
  GetTrailStatusCommand,
} = require('@aws-sdk/client-cloudtrail');
const { GuardDutyClient, GetDetectorCommand, ListDetectorsCommand } = require('@aws-sdk/client-guardduty');
const { checklist, missing } = require('./checks.cjs');

/**
 * @typedef {import('./checks.cjs').Check} Check
 * @typedef {{ sts: STSClient, iam: IAMClient, s3: S3Client }} AwsClients
 * @typedef {{ macie: Macie2Client, s3control: S3ControlClient, cloudtrail: CloudTrailClient, guardduty: GuardDutyClient }} AwsAccountClients
 * @typedef {{
 *   environment: string, region: string, deployRole: string, stateBucket?: string,
 *   organizationTrail?: { arn: string, objectTypes: readonly string[] },
 * }} AwsTarget
 * @typedef {{ clients: AwsClients & AwsAccountClients, region: string, account: () => Promise<string> }} AwsAccount
 * @typedef {{
 *   clients: AwsClients & AwsAccountClients, arn: string, objectTypes: readonly string[],
 *   trail: () => Promise<import('@aws-sdk/client-cloudtrail').Trail>,
 * }} AwsOrganizationTrail
 * @typedef {import('@aws-sdk/client-cloudtrail').GetEventSelectorsCommandOutput} EventSelectors
 */

/** @param {string} region @returns {AwsClients} the SDK's clients, credentials from its default chain */
function awsClients(region) {
  return { sts: new STSClient({ region }), iam: new IAMClient({ region }), s3: new S3Client({ region }) };
}

/** @param {string} region @returns {AwsAccountClients} the clients of the account-level prerequisites */
function awsAccountClients(region) {
  return {
    macie: new Macie2Client({ region }),
    s3control: new S3ControlClient({ region }),
    cloudtrail: new CloudTrailClient({ region }),
    guardduty: new GuardDutyClient({ region }),
  };
}

/**
 * Whether a trail's selectors record every read and every write management event. Basic selectors: management
 * events are included unless IncludeManagementEvents is false, ReadWriteType is All by default, and an excluded
 * event source leaves that source's events out
 * (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_EventSelector.html). Advanced selectors:
 * eventCategory Management selects them, narrowed by readOnly and eventSource
 * (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_AdvancedFieldSelector.html); a selector
 * narrowed any other way is not counted (fail closed).
 * @param {Pick<EventSelectors, 'EventSelectors' | 'AdvancedEventSelectors'>} selectors
 */
function recordsManagementEvents({ EventSelectors = [], AdvancedEventSelectors = [] }) {
  /** @type {Set<'read' | 'write'>} */
  const recorded = new Set();
  for (const selector of EventSelectors) {
    if (selector.IncludeManagementEvents === false) continue;
    if ((selector.ExcludeManagementEventSources ?? []).length > 0) continue;
    const type = selector.ReadWriteType ?? 'All';
    if (type !== 'WriteOnly') recorded.add('read');
    if (type !== 'ReadOnly') recorded.add('write');
  }
  for (const { FieldSelectors = [] } of AdvancedEventSelectors) {
    const field = (/** @type {string} */ name) => FieldSelectors.find((each) => each.Field === name);
    if (!field('eventCategory')?.Equals?.includes('Management')) continue;
    if (FieldSelectors.some((each) => each.Field !== 'eventCategory' && each.Field !== 'readOnly')) continue;
    const readOnly = field('readOnly');
    if (Object.keys(readOnly ?? {}).some((key) => !['Field', 'Equals', 'NotEquals'].includes(key))) continue;
    for (const [value, kind] of /** @type {const} */ ([
      ['true', 'read'],
      ['false', 'write'],
    ])) {
      if ((readOnly?.Equals ?? [value]).includes(value) && !(readOnly?.NotEquals ?? []).includes(value)) {
        recorded.add(kind);
      }
    }
  }
  return recorded.has('read') && recorded.has('write');
}

/**
 * The account- and region-level settings the AWS compliance controls judged outside the repository need, each
 * keyed by the ids of the controls it answers (a test holds this table to @checkpoints/analysis's
 * AWS_COMPLIANCE).
 * @type {readonly import('./checks.cjs').Prerequisite<AwsAccount>[]}
 */
const AWS_PREREQUISITES = [
  {
    controls: ['CIS AWS 2.1.3'],
    name: 'Amazon Macie enabled',
    enable: ({ region }) =>
      `aws macie2 enable-macie --region ${region}, or enable it from the organization's Macie administrator account`,
    check: async ({ clients, region }) => {
      // GetMacieSession: the account's Macie status, ENABLED or PAUSED; an account where Macie is off
      // answers an error (https://docs.aws.amazon.com/macie/latest/APIReference/macie.html).
      const session = await clients.macie.send(new GetMacieSessionCommand({}));
      if (session.status !== 'ENABLED')
        return missing(`Macie is ${session.status ?? 'in no known state'} in ${region}`);
      return `ENABLED in ${region}`;
    },
  },
  {
    controls: ['S3.1'],
    name: "the account's S3 public access block",
    enable: () =>
      'aws s3control put-public-access-block --account-id ACCOUNT --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true',
    check: async ({ clients, account }) => {
      const accountId = await account();
      try {
        // GetPublicAccessBlock (S3 Control): the account's four flags; an account without the setting
        // answers NoSuchPublicAccessBlockConfiguration
        // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_control_GetPublicAccessBlock.html).
        const { PublicAccessBlockConfiguration: block = {} } = await clients.s3control.send(
          new GetPublicAccessBlockCommand({ AccountId: accountId }),
        );
        const flags = /** @type {const} */ ([
          'BlockPublicAcls',
          'IgnorePublicAcls',
          'BlockPublicPolicy',
          'RestrictPublicBuckets',
        ]);
        const off = flags.filter((flag) => block[flag] !== true);
        if (off.length > 0) return missing(`account ${accountId}: ${off.join(', ')} not true`);
        return `account ${accountId}: all four flags true`;
      } catch (error) {
        if (/** @type {{ name?: string }} */ (error)?.name === 'NoSuchPublicAccessBlockConfiguration') {
          return missing(`account ${accountId} has no public access block`);
        }
        throw error;
      }
    },
  },
  {
    controls: ['CIS AWS 3.1', 'CloudTrail.1'],
    name: 'a multi-region trail logging read and write management events',
    enable: () =>
      'aws cloudtrail create-trail --name NAME --s3-bucket-name BUCKET --is-multi-region-trail, then aws cloudtrail start-logging --name NAME (a trail created without event selectors records every read and write management event)',
    check: async ({ clients }) => {
      // DescribeTrails: the trails of the account in this region, shadow trails of other home regions and of
      // the organization included (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_DescribeTrails.html).
      const { trailList = [] } = await clients.cloudtrail.send(
        new DescribeTrailsCommand({ includeShadowTrails: true }),
      );
      const multiRegion = trailList.filter((trail) => trail.IsMultiRegionTrail === true && trail.TrailARN);
      if (multiRegion.length === 0) return missing('the account has no multi-region trail');
      /** @type {string[]} */
      const short = [];
      for (const trail of multiRegion) {
        const arn = String(trail.TrailARN);
        // GetTrailStatus, by ARN for a shadow trail
        // (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_GetTrailStatus.html).
        const { IsLogging } = await clients.cloudtrail.send(new GetTrailStatusCommand({ Name: arn }));
        if (IsLogging !== true) {
          short.push(`${arn} is not logging`);
          continue;
        }
        // GetEventSelectors (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_GetEventSelectors.html).
        const selectors = await clients.cloudtrail.send(new GetEventSelectorsCommand({ TrailName: arn }));
        if (!recordsManagementEvents(selectors)) {
          short.push(`${arn} does not select every read and write management event`);
          continue;
        }
        return `${arn}: multi-region, logging, read and write management events`;
      }
      return missing(short.join('; '));
    },
  },
  {
    controls: ['GuardDuty.1'],
    name: 'GuardDuty enabled',
    enable: ({ region }) =>
      `aws guardduty create-detector --enable --region ${region} (it creates the service-linked role), or enable it from the organization's GuardDuty administrator account`,
    check: async ({ clients, region }) => {
      // ListDetectors: the account's detector in this region, one at most
      // (https://docs.aws.amazon.com/guardduty/latest/APIReference/API_ListDetectors.html).
      const { DetectorIds = [] } = await clients.guardduty.send(new ListDetectorsCommand({}));
      const [detectorId] = DetectorIds;
      if (detectorId === undefined) return missing(`no GuardDuty detector in ${region}`);
      // GetDetector: its Status and ServiceRole
      // (https://docs.aws.amazon.com/guardduty/latest/APIReference/API_GetDetector.html).
      const detector = await clients.guardduty.send(new GetDetectorCommand({ DetectorId: detectorId }));
      if (detector.Status !== 'ENABLED') {
        return missing(`detector ${detectorId} in ${region} is ${detector.Status ?? 'in no known state'}`);
      }
      const roleName =
        String(detector.ServiceRole ?? '')
          .split('/')
          .pop() ?? '';
      if (!roleName) return missing(`detector ${detectorId} names no service role`);
      // GetRole (https://docs.aws.amazon.com/IAM/latest/APIReference/API_GetRole.html).
      await clients.iam.send(new GetRoleCommand({ RoleName: roleName }));
      return `detector ${detectorId} ENABLED in ${region}, service role ${roleName}`;
    },
  },
];

/**
 * Which data events of every object of a resource type (AWS::S3::Object, or AWS::S3Express::Object for directory
 * buckets) a trail's selectors record: 'read' and 'write'. Basic selectors, of AWS::S3::Object only: a
 * DataResource whose value is the bare `arn:<partition>:s3` prefix selects every bucket
 * (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_DataResource.html). Advanced selectors:
 * eventCategory Data and resources.type, narrowed by readOnly only
 * (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_AdvancedFieldSelector.html). A selector
 * naming buckets or prefixes is not counted: the preflight cannot tell the stores' buckets are among them.
 * @param {Pick<EventSelectors, 'EventSelectors' | 'AdvancedEventSelectors'>} selectors
 * @param {string} resourceType
 */
function s3DataEventsRecorded({ EventSelectors = [], AdvancedEventSelectors = [] }, resourceType) {
  /** @type {Set<'read' | 'write'>} */
  const recorded = new Set();
  for (const selector of EventSelectors) {
    const everyBucket = (selector.DataResources ?? []).some(
      (resource) =>
        resourceType === 'AWS::S3::Object' &&
        resource.Type === resourceType &&
        (resource.Values ?? []).some((value) => /^arn:aws[a-z-]*:s3(:::)?$/.test(value)),
    );
    if (!everyBucket) continue;
    const type = selector.ReadWriteType ?? 'All';
    if (type !== 'WriteOnly') recorded.add('read');
    if (type !== 'ReadOnly') recorded.add('write');
  }
  for (const { FieldSelectors = [] } of AdvancedEventSelectors) {
    const field = (/** @type {string} */ name) => FieldSelectors.find((each) => each.Field === name);
    if (!field('eventCategory')?.Equals?.includes('Data')) continue;
    if (!field('resources.type')?.Equals?.includes(resourceType)) continue;
    const narrowing = ['eventCategory', 'resources.type', 'readOnly'];
    if (FieldSelectors.some((each) => !narrowing.includes(String(each.Field)))) continue;
    const readOnly = field('readOnly');
    if (Object.keys(readOnly ?? {}).some((key) => !['Field', 'Equals', 'NotEquals'].includes(key))) continue;
    for (const [value, kind] of /** @type {const} */ ([
      ['true', 'read'],
      ['false', 'write'],
    ])) {
      if ((readOnly?.Equals ?? [value]).includes(value) && !(readOnly?.NotEquals ?? []).includes(value)) {
        recorded.add(kind);
      }
    }
  }
  return recorded;
}

/**
 * The CloudTrail resource types of the objects of the audited stores (audit is on unless a store says
 * `audit: false`): a high-throughput store is a directory bucket, whose data events are AWS::S3Express::Object
 * that advanced selectors alone can select (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-one-zone-logging.html,
 * https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_DataResource.html), the others AWS::S3::Object.
 * @param {unknown} stores `checkpoints:stores` as the stack file holds it
 * @returns {string[]}
 */
function awsAuditedObjectTypes(stores) {
  const audited = (Array.isArray(stores) ? stores : []).filter((store) => store?.audit !== false);
  const types = new Set(
    audited.map((store) =>
      store?.tier === 'high-throughput' ? 'AWS::S3Express::Object' : 'AWS::S3::Object',
    ),
  );
  return [...types].sort();
}

/**
 * The delete actions an audit-log bucket's policy refuses to every principal, as the compliance view judges
 * them (a test holds the two lists equal).
 */
const AUDIT_LOG_PROTECTED_ACTIONS = [
  's3:DeleteObjectVersion',
  's3:DeleteBucket',
  's3:BypassGovernanceRetention',
];

/**
 * With `checkpoints:organizationTrail` the stores are audited by a trail outside the repository: the settings
 * the compliance view then judges outside-repo, asked of that trail and its log bucket, each keyed by the ids
 * of the controls it answers (a test holds this table to AWS_COMPLIANCE).
 * @type {readonly import('./checks.cjs').Prerequisite<AwsOrganizationTrail>[]}
 */
const AWS_ORGANIZATION_TRAIL_PREREQUISITES = [
  .../** @type {const} */ ([
    ['write', ['CIS AWS 3.8', 'S3.22']],
    ['read', ['CIS AWS 3.9', 'S3.23']],
  ]).map(([kind, controls]) => ({
    controls,
    name: `the organization trail records the S3 object ${kind}s of every bucket`,
    enable: (/** @type {AwsOrganizationTrail} */ { arn, objectTypes }) =>
      `add to ${arn}, from the organization's management account, an advanced event selector eventCategory=Data, resources.type=${objectTypes.join(' and one ')} (aws cloudtrail put-event-selectors)`,
    check: async (/** @type {AwsOrganizationTrail} */ { clients, arn, objectTypes }) => {
      // GetEventSelectors (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_GetEventSelectors.html).
      const selectors = await clients.cloudtrail.send(new GetEventSelectorsCommand({ TrailName: arn }));
      const unselected = objectTypes.filter((type) => !s3DataEventsRecorded(selectors, type).has(kind));
      if (unselected.length > 0) {
        return missing(
          `${arn} selects no ${kind} data events of every ${unselected.join(' or ')} (a selector naming buckets counts as none: the preflight cannot tell the stores' are among them)`,
        );
      }
      return `${arn} selects them (${objectTypes.join(', ')})`;
    },
  })),
  {
    controls: ['CIS AWS 3.2', 'CloudTrail.4', 'CIS AWS 3.5', 'CloudTrail.2'],
    name: 'the organization trail is multi-region, validates its log files and encrypts them with a KMS key',
    enable: ({ arn }) =>
      `aws cloudtrail update-trail --name ${arn} --is-multi-region-trail --enable-log-file-validation --kms-key-id KEY, from the trail's account`,
    check: async ({ arn, trail }) => {
      const found = await trail();
      const short = [
        found.IsMultiRegionTrail === true ? '' : 'not multi-region',
        found.LogFileValidationEnabled === true ? '' : 'no log file validation',
        found.KmsKeyId ? '' : 'no KMS key',
      ].filter(Boolean);
      if (short.length > 0) return missing(`${arn}: ${short.join(', ')}`);
      return `${arn}: multi-region, log file validation, KMS key ${found.KmsKeyId}`;
    },
  },
  {
    controls: ['CIS AWS 3.4', 'CloudTrail.7'],
    name: "the organization trail's log bucket has server access logging",
    enable: () =>
      'aws s3api put-bucket-logging --bucket LOG_BUCKET --bucket-logging-status file://logging.json (a target bucket other than the log bucket), from the log bucket account',
    check: async ({ clients, trail }) => {
      const bucket = String((await trail()).S3BucketName ?? '');
      if (!bucket) return missing('the trail names no S3 bucket');
      // GetBucketLogging: LoggingEnabled absent means logging is off
      // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetBucketLogging.html).
      const { LoggingEnabled } = await clients.s3.send(new GetBucketLoggingCommand({ Bucket: bucket }));
      const target = LoggingEnabled?.TargetBucket;
      if (!target) return missing(`${bucket} has no server access logging`);
      if (target === bucket) return missing(`${bucket} logs into itself`);
      return `${bucket} logs to ${target}`;
    },
  },
  {
    controls: ['checkpoints audit-immutable (AWS)'],
    name: "the organization trail's log bucket is write-once and refuses deletes",
    enable: () =>
      `give the log bucket an Object Lock default retention (aws s3api put-object-lock-configuration) and a bucket policy statement denying ${AUDIT_LOG_PROTECTED_ACTIONS.join(', ')} to Principal "*", from the log bucket account`,
    check: async ({ clients, trail }) => {
      const bucket = String((await trail()).S3BucketName ?? '');
      if (!bucket) return missing('the trail names no S3 bucket');
      // GetObjectLockConfiguration (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObjectLockConfiguration.html).
      const { ObjectLockConfiguration: lock } = await clients.s3.send(
        new GetObjectLockConfigurationCommand({ Bucket: bucket }),
      );
      const retention = lock?.Rule?.DefaultRetention;
      if (lock?.ObjectLockEnabled !== 'Enabled' || !(retention?.Days || retention?.Years)) {
        return missing(`${bucket} has no Object Lock default retention`);
      }
      // GetBucketPolicy: the policy document as a JSON string
      // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetBucketPolicy.html).
      const { Policy = '{}' } = await clients.s3.send(new GetBucketPolicyCommand({ Bucket: bucket }));
      /** @type {Array<{ Effect?: string, Principal?: unknown, Action?: string | string[], Condition?: unknown }>} */
      const statements = [JSON.parse(Policy).Statement ?? []].flat();
      const list = (/** @type {string | string[] | undefined} */ value) => [value ?? []].flat();
      const open = AUDIT_LOG_PROTECTED_ACTIONS.filter(
        (action) =>
          !statements.some(
            (statement) =>
              statement.Effect === 'Deny' &&
              statement.Principal === '*' &&
              statement.Condition === undefined &&
              list(statement.Action).some((each) => each === action || each === 's3:*'),
          ),
      );
      if (open.length > 0)
        return missing(`${bucket}'s policy does not deny ${open.join(', ')} to every principal`);
      const period = retention.Days ? `${retention.Days} d` : `${retention.Years} y`;
      return `${bucket}: Object Lock ${retention.Mode ?? ''} ${period}, deletes denied`;
    },
  },
];

/**
 * The SDK's own words for a failed call, with what to do when it is the credentials.
 * @param {unknown} error
 */
function failure(error) {
  const { name = 'Error', message = String(error) } =
    error instanceof Error ? error : /** @type {{ name?: string, message?: string }} */ ({});
  if (name === 'CredentialsProviderError' || /credential/i.test(message)) {
    return 'no AWS credentials: sign in (aws sso login, or AWS_PROFILE / AWS_ACCESS_KEY_ID) and run it again';
  }
  return `${name}: ${message}`;
}

/**
 * @param {AwsClients & AwsAccountClients} clients
 * @param {AwsTarget} target
 * @returns {Promise<Check[]>} one check per question, in order; a failed question never stops the others
 */
async function awsPreflight(clients, target) {
  const { checks, ask, askPrerequisites } = checklist(failure);
  // GetCallerIdentity (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html), asked once.
  const caller = clients.sts.send(new GetCallerIdentityCommand({}));
  await ask('who am I', async () => {
    const { Arn, Account } = await caller;
    return `${Arn} in account ${Account}, region ${target.region}`;
  });
  await ask(`bootstrap applied: deploy role ${target.deployRole}`, async () => {
    // GetRole (https://docs.aws.amazon.com/IAM/latest/APIReference/API_GetRole.html).
    const { Role } = await clients.iam.send(new GetRoleCommand({ RoleName: target.deployRole }));
    return `${Role?.Arn}`;
  });
  if (target.stateBucket !== undefined) {
    await ask(`state backend s3://${target.stateBucket} reachable`, async () => {
      // HeadBucket (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html).
      await clients.s3.send(new HeadBucketCommand({ Bucket: target.stateBucket }));
      return 'the bucket answers';
    });
  }
  await askPrerequisites(AWS_PREREQUISITES, {
    clients,
    region: target.region,
    account: async () => String((await caller).Account),
  });
  if (target.organizationTrail !== undefined) {
    const { arn, objectTypes } = target.organizationTrail;
    /** @type {Promise<import('@aws-sdk/client-cloudtrail').Trail> | undefined} */
    let trail;
    await askPrerequisites(AWS_ORGANIZATION_TRAIL_PREREQUISITES, {
      clients,
      arn,
      objectTypes,
      // DescribeTrails by ARN, a shadow trail of the organization included
      // (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_DescribeTrails.html).
      trail: () =>
        (trail ??= clients.cloudtrail
          .send(new DescribeTrailsCommand({ trailNameList: [arn], includeShadowTrails: true }))
          .then(({ trailList = [] }) => trailList[0] ?? missing(`no trail ${arn} in the account's view`))),
    });
  }
  return checks;
}

module.exports = {
  AUDIT_LOG_PROTECTED_ACTIONS,
  AWS_ORGANIZATION_TRAIL_PREREQUISITES,
  AWS_PREREQUISITES,
  awsAccountClients,
  awsAuditedObjectTypes,
  awsClients,
  awsPreflight,
  failure,
  recordsManagementEvents,
  s3DataEventsRecorded,
};
