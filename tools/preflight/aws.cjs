/**
 * The read-only preflight of the AWS stack: what its first deploy needs, asked with the caller's own
 * credentials through the official SDK, never a write (only Get, List and Head calls; the tests hold it to that).
 */
const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
const { IAMClient, GetRoleCommand } = require('@aws-sdk/client-iam');
const { S3Client, HeadBucketCommand } = require('@aws-sdk/client-s3');
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
 * @typedef {{ environment: string, region: string, deployRole: string, stateBucket?: string }} AwsTarget
 * @typedef {{ clients: AwsClients & AwsAccountClients, region: string, account: () => Promise<string> }} AwsAccount
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
  return checks;
}

module.exports = {
  AWS_PREREQUISITES,
  awsAccountClients,
  awsClients,
  awsPreflight,
  failure,
  recordsManagementEvents,
};
