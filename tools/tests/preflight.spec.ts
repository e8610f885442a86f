/**
 * The AWS preflight against the SDK's own mock (aws-sdk-client-mock) and a stand-in for GitHub's REST API:
 * what it reports, and that every call it makes is a read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { mockClient } from 'aws-sdk-client-mock';
import { STSClient, GetCallerIdentityCommand } from '@aws-sdk/client-sts';
import { IAMClient, GetRoleCommand } from '@aws-sdk/client-iam';
import {
  S3Client,
  GetBucketLoggingCommand,
  GetBucketPolicyCommand,
  GetObjectLockConfigurationCommand,
  HeadBucketCommand,
} from '@aws-sdk/client-s3';
import { Macie2Client, GetMacieSessionCommand } from '@aws-sdk/client-macie2';
import { S3ControlClient, GetPublicAccessBlockCommand } from '@aws-sdk/client-s3-control';
import {
  CloudTrailClient,
  DescribeTrailsCommand,
  GetEventSelectorsCommand,
  GetTrailStatusCommand,
} from '@aws-sdk/client-cloudtrail';
import { GuardDutyClient, GetDetectorCommand, ListDetectorsCommand } from '@aws-sdk/client-guardduty';
import { main } from '../preflight/run.cjs';
import { recordsManagementEvents, s3DataEventsRecorded } from '../preflight/aws.cjs';
import { changedRepository } from './preflight-fakes';

const AWS_STACK = join(__dirname, '..', '..', 'stacks', 'aws-s3');

function io(env: Record<string, string> = {}, cwd = AWS_STACK) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: {
      cwd,
      env,
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      stdinIsTTY: false,
    },
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

const TRAIL = 'arn:aws:cloudtrail:us-east-1:123456789012:trail/management';
const GUARD_DUTY_ROLE =
  'arn:aws:iam::123456789012:role/aws-service-role/guardduty.amazonaws.com/AWSServiceRoleForAmazonGuardDuty';

/** The account as the prod stack's first deploy needs it: every prerequisite there. */
function mocks() {
  const sts = mockClient(STSClient);
  const iam = mockClient(IAMClient);
  const s3 = mockClient(S3Client);
  const macie = mockClient(Macie2Client);
  const s3control = mockClient(S3ControlClient);
  const cloudtrail = mockClient(CloudTrailClient);
  const guardduty = mockClient(GuardDutyClient);
  sts.on(GetCallerIdentityCommand).resolves({
    Account: '123456789012',
    Arn: 'arn:aws:sts::123456789012:assumed-role/admin/me',
  });
  iam.on(GetRoleCommand).resolves({
    Role: {
      RoleName: 'checkpoints-ci-deploy-prod',
      Arn: 'arn:aws:iam::123456789012:role/checkpoints-ci-deploy-prod',
      Path: '/',
      RoleId: 'AROAEXAMPLE',
      CreateDate: new Date(0),
    },
  });
  s3.on(HeadBucketCommand).resolves({});
  macie.on(GetMacieSessionCommand).resolves({ status: 'ENABLED' });
  s3control.on(GetPublicAccessBlockCommand, { AccountId: '123456789012' }).resolves({
    PublicAccessBlockConfiguration: {
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    },
  });
  cloudtrail.on(DescribeTrailsCommand).resolves({
    trailList: [
      {
        Name: 'checkpoints-data',
        TrailARN: 'arn:aws:cloudtrail:us-east-1:123456789012:trail/checkpoints-data',
      },
      { Name: 'management', TrailARN: TRAIL, IsMultiRegionTrail: true },
    ],
  });
  cloudtrail.on(GetTrailStatusCommand, { Name: TRAIL }).resolves({ IsLogging: true });
  cloudtrail
    .on(GetEventSelectorsCommand, { TrailName: TRAIL })
    .resolves({ EventSelectors: [{ ReadWriteType: 'All', IncludeManagementEvents: true }] });
  guardduty.on(ListDetectorsCommand).resolves({ DetectorIds: ['d-1'] });
  guardduty
    .on(GetDetectorCommand, { DetectorId: 'd-1' })
    .resolves({ Status: 'ENABLED', ServiceRole: GUARD_DUTY_ROLE });
  const all = [sts, iam, s3, macie, s3control, cloudtrail, guardduty];
  const clients = () => ({ sts: new STSClient({}), iam: new IAMClient({}), s3: new S3Client({}) });
  const accountClients = () => ({
    macie: new Macie2Client({}),
    s3control: new S3ControlClient({}),
    cloudtrail: new CloudTrailClient({}),
    guardduty: new GuardDutyClient({}),
  });
  const calls = () =>
    all.flatMap((mock) => mock.calls().map((call) => String(call.args[0].constructor.name)));
  return {
    sts,
    iam,
    s3,
    macie,
    s3control,
    cloudtrail,
    guardduty,
    deps: { clients, accountClients },
    calls,
    restore: () => all.forEach((mock) => mock.restore()),
  };
}

const github = (status: number) => jest.fn(async () => ({ status, ok: status < 300 }) as Response);
const ENV = {
  GITHUB_REPOSITORY: 'acme/checkpoint-storage',
  GITHUB_TOKEN: 'token',
  PULUMI_BACKEND_URL: 's3://acme-state',
};

describe('checkpoints-preflight (AWS)', () => {
  it('passes when the caller, the deploy role, the state bucket and the GitHub environment are there, with reads only', async () => {
    const aws = mocks();
    const fetch = github(200);
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch })).toBe(0);
      expect(run.out()).toContain('ok   who am I: arn:aws:sts::123456789012:assumed-role/admin/me');
      expect(run.out()).toContain('ok   bootstrap applied: deploy role checkpoints-ci-deploy-prod');
      expect(run.out()).toContain('ok   state backend s3://acme-state reachable');
      expect(run.out()).toContain('ok   Amazon Macie enabled (CIS AWS 2.1.3): ENABLED in us-east-1');
      expect(run.out()).toContain(
        "ok   the account's S3 public access block (S3.1): account 123456789012: all four flags true",
      );
      expect(run.out()).toContain(
        `ok   a multi-region trail logging read and write management events (CIS AWS 3.1, CloudTrail.1): ${TRAIL}`,
      );
      expect(run.out()).toContain(
        'ok   GuardDuty enabled (GuardDuty.1): detector d-1 ENABLED in us-east-1, service role AWSServiceRoleForAmazonGuardDuty',
      );
      expect(aws.calls()).toContain('GetPublicAccessBlockCommand');
      expect(aws.calls().filter((name) => name === 'GetCallerIdentityCommand')).toHaveLength(1);
      expect(aws.calls().every((name) => /^(Get|List|Head|Describe)/.test(name))).toBe(true);
      expect(fetch).toHaveBeenCalledWith(
        'https://api.github.com/repos/acme/checkpoint-storage/environments/prod',
        expect.objectContaining({ method: 'GET' }),
      );
    } finally {
      aws.restore();
    }
  });

  it('fails naming each missing piece, and asks the rest anyway', async () => {
    const aws = mocks();
    aws.iam
      .on(GetRoleCommand)
      .rejects(Object.assign(new Error('role not found'), { name: 'NoSuchEntityException' }));
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(404) })).toBe(1);
      expect(run.out()).toContain(
        'FAIL bootstrap applied: deploy role checkpoints-ci-deploy-prod: NoSuchEntityException',
      );
      expect(run.out()).toContain(
        'FAIL GitHub environment prod: acme/checkpoint-storage has no environment prod',
      );
      expect(aws.calls()).toContain('HeadBucketCommand');
    } finally {
      aws.restore();
    }
  });

  it('says what to do when there are no credentials, and when there is no GitHub token', async () => {
    const aws = mocks();
    aws.sts.on(GetCallerIdentityCommand).rejects(
      Object.assign(new Error('Could not load credentials from any providers'), {
        name: 'CredentialsProviderError',
      }),
    );
    const run = io({});
    try {
      expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(200) })).toBe(1);
      expect(run.out()).toContain('FAIL who am I: no AWS credentials: sign in');
      expect(run.out()).toContain('FAIL GitHub environment prod: GITHUB_REPOSITORY is not set');
    } finally {
      aws.restore();
    }
  });

  it('refuses a bad --stack with the value and what is allowed', async () => {
    const run = io();
    expect(await main(['--stack=pr od'], run.io, {})).toBe(2);
    expect(run.err()).toContain("--stack: 'pr od' given; allowed: a stack name such as dev or prod");
  });
});

describe('checkpoints-preflight (AWS): the account-level prerequisites of the compliance controls', () => {
  type Mocks = ReturnType<typeof mocks>;
  const PREFIX = {
    macie: 'FAIL Amazon Macie enabled (CIS AWS 2.1.3): ',
    block: "FAIL the account's S3 public access block (S3.1): ",
    trail: 'FAIL a multi-region trail logging read and write management events (CIS AWS 3.1, CloudTrail.1): ',
    guardDuty: 'FAIL GuardDuty enabled (GuardDuty.1): ',
  };
  const error = (name: string, message: string) => Object.assign(new Error(message), { name });

  // What is taken away, and the FAIL line naming it with how to enable it: the only failure.
  const missing: Array<[string, (aws: Mocks) => void, string]> = [
    [
      'Macie, off',
      (aws) =>
        aws.macie
          .on(GetMacieSessionCommand)
          .rejects(error('AccessDeniedException', 'Macie is not enabled for this account')),
      `${PREFIX.macie}cannot be read (AccessDeniedException: Macie is not enabled for this account), counted as missing; to enable: aws macie2 enable-macie --region us-east-1`,
    ],
    [
      'Macie, paused',
      (aws) => aws.macie.on(GetMacieSessionCommand).resolves({ status: 'PAUSED' }),
      `${PREFIX.macie}Macie is PAUSED in us-east-1; to enable: aws macie2 enable-macie`,
    ],
    [
      "the account's public access block",
      (aws) =>
        aws.s3control
          .on(GetPublicAccessBlockCommand)
          .rejects(
            error(
              'NoSuchPublicAccessBlockConfiguration',
              'The public access block configuration was not found',
            ),
          ),
      `${PREFIX.block}account 123456789012 has no public access block; to enable: aws s3control put-public-access-block --account-id ACCOUNT --public-access-block-configuration BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true,RestrictPublicBuckets=true`,
    ],
    [
      'a flag of the public access block',
      (aws) =>
        aws.s3control.on(GetPublicAccessBlockCommand).resolves({
          PublicAccessBlockConfiguration: {
            BlockPublicAcls: true,
            IgnorePublicAcls: true,
            BlockPublicPolicy: false,
          },
        }),
      `${PREFIX.block}account 123456789012: BlockPublicPolicy, RestrictPublicBuckets not true; to enable:`,
    ],
    [
      'a multi-region trail',
      (aws) =>
        aws.cloudtrail
          .on(DescribeTrailsCommand)
          .resolves({ trailList: [{ Name: 'management', TrailARN: TRAIL, IsMultiRegionTrail: false }] }),
      `${PREFIX.trail}the account has no multi-region trail; to enable: aws cloudtrail create-trail --name NAME --s3-bucket-name BUCKET --is-multi-region-trail`,
    ],
    [
      'a logging trail',
      (aws) => aws.cloudtrail.on(GetTrailStatusCommand).resolves({ IsLogging: false }),
      `${PREFIX.trail}${TRAIL} is not logging; to enable:`,
    ],
    [
      'the write management events',
      (aws) =>
        aws.cloudtrail
          .on(GetEventSelectorsCommand)
          .resolves({ EventSelectors: [{ ReadWriteType: 'ReadOnly', IncludeManagementEvents: true }] }),
      `${PREFIX.trail}${TRAIL} does not select every read and write management event; to enable:`,
    ],
    [
      'the trail status, unreadable',
      (aws) =>
        aws.cloudtrail
          .on(GetTrailStatusCommand)
          .rejects(error('AccessDeniedException', 'not authorized to perform cloudtrail:GetTrailStatus')),
      `${PREFIX.trail}cannot be read (AccessDeniedException: not authorized to perform cloudtrail:GetTrailStatus), counted as missing; to enable:`,
    ],
    [
      'a GuardDuty detector',
      (aws) => aws.guardduty.on(ListDetectorsCommand).resolves({ DetectorIds: [] }),
      `${PREFIX.guardDuty}no GuardDuty detector in us-east-1; to enable: aws guardduty create-detector --enable --region us-east-1`,
    ],
    [
      'an enabled GuardDuty detector',
      (aws) =>
        aws.guardduty.on(GetDetectorCommand).resolves({ Status: 'DISABLED', ServiceRole: GUARD_DUTY_ROLE }),
      `${PREFIX.guardDuty}detector d-1 in us-east-1 is DISABLED; to enable:`,
    ],
    [
      "GuardDuty's service-linked role",
      (aws) =>
        aws.iam
          .on(GetRoleCommand, { RoleName: 'AWSServiceRoleForAmazonGuardDuty' })
          .rejects(
            error(
              'NoSuchEntityException',
              'The role with name AWSServiceRoleForAmazonGuardDuty cannot be found.',
            ),
          ),
      `${PREFIX.guardDuty}cannot be read (NoSuchEntityException: The role with name AWSServiceRoleForAmazonGuardDuty cannot be found.), counted as missing; to enable:`,
    ],
  ];

  it.each(missing)(
    'fails naming %s, and asks the rest anyway, with reads only',
    async (_what, take, line) => {
      const aws = mocks();
      take(aws);
      const run = io(ENV);
      try {
        expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(200) })).toBe(1);
        expect(run.out()).toContain(line);
        expect(run.out().match(/^FAIL/gm)).toHaveLength(1);
        expect(aws.calls().every((name) => /^(Get|List|Head|Describe)/.test(name))).toBe(true);
      } finally {
        aws.restore();
      }
    },
  );

  it('counts the account public access block as missing when who am I fails: the account is unknown', async () => {
    const aws = mocks();
    aws.sts
      .on(GetCallerIdentityCommand)
      .rejects(error('ExpiredToken', 'The security token included in the request is expired'));
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(200) })).toBe(1);
      expect(run.out()).toContain(`${PREFIX.block}cannot be read (ExpiredToken: `);
      expect(aws.calls()).not.toContain('GetPublicAccessBlockCommand');
    } finally {
      aws.restore();
    }
  });

  it('passes on a later multi-region trail when the first one records no management events', async () => {
    const aws = mocks();
    const first = 'arn:aws:cloudtrail:us-east-1:123456789012:trail/data-only';
    aws.cloudtrail.on(DescribeTrailsCommand).resolves({
      trailList: [
        { Name: 'data-only', TrailARN: first, IsMultiRegionTrail: true },
        { Name: 'management', TrailARN: TRAIL, IsMultiRegionTrail: true },
      ],
    });
    aws.cloudtrail.on(GetTrailStatusCommand).resolves({ IsLogging: true });
    aws.cloudtrail
      .on(GetEventSelectorsCommand, { TrailName: first })
      .resolves({ EventSelectors: [{ IncludeManagementEvents: false }] });
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(200) })).toBe(0);
      expect(run.out()).toContain(`(CIS AWS 3.1, CloudTrail.1): ${TRAIL}: multi-region`);
    } finally {
      aws.restore();
    }
  });

  describe('recordsManagementEvents', () => {
    const management = (...fields: Array<{ Field: string; Equals?: string[]; NotEquals?: string[] }>) => ({
      AdvancedEventSelectors: [
        { FieldSelectors: [{ Field: 'eventCategory', Equals: ['Management'] }, ...fields] },
      ],
    });
    it.each([
      ['no selectors', {}, false],
      ['a basic selector, defaults', { EventSelectors: [{}] }, true],
      ['a basic selector, WriteOnly', { EventSelectors: [{ ReadWriteType: 'WriteOnly' as const }] }, false],
      [
        'basic ReadOnly and WriteOnly selectors',
        { EventSelectors: [{ ReadWriteType: 'ReadOnly' as const }, { ReadWriteType: 'WriteOnly' as const }] },
        true,
      ],
      [
        'a basic selector excluding an event source',
        { EventSelectors: [{ ExcludeManagementEventSources: ['kms.amazonaws.com'] }] },
        false,
      ],
      ['an advanced management selector', management(), true],
      ['an advanced selector of reads only', management({ Field: 'readOnly', Equals: ['true'] }), false],
      ['an advanced selector of writes only', management({ Field: 'readOnly', NotEquals: ['true'] }), false],
      [
        'an advanced selector leaving an event source out',
        management({ Field: 'eventSource', NotEquals: ['kms.amazonaws.com'] }),
        false,
      ],
      [
        'advanced selectors of reads and of writes',
        {
          AdvancedEventSelectors: [
            ...management({ Field: 'readOnly', Equals: ['true'] }).AdvancedEventSelectors,
            ...management({ Field: 'readOnly', Equals: ['false'] }).AdvancedEventSelectors,
          ],
        },
        true,
      ],
      [
        'an advanced selector of data events',
        { AdvancedEventSelectors: [{ FieldSelectors: [{ Field: 'eventCategory', Equals: ['Data'] }] }] },
        false,
      ],
    ])('%s', (_what, selectors, recorded) => {
      expect(recordsManagementEvents(selectors)).toBe(recorded);
    });
  });
});

describe('checkpoints-preflight (AWS): a stack audited by checkpoints:organizationTrail', () => {
  const ORG = 'arn:aws:cloudtrail:us-east-1:111122223333:trail/organization';
  const LOG_BUCKET = 'acme-org-trail-logs';
  const PREFIX = {
    writes: 'FAIL the organization trail records the S3 object writes of every bucket (CIS AWS 3.8, S3.22): ',
    reads: 'FAIL the organization trail records the S3 object reads of every bucket (CIS AWS 3.9, S3.23): ',
    settings:
      'FAIL the organization trail is multi-region, validates its log files and encrypts them with a KMS key (CIS AWS 3.2, CloudTrail.4, CIS AWS 3.5, CloudTrail.2): ',
    logging:
      "FAIL the organization trail's log bucket has server access logging (CIS AWS 3.4, CloudTrail.7): ",
    immutable:
      "FAIL the organization trail's log bucket is write-once and refuses deletes (checkpoints audit-immutable (AWS)): ",
  };
  const DENY = {
    Effect: 'Deny',
    Principal: '*',
    Action: ['s3:DeleteObjectVersion', 's3:DeleteBucket', 's3:BypassGovernanceRetention'],
    Resource: [`arn:aws:s3:::${LOG_BUCKET}`, `arn:aws:s3:::${LOG_BUCKET}/*`],
  };

  /** The account, and an organization trail with every setting the compliance view asks of it. */
  function organization() {
    const aws = mocks();
    aws.cloudtrail.on(DescribeTrailsCommand, { trailNameList: [ORG] }).resolves({
      trailList: [
        {
          TrailARN: ORG,
          IsMultiRegionTrail: true,
          LogFileValidationEnabled: true,
          KmsKeyId: 'arn:aws:kms:us-east-1:111122223333:key/k-1',
          S3BucketName: LOG_BUCKET,
        },
      ],
    });
    aws.cloudtrail.on(GetEventSelectorsCommand, { TrailName: ORG }).resolves({
      AdvancedEventSelectors: ['AWS::S3::Object', 'AWS::S3Express::Object'].map((type) => ({
        FieldSelectors: [
          { Field: 'eventCategory', Equals: ['Data'] },
          { Field: 'resources.type', Equals: [type] },
        ],
      })),
    });
    aws.s3
      .on(GetBucketLoggingCommand, { Bucket: LOG_BUCKET })
      .resolves({ LoggingEnabled: { TargetBucket: 'acme-org-access-logs', TargetPrefix: '' } });
    aws.s3.on(GetObjectLockConfigurationCommand, { Bucket: LOG_BUCKET }).resolves({
      ObjectLockConfiguration: {
        ObjectLockEnabled: 'Enabled',
        Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 365 } },
      },
    });
    aws.s3
      .on(GetBucketPolicyCommand, { Bucket: LOG_BUCKET })
      .resolves({ Policy: JSON.stringify({ Version: '2012-10-17', Statement: [DENY] }) });
    return aws;
  }

  async function preflight(aws: ReturnType<typeof mocks>, stack: Record<string, unknown> = {}) {
    const cwd = changedRepository('aws-s3', 'prod', {
      stack: { 'checkpoints:organizationTrail': ORG, ...stack },
    });
    const run = io(ENV, cwd);
    try {
      const code = await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(200) });
      expect(aws.calls().every((name) => /^(Get|List|Head|Describe)/.test(name))).toBe(true);
      return { code, out: run.out() };
    } finally {
      aws.restore();
    }
  }

  it('passes when the trail selects every S3 object read and write, validates, encrypts, and its log bucket is logged, locked and refuses deletes', async () => {
    const { code, out } = await preflight(organization());
    expect(out).not.toContain('FAIL');
    expect(code).toBe(0);
    expect(out).toContain(
      `(CIS AWS 3.8, S3.22): ${ORG} selects them (AWS::S3::Object, AWS::S3Express::Object)`,
    );
    expect(out).toContain(`(CIS AWS 3.9, S3.23): ${ORG} selects them`);
    expect(out).toContain(`${ORG}: multi-region, log file validation, KMS key`);
    expect(out).toContain(`${LOG_BUCKET} logs to acme-org-access-logs`);
    expect(out).toContain(`${LOG_BUCKET}: Object Lock COMPLIANCE 365 d, deletes denied`);
  });

  it('asks nothing of the organization trail when no store is audited', async () => {
    const stores = (
      parse(readFileSync(join(AWS_STACK, 'Pulumi.prod.yaml'), 'utf8')) as {
        config: Record<string, Array<Record<string, unknown>>>;
      }
    ).config['checkpoints:stores'];
    const unaudited = (stores ?? []).map((store) => ({ ...store, audit: false }));
    const { code, out } = await preflight(organization(), { 'checkpoints:stores': unaudited });
    expect(out).not.toContain('organization trail');
    expect(code).toBe(0);
  });

  it('asks nothing of an organization trail when the stack has its own', async () => {
    const aws = organization();
    const run = io(ENV);
    try {
      expect(await main(['--stack=prod'], run.io, { ...aws.deps, fetch: github(200) })).toBe(0);
      expect(run.out()).not.toContain('organization trail');
    } finally {
      aws.restore();
    }
  });

  const error = (name: string, message: string) => Object.assign(new Error(message), { name });
  const missing: Array<[string, (aws: ReturnType<typeof mocks>) => void, string[]]> = [
    [
      'the write data events',
      (aws) =>
        aws.cloudtrail.on(GetEventSelectorsCommand, { TrailName: ORG }).resolves({
          AdvancedEventSelectors: ['AWS::S3::Object', 'AWS::S3Express::Object'].map((type) => ({
            FieldSelectors: [
              { Field: 'eventCategory', Equals: ['Data'] },
              { Field: 'resources.type', Equals: [type] },
              { Field: 'readOnly', Equals: ['true'] },
            ],
          })),
        }),
      [
        `${PREFIX.writes}${ORG} selects no write data events of every AWS::S3::Object or AWS::S3Express::Object (a selector naming buckets counts as none`,
      ],
    ],
    [
      "the data events of the directory buckets (a high-throughput store's)",
      (aws) =>
        aws.cloudtrail.on(GetEventSelectorsCommand, { TrailName: ORG }).resolves({
          EventSelectors: [{ DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3'] }] }],
        }),
      [
        `${PREFIX.writes}${ORG} selects no write data events of every AWS::S3Express::Object (`,
        `${PREFIX.reads}${ORG} selects no read data events of every AWS::S3Express::Object (`,
      ],
    ],
    [
      'the data events of every bucket (a selector naming one)',
      (aws) =>
        aws.cloudtrail.on(GetEventSelectorsCommand, { TrailName: ORG }).resolves({
          EventSelectors: [{ DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3:::other/'] }] }],
        }),
      [`${PREFIX.writes}${ORG} selects no write`, `${PREFIX.reads}${ORG} selects no read`],
    ],
    [
      'log file validation and the KMS key',
      (aws) =>
        aws.cloudtrail.on(DescribeTrailsCommand, { trailNameList: [ORG] }).resolves({
          trailList: [{ TrailARN: ORG, IsMultiRegionTrail: true, S3BucketName: LOG_BUCKET }],
        }),
      [
        `${PREFIX.settings}${ORG}: no log file validation, no KMS key; to enable: aws cloudtrail update-trail --name ${ORG} --is-multi-region-trail --enable-log-file-validation --kms-key-id KEY`,
      ],
    ],
    [
      'the trail itself',
      (aws) => aws.cloudtrail.on(DescribeTrailsCommand, { trailNameList: [ORG] }).resolves({ trailList: [] }),
      [
        `${PREFIX.settings}no trail ${ORG} in the account's view; to enable:`,
        `${PREFIX.logging}no trail ${ORG} in the account's view`,
        `${PREFIX.immutable}no trail ${ORG} in the account's view`,
      ],
    ],
    [
      "the log bucket's access logging",
      (aws) => aws.s3.on(GetBucketLoggingCommand, { Bucket: LOG_BUCKET }).resolves({}),
      [
        `${PREFIX.logging}${LOG_BUCKET} has no server access logging; to enable: aws s3api put-bucket-logging`,
      ],
    ],
    [
      "the log bucket's Object Lock",
      (aws) =>
        aws.s3
          .on(GetObjectLockConfigurationCommand, { Bucket: LOG_BUCKET })
          .rejects(
            error(
              'ObjectLockConfigurationNotFoundError',
              'Object Lock configuration does not exist for this bucket',
            ),
          ),
      [
        `${PREFIX.immutable}cannot be read (ObjectLockConfigurationNotFoundError: Object Lock configuration does not exist for this bucket), counted as missing; to enable: give the log bucket an Object Lock default retention`,
      ],
    ],
    [
      "the log bucket's deny on deletes",
      (aws) =>
        aws.s3.on(GetBucketPolicyCommand, { Bucket: LOG_BUCKET }).resolves({
          Policy: JSON.stringify({ Statement: [{ ...DENY, Action: 's3:DeleteBucket' }] }),
        }),
      [
        `${PREFIX.immutable}${LOG_BUCKET}'s policy does not deny s3:DeleteObjectVersion, s3:BypassGovernanceRetention to every principal`,
      ],
    ],
    [
      'the log bucket, in an account the caller cannot read',
      (aws) =>
        aws.s3
          .on(GetBucketLoggingCommand, { Bucket: LOG_BUCKET })
          .rejects(error('AccessDenied', 'Access Denied')),
      [`${PREFIX.logging}cannot be read (AccessDenied: Access Denied), counted as missing; to enable:`],
    ],
  ];

  it.each(missing)('fails naming %s, and asks the rest anyway', async (_what, take, lines) => {
    const aws = organization();
    take(aws);
    const { code, out } = await preflight(aws);
    expect(code).toBe(1);
    for (const line of lines) expect(out).toContain(line);
    expect(out.match(/^FAIL/gm)).toHaveLength(lines.length);
  });

  describe('s3DataEventsRecorded', () => {
    it.each([
      [
        'every bucket, basic',
        { EventSelectors: [{ DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3'] }] }] },
        ['read', 'write'],
      ],
      [
        'one bucket, basic',
        { EventSelectors: [{ DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3:::one/'] }] }] },
        [],
      ],
      [
        'every bucket, advanced, writes only',
        {
          AdvancedEventSelectors: [
            {
              FieldSelectors: [
                { Field: 'eventCategory', Equals: ['Data'] },
                { Field: 'resources.type', Equals: ['AWS::S3::Object'] },
                { Field: 'readOnly', Equals: ['false'] },
              ],
            },
          ],
        },
        ['write'],
      ],
      [
        'some buckets, advanced',
        {
          AdvancedEventSelectors: [
            {
              FieldSelectors: [
                { Field: 'eventCategory', Equals: ['Data'] },
                { Field: 'resources.type', Equals: ['AWS::S3::Object'] },
                { Field: 'resources.ARN', StartsWith: ['arn:aws:s3:::one/'] },
              ],
            },
          ],
        },
        [],
      ],
      ['management events only', { EventSelectors: [{ IncludeManagementEvents: true }] }, []],
      [
        'directory buckets, basic (which cannot select them)',
        { EventSelectors: [{ DataResources: [{ Type: 'AWS::S3::Object', Values: ['arn:aws:s3'] }] }] },
        [],
        'AWS::S3Express::Object',
      ],
      [
        'directory buckets, advanced',
        {
          AdvancedEventSelectors: [
            {
              FieldSelectors: [
                { Field: 'eventCategory', Equals: ['Data'] },
                { Field: 'resources.type', Equals: ['AWS::S3Express::Object'] },
              ],
            },
          ],
        },
        ['read', 'write'],
        'AWS::S3Express::Object',
      ],
    ])('%s', (_what, selectors, recorded, type = 'AWS::S3::Object') => {
      expect([...s3DataEventsRecorded(selectors, type)].sort()).toEqual(recorded);
    });
  });
});
