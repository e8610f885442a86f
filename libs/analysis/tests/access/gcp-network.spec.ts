import { gcsIpFilterVerdict, ipInRange, type GcsNetworkRequest } from '../../src';

const TRAINING = 'projects/ml-platform-prod-7310/global/networks/training';
const OTHER = 'projects/ml-platform-prod-7310/global/networks/sandbox';

const enabled = {
  mode: 'Enabled',
  allowAllServiceAgentAccess: false,
  allowCrossOrgVpcs: false,
  publicNetworkSource: { allowedIpCidrRanges: ['203.0.113.0/24', '2001:db8::/32'] },
  vpcNetworkSources: [{ network: TRAINING, allowedIpCidrRanges: ['10.8.0.0/16'] }],
};

const object = (
  from: GcsNetworkRequest['from'],
  extra: Partial<GcsNetworkRequest> = {},
): GcsNetworkRequest => ({
  from,
  operation: 'object',
  ...extra,
});

/**
 * One row per documented rule of bucket IP filtering:
 * https://cloud.google.com/storage/docs/ip-filtering-overview (public internet and VPC network sources),
 * https://cloud.google.com/storage/docs/bypass-ip-filter ("the following operations are exempt ... Getting a
 * bucket's metadata, Updating a bucket, Deleting a bucket" for holders of storage.buckets.exemptFromIpFilter),
 * and the field docs of @pulumi/gcp 9.37 BucketIpFilter (mode Disabled: "IP filtering rules are not applied";
 * allowCrossOrgVpcs; allowAllServiceAgentAccess).
 */
describe('bucket IP filter semantics (documented rules)', () => {
  it.each<[string, unknown, GcsNetworkRequest, boolean]>([
    ['no IP filter: every network', undefined, object({ internet: '198.51.100.7' }), true],
    [
      'mode Disabled: rules not applied',
      { ...enabled, mode: 'Disabled' },
      object({ internet: '198.51.100.7' }),
      true,
    ],
    ['internet address inside a public range', enabled, object({ internet: '203.0.113.40' }), true],
    ['internet IPv6 address inside a public range', enabled, object({ internet: '2001:db8:0:1::5' }), true],
    ['internet address outside every public range', enabled, object({ internet: '198.51.100.7' }), false],
    [
      'listed VPC network, address in its ranges',
      enabled,
      object({ network: TRAINING, ip: '10.8.3.4' }),
      true,
    ],
    [
      'listed VPC network, address outside its ranges',
      enabled,
      object({ network: TRAINING, ip: '10.9.0.1' }),
      false,
    ],
    ['VPC network not listed', enabled, object({ network: OTHER, ip: '10.8.3.4' }), false],
    [
      'a private address of a listed range but from the internet',
      enabled,
      object({ internet: '10.8.3.4' }),
      false,
    ],
    [
      'listed network of another organization, allowCrossOrgVpcs false',
      enabled,
      object({ network: TRAINING, ip: '10.8.3.4', otherOrganization: true }),
      false,
    ],
    [
      'listed network of another organization, allowCrossOrgVpcs true',
      { ...enabled, allowCrossOrgVpcs: true },
      object({ network: TRAINING, ip: '10.8.3.4', otherOrganization: true }),
      true,
    ],
    [
      'a service agent from outside, allowAllServiceAgentAccess false',
      enabled,
      object({ internet: '198.51.100.7' }, { serviceAgent: true }),
      false,
    ],
    [
      'a service agent from outside, allowAllServiceAgentAccess true',
      { ...enabled, allowAllServiceAgentAccess: true },
      object({ internet: '198.51.100.7' }, { serviceAgent: true }),
      true,
    ],
    [
      'exemptFromIpFilter: getting the bucket from outside',
      enabled,
      { from: { internet: '198.51.100.7' }, operation: 'bucket-get', exemptFromIpFilter: true },
      true,
    ],
    [
      'exemptFromIpFilter: updating the bucket from outside',
      enabled,
      { from: { internet: '198.51.100.7' }, operation: 'bucket-update', exemptFromIpFilter: true },
      true,
    ],
    [
      'exemptFromIpFilter does not cover objects',
      enabled,
      object({ internet: '198.51.100.7' }, { exemptFromIpFilter: true }),
      false,
    ],
    [
      'without the exemption, getting the bucket from outside',
      enabled,
      { from: { internet: '198.51.100.7' }, operation: 'bucket-get' },
      false,
    ],
  ])('%s -> allowed %s', (_rule, filter, request, allowed) => {
    expect(gcsIpFilterVerdict(filter, request).allowed).toBe(allowed);
  });
});

describe('ipInRange', () => {
  it.each<[string, string, boolean]>([
    ['10.8.3.4', '10.8.0.0/16', true],
    ['10.9.0.0', '10.8.0.0/16', false],
    ['0.0.0.1', '0.0.0.0/0', true],
    ['203.0.113.9', '203.0.113.9/32', true],
    ['203.0.113.10', '203.0.113.9/32', false],
    ['2001:db8::1', '2001:db8::/32', true],
    ['2001:db9::1', '2001:db8::/32', false],
    ['fd00::1', '::/0', true],
    ['10.0.0.1', '::/0', false],
    ['fd00::1', '0.0.0.0/0', false],
    ['not-an-ip', '0.0.0.0/0', false],
    ['10.0.0.256', '0.0.0.0/0', false],
  ])('%s in %s -> %s', (ip, range, inside) => {
    expect(ipInRange(ip, range)).toBe(inside);
  });
});
