import { stackRule } from '../define';
import { plain, shown } from '../inputs';
import { gcpStoresOf } from './store-resources';
import { GCS_BUCKET } from './tokens';

/** A range that admits every address: a filter listing it filters nothing. */
const EVERY_ADDRESS = new Set(['0.0.0.0/0', '::/0']);

interface IpFilter {
  mode?: unknown;
  allowAllServiceAgentAccess?: unknown;
  publicNetworkSource?: { allowedIpCidrRanges?: unknown };
  vpcNetworkSources?: unknown;
}

/** What is wrong with a prod bucket's IP filter, by the documented semantics (libs/analysis gcsIpFilterVerdict). */
export function ipFilterProblems(ipFilter: unknown): string[] {
  const filter = (plain(ipFilter) ?? undefined) as IpFilter | undefined;
  if (filter === undefined) return ['has no ipFilter: every network may reach it'];
  if (filter.mode !== 'Enabled') return [`ipFilter.mode is ${shown(filter.mode)}; expected "Enabled"`];
  const problems: string[] = [];
  const ranges = filter.publicNetworkSource?.allowedIpCidrRanges;
  const publicRanges = Array.isArray(ranges) ? ranges : [];
  const networks = Array.isArray(filter.vpcNetworkSources) ? filter.vpcNetworkSources : [];
  if (publicRanges.length === 0 && networks.length === 0) {
    problems.push('ipFilter admits no network: list VPC networks or public ranges');
  }
  const open = publicRanges.filter((range) => EVERY_ADDRESS.has(String(range)));
  if (open.length > 0) {
    problems.push(`ipFilter.publicNetworkSource admits the whole internet (${open.join(', ')})`);
  }
  if (filter.allowAllServiceAgentAccess === true) {
    problems.push(
      'ipFilter.allowAllServiceAgentAccess is true: every Google service agent passes the filter',
    );
  }
  return problems;
}

export const gcpGcsIpFilter = stackRule({
  name: 'gcp-gcs-ip-filter',
  description:
    'In prod, every store bucket has an IP filter in mode Enabled that admits only declared networks: at least one VPC network or public range, no 0.0.0.0/0 or ::/0, allowAllServiceAgentAccess not true; a store whose spec says network: { public: true } is exempt',
  source:
    'Google Cloud: Cloud Storage bucket IP filtering (https://cloud.google.com/storage/docs/ip-filtering-overview); Checkpoint security baseline (perimeter: IP filtering); Checkpoint security baseline (in prod a store declares its network or says public: true)',
  validate: (args, report) => {
    for (const store of gcpStoresOf(args)) {
      const network = store.inputs['network'] as { public?: unknown } | undefined;
      if (network?.public === true) continue;
      for (const bucket of store.children.filter((resource) => resource.type === GCS_BUCKET)) {
        const labels = plain(bucket.props['labels']) as Record<string, unknown> | undefined;
        if (labels?.['environment'] !== 'prod') continue;
        for (const problem of ipFilterProblems(bucket.props['ipFilter'])) {
          report(`store ${store.name}: bucket ${bucket.name} ${problem}`, bucket.urn);
        }
      }
    }
  },
});
