import { awsTrailsRecording, type AwsDataEvent } from '../../src';
import { renderOf, resource } from '../access/fixtures';

/** One row per documented rule of CloudTrail's advanced event selectors. */
const SELECTORS =
  'https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_AdvancedFieldSelector.html';
const BUCKET = 'arn:aws:s3:::ckpt-bucket';
const read: AwsDataEvent = {
  resourceType: 'AWS::S3::Object',
  arn: `${BUCKET}/run-1/step-10.pt`,
  readOnly: true,
};
const write: AwsDataEvent = { ...read, readOnly: false };
const objects = (extra: object[] = []) => [
  { field: 'eventCategory', equals: ['Data'] },
  { field: 'resources.type', equals: ['AWS::S3::Object'] },
  { field: 'resources.ARN', startsWiths: [`${BUCKET}/`] },
  ...extra,
];

const rows: {
  rule: string;
  selectors: object[][];
  trail?: object;
  event: AwsDataEvent;
  recorded: boolean;
}[] = [
  { rule: 'no readOnly field: reads are recorded', selectors: [objects()], event: read, recorded: true },
  { rule: 'no readOnly field: writes are recorded', selectors: [objects()], event: write, recorded: true },
  {
    rule: 'readOnly Equals true: writes are not',
    selectors: [objects([{ field: 'readOnly', equals: ['true'] }])],
    event: write,
    recorded: false,
  },
  {
    rule: 'StartsWith the bucket ARN with its slash: another bucket whose name extends it is not',
    selectors: [objects()],
    event: { ...read, arn: 'arn:aws:s3:::ckpt-bucket-2/x' },
    recorded: false,
  },
  {
    rule: 'resources.type must match: a directory bucket object is AWS::S3Express::Object',
    selectors: [objects()],
    event: { ...read, resourceType: 'AWS::S3Express::Object' },
    recorded: false,
  },
  {
    rule: 'NotStartsWith excludes a prefix',
    selectors: [objects([{ field: 'resources.ARN', notStartsWiths: [`${BUCKET}/run-1/`] }])],
    event: read,
    recorded: false,
  },
  {
    rule: 'selectors are ORed: a second selector can record what the first does not',
    selectors: [
      objects([{ field: 'readOnly', equals: ['true'] }]),
      objects([{ field: 'readOnly', equals: ['false'] }]),
    ],
    event: write,
    recorded: true,
  },
  {
    rule: 'a trail that is not logging records nothing (StopLogging)',
    selectors: [objects()],
    trail: { enableLogging: false },
    event: read,
    recorded: false,
  },
];

describe('CloudTrail data events (advanced event selectors)', () => {
  it.each(rows.map((row) => [row.rule, row] as const))('%s', (_rule, row) => {
    const render = renderOf({ type: 'checkpoints:aws:StackAudit' }, [
      resource('aws:cloudtrail/trail:Trail', 'trail', {
        name: 'stack-trail',
        advancedEventSelectors: row.selectors.map((fieldSelectors) => ({ fieldSelectors })),
        ...row.trail,
      }),
    ]);
    expect([SELECTORS, awsTrailsRecording(render.resources, row.event)]).toEqual([
      SELECTORS,
      row.recorded ? ['stack-trail'] : [],
    ]);
  });
});
