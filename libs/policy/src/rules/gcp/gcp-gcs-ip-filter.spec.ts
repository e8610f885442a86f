import { standardTagSet, violationsOf, type ResourceUnderTest } from '../../../testing';
import { gcpGcsIpFilter } from './gcp-gcs-ip-filter';

const COMPONENT = 'checkpoints:gcp:CheckpointStore';
const PARENT = `urn:pulumi:test::spec::${COMPONENT}::llm-pretrain`;
const TRAINING = 'projects/ml-platform-prod-7310/global/networks/training';
const FILTER = {
  mode: 'Enabled',
  allowAllServiceAgentAccess: false,
  allowCrossOrgVpcs: false,
  vpcNetworkSources: [{ network: TRAINING, allowedIpCidrRanges: ['0.0.0.0/0', '::/0'] }],
};

function store(
  ipFilter: unknown,
  { environment = 'prod', network = { networks: [TRAINING] } as unknown } = {},
): ResourceUnderTest[] {
  return [
    { type: COMPONENT, name: 'llm-pretrain', props: { tier: 'standard', network } },
    {
      type: 'gcp:storage/bucket:Bucket',
      name: 'llm-pretrain-bucket',
      parent: PARENT,
      props: {
        name: 'ckpt',
        labels: standardTagSet(environment),
        ...(ipFilter === undefined ? {} : { ipFilter }),
      },
    },
  ];
}

describe('gcp-gcs-ip-filter', () => {
  it('passes a prod bucket that admits its listed network, one declared public, and any dev bucket', async () => {
    expect(await violationsOf(gcpGcsIpFilter, store(FILTER))).toEqual([]);
    expect(
      await violationsOf(gcpGcsIpFilter, store({ mode: 'Disabled' }, { network: { public: true } })),
    ).toEqual([]);
    expect(
      await violationsOf(gcpGcsIpFilter, store(undefined, { environment: 'dev', network: undefined })),
    ).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['no filter', undefined, 'has no ipFilter: every network may reach it'],
    ['a disabled filter', { ...FILTER, mode: 'Disabled' }, 'ipFilter.mode is "Disabled"; expected "Enabled"'],
    [
      'a filter admitting the whole internet',
      { ...FILTER, publicNetworkSource: { allowedIpCidrRanges: ['0.0.0.0/0'] } },
      'ipFilter.publicNetworkSource admits the whole internet (0.0.0.0/0)',
    ],
    [
      'a filter that lets every service agent through',
      { ...FILTER, allowAllServiceAgentAccess: true },
      'ipFilter.allowAllServiceAgentAccess is true: every Google service agent passes the filter',
    ],
    [
      'a filter with no source',
      { mode: 'Enabled', allowAllServiceAgentAccess: false },
      'ipFilter admits no network: list VPC networks or public ranges',
    ],
  ])('flags a prod bucket with %s', async (_title, ipFilter, problem) => {
    expect(await violationsOf(gcpGcsIpFilter, store(ipFilter))).toEqual([
      `store llm-pretrain: bucket llm-pretrain-bucket ${problem}`,
    ]);
  });
});
