import type { Cloud } from '@checkpoints/config';
import type { RenderedResource, RenderedStore } from '@checkpoints/render';
import { awsTrailsRecording } from '../audit/aws';
import { simulateStore, statementOf, type StoreRetention } from '../retention';
import { awsIndependentCopyOf } from '../retention/aws-copy';
import type { ResourceChange, Weakening, WeakenedAspect } from './model';

/** A store of the new render with the store it was in the previous one. */
export interface StorePair {
  name: string;
  base: RenderedStore;
  next: RenderedStore;
  baseResources: readonly RenderedResource[];
  nextResources: readonly RenderedResource[];
  /** The store's resource changes (to name the settings behind a weakening). */
  changes: readonly ResourceChange[];
}

type Finding = Omit<Weakening, 'store' | 'settings' | 'message' | 'acknowledgement'> & {
  settings?: string[];
};

/**
 * Everything an in-place change makes weaker in one store: the retention figures of the two renders replayed
 * by the retention model (the same replay that judges the promises), the audit each render's own trail or
 * diagnostic settings give, and the perimeter each render's settings draw.
 */
export function weakeningOf(pair: StorePair): Weakening[] {
  const findings = [
    ...retentionWeakening(pair),
    ...copyWeakening(pair),
    ...auditWeakening(pair),
    ...networkWeakening(pair),
  ];
  const changed = changedSettings(pair.changes);
  const acknowledgement = acknowledgementOf(pair);
  return findings.map((finding) => {
    const settings = finding.settings ?? changed;
    const figures =
      finding.unit === 'days'
        ? `${shownDays(finding.before)} -> ${shownDays(finding.after)} days`
        : `${String(finding.before)} -> ${String(finding.after)}`;
    const weakening: Weakening = {
      store: pair.name,
      aspect: finding.aspect,
      what: finding.what,
      before: finding.before,
      after: finding.after,
      settings,
      message: `store ${pair.name}: ${finding.what} ${figures}${settings.length > 0 ? ` (${settings.join(', ')})` : ''}`,
    };
    if (finding.unit) weakening.unit = finding.unit;
    if (acknowledgement) weakening.acknowledgement = acknowledgement;
    return weakening;
  });
}

/**
 * The store's `acknowledge.weakening` when this change brings it (new, or another text than the previous
 * render's): a reason left in the config from an earlier deploy acknowledged that deploy, not this one.
 */
function acknowledgementOf(pair: StorePair): string | undefined {
  const reason = (component: RenderedStore, resources: readonly RenderedResource[]) => {
    const inputs = resources.find((resource) => resource.urn === component.urn)?.inputs ?? {};
    const value = (inputs['acknowledge'] as { weakening?: unknown } | undefined)?.weakening;
    return typeof value === 'string' ? value : undefined;
  };
  const now = reason(pair.next, pair.nextResources);
  return now !== undefined && now !== reason(pair.base, pair.baseResources) ? now : undefined;
}

function changedSettings(changes: readonly ResourceChange[]): string[] {
  return changes
    .filter((change) => change.holds !== undefined && change.kind !== 'unchanged')
    .map((change) =>
      change.kind === 'updated'
        ? `${change.name} ${change.changedInputs.join(', ')}`
        : `${change.name} ${change.kind}`,
    );
}

function retentionOfStore(store: RenderedStore, resources: readonly RenderedResource[]): StoreRetention {
  const component = resources.find((resource) => resource.urn === store.urn);
  return simulateStore(store, statementOf(component), component?.inputs ?? {});
}

/** Days as the replay gives them; null (never purged, or refused by the lock) is longer than any number. */
function asDays(days: number | null): number {
  return days === null ? Infinity : days;
}

function shownDays(days: number | string | null): string {
  return days === null ? 'never' : String(days);
}

/**
 * The replay's figures before and after: a recovery window, the purge bound and the lock are weaker when
 * shorter; live data when lifecycle deletes it at a younger age (null: never).
 */
function retentionWeakening(pair: StorePair): Finding[] {
  const before = retentionOfStore(pair.base, pair.baseResources);
  const after = retentionOfStore(pair.next, pair.nextResources);
  const figures: {
    aspect: WeakenedAspect;
    what: string;
    of: (retention: StoreRetention) => number | null;
  }[] = [
    {
      aspect: 'recovery',
      what: 'recovery window of a deleted checkpoint',
      of: (retention) => retention.deleteRecoveryDays,
    },
    {
      aspect: 'recovery',
      what: 'recovery window of an overwritten checkpoint',
      of: (retention) => retention.overwriteRecoveryDays,
    },
    { aspect: 'purge', what: 'purge bound', of: (retention) => retention.purgeWithinDays },
    { aspect: 'lock', what: 'retention lock', of: (retention) => retention.lock?.days ?? 0 },
    {
      aspect: 'live-data',
      what: 'age at which lifecycle deletes a live checkpoint',
      of: (retention) => retention.expiresAfterDays,
    },
  ];
  return figures.flatMap(({ aspect, what, of }) => {
    const [was, is] = [of(before), of(after)];
    return asDays(is) < asDays(was) ? [{ aspect, what, before: was, after: is, unit: 'days' as const }] : [];
  });
}

/**
 * The days the store's independent copy keeps a deleted checkpoint, as each render states them (0: no copy): on AWS
 * the rendered backup plan (../retention/aws-copy); on GCP and Azure, whose copies are the bootstrap's, out of the
 * stack's render, the days the store's spec promises, which the copy models hold the bootstrap's copy to. Shorter,
 * or the copy gone, is a shorter recovery window outside CI's reach.
 */
function copyWeakening(pair: StorePair): Finding[] {
  const days = (store: RenderedStore, resources: readonly RenderedResource[]) => {
    if (store.cloud !== 'aws') {
      return statementOf(resources.find((resource) => resource.urn === store.urn))?.copyDays ?? 0;
    }
    const bucket = awsBucketArn(store, resources);
    const own = resources.filter((resource) => resource.parent === store.urn);
    return (bucket && awsIndependentCopyOf(own, { arn: bucket, region: undefined }, [])?.retentionDays) ?? 0;
  };
  const [was, is] = [days(pair.base, pair.baseResources), days(pair.next, pair.nextResources)];
  if (is >= was) return [];
  return [
    {
      aspect: 'recovery',
      what: 'recovery window of the independent copy',
      before: was,
      after: is,
      unit: 'days',
    },
  ];
}

function auditWeakening(pair: StorePair): Finding[] {
  if (pair.next.cloud === 'aws') return awsAuditWeakening(pair);
  if (pair.next.cloud === 'gcp') return gcpAuditWeakening(pair);
  return azureAuditWeakening(pair);
}

/**
 * The store's data events that no trail records any more, judged by CloudTrail's selector semantics
 * (`awsTrailsRecording`) over each render's trails, for the store's bucket as each render names it.
 */
function awsAuditWeakening(pair: StorePair): Finding[] {
  const recorded = (store: RenderedStore, resources: readonly RenderedResource[]) => {
    const arn = awsBucketArn(store, resources);
    if (arn === undefined) return new Set<string>();
    const directory = arn.startsWith('arn:aws:s3express:');
    const trails = resources.filter((resource) => resource.type === 'aws:cloudtrail/trail:Trail');
    const kinds = [
      { kind: 'reads', readOnly: true },
      { kind: 'writes', readOnly: false },
    ].filter(
      ({ readOnly }) =>
        awsTrailsRecording(trails, {
          resourceType: directory ? 'AWS::S3Express::Object' : 'AWS::S3::Object',
          arn: `${arn}/any/checkpoint.pt`,
          readOnly,
        }).length > 0,
    );
    return new Set(kinds.map(({ kind }) => kind));
  };
  const before = recorded(pair.base, pair.baseResources);
  const after = recorded(pair.next, pair.nextResources);
  const lost = [...before].filter((kind) => !after.has(kind));
  if (lost.length === 0) return [];
  const trails = pair.nextResources
    .filter((resource) => resource.type === 'aws:cloudtrail/trail:Trail')
    .map((trail) => `${trail.name} advancedEventSelectors`);
  return [
    {
      aspect: 'audit',
      what: `CloudTrail data events (${lost.join(' and ')} of its objects)`,
      before: 'recorded',
      after: 'not recorded',
      settings: trails.length > 0 ? trails : ['the trail removed'],
    },
  ];
}

/** The ARN of the store's bucket: `arn:aws:s3:::NAME`, or a directory bucket's `arn:aws:s3express:...`. */
function awsBucketArn(store: RenderedStore, resources: readonly RenderedResource[]): string | undefined {
  const own = store.resources;
  const bucket = own.find(
    (resource) => resource.type === 'aws:s3/bucket:Bucket' && resource.inputs['region'] === undefined,
  );
  if (bucket) return `arn:aws:s3:::${String(bucket.inputs['bucket'] ?? bucket.name)}`;
  const directory = own.find((resource) => resource.type === 'aws:s3/directoryBucket:DirectoryBucket');
  if (!directory) return undefined;
  // A directory bucket's ARN names its region and account, which the trail's own selectors state.
  const name = String(directory.inputs['bucket'] ?? directory.name);
  const prefix = JSON.stringify(
    resources.filter((r) => r.type === 'aws:cloudtrail/trail:Trail').map((r) => r.inputs),
  ).match(new RegExp(`arn:aws[a-z-]*:s3express:[a-z0-9-]+:\\d{12}:bucket/${escapeRegExp(name)}`))?.[0];
  return prefix ?? `arn:aws:s3express:unknown:000000000000:bucket/${name}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * GCP's Data Access audit config is the bootstrap's (an IAM audit config of the project): the stack states which
 * stores it must record and whom it exempts, in the store component's `audit` input, which the
 * `gcp-gcs-data-access-audit` rule holds the bootstrap to.
 */
function gcpAuditWeakening(pair: StorePair): Finding[] {
  const audit = (store: RenderedStore, resources: readonly RenderedResource[]) => {
    const inputs = resources.find((resource) => resource.urn === store.urn)?.inputs ?? {};
    const value = (inputs['audit'] ?? {}) as { enabled?: unknown; exemptMembers?: unknown };
    return {
      enabled: value.enabled === true,
      exempt: Array.isArray(value.exemptMembers) ? value.exemptMembers.map(String) : [],
    };
  };
  const before = audit(pair.base, pair.baseResources);
  const after = audit(pair.next, pair.nextResources);
  const findings: Finding[] = [];
  if (before.enabled && !after.enabled) {
    findings.push({
      aspect: 'audit',
      what: 'Data Access audit logs (DATA_READ, DATA_WRITE)',
      before: 'recorded',
      after: 'not recorded',
      settings: [`${pair.name} audit`],
    });
  } else if (after.enabled) {
    const added = after.exempt.filter((member) => !before.exempt.includes(member));
    if (added.length > 0) {
      findings.push({
        aspect: 'audit',
        what: 'members exempt from the Data Access audit logs',
        before: before.exempt.length === 0 ? 'none' : before.exempt.join(', '),
        after: after.exempt.join(', '),
        settings: ['checkpoints:auditExemptMembers'],
      });
    }
  }
  return findings;
}

/** The log categories each diagnostic setting of the store sends, by the resource it watches. */
function azureAuditWeakening(pair: StorePair): Finding[] {
  const categories = (store: RenderedStore) => {
    const sent = new Map<string, { setting: string; categories: Set<string> }>();
    for (const setting of store.resources.filter(
      (r) => r.type === 'azure-native:monitor:DiagnosticSetting',
    )) {
      const target = String(setting.inputs['resourceUri'] ?? setting.name).toLowerCase();
      const logs = Array.isArray(setting.inputs['logs'])
        ? (setting.inputs['logs'] as Record<string, unknown>[])
        : [];
      const enabled = logs
        .filter((log) => log['enabled'] !== false)
        .map((log) => String(log['category'] ?? log['categoryGroup']));
      const entry = sent.get(target) ?? { setting: setting.name, categories: new Set<string>() };
      for (const category of enabled) entry.categories.add(category);
      sent.set(target, entry);
    }
    return sent;
  };
  const before = categories(pair.base);
  const after = categories(pair.next);
  return [...before].flatMap(([target, { setting, categories: was }]): Finding[] => {
    const now = after.get(target)?.categories ?? new Set<string>();
    const lost = [...was].filter((category) => !now.has(category));
    if (lost.length === 0) return [];
    return [
      {
        aspect: 'audit',
        what: `diagnostic logs ${lost.join(', ')} of ${target.split('/').slice(-3).join('/')}`,
        before: 'sent',
        after: 'not sent',
        settings: [`${setting} ${after.has(target) ? 'logs' : 'removed'}`],
      },
    ];
  });
}

/** Who may reach the store over the network, as each cloud's settings draw the perimeter. */
interface Perimeter {
  /** False when the settings let every network reach the store. */
  closed: boolean;
  /** What is let in (endpoints, networks, address ranges), each as one entry. */
  allowed: Set<string>;
  /** The settings that draw it. */
  settings: string[];
}

function networkWeakening(pair: StorePair): Finding[] {
  const before = perimeterOf(pair.next.cloud, pair.base);
  const after = perimeterOf(pair.next.cloud, pair.next);
  if (!before.closed) return [];
  const settings = after.settings.length > 0 ? after.settings : before.settings;
  if (!after.closed) {
    return [
      {
        aspect: 'network',
        what: 'network perimeter',
        before: describe(before),
        after: 'open to every network',
        settings,
      },
    ];
  }
  const findings: Finding[] = [];
  const endpoints = (perimeter: Perimeter) =>
    [...perimeter.allowed].filter((entry) => entry.startsWith(ENDPOINT));
  const removed = endpoints(before).filter((entry) => !after.allowed.has(entry));
  if (removed.length > 0) {
    findings.push({
      aspect: 'network',
      what: 'private endpoints',
      before: endpoints(before)
        .map((entry) => entry.slice(ENDPOINT.length))
        .join(', '),
      after:
        endpoints(after)
          .map((entry) => entry.slice(ENDPOINT.length))
          .join(', ') || 'none',
      settings: removed.map((entry) => `${entry.slice(ENDPOINT.length)} removed`),
    });
  }
  const added = [...after.allowed].filter(
    (entry) => !entry.startsWith(ENDPOINT) && !before.allowed.has(entry),
  );
  if (added.length > 0) {
    findings.push({
      aspect: 'network',
      what: 'network perimeter',
      before: describe(before),
      after: describe(after),
      settings,
    });
  }
  return findings;
}

const ENDPOINT = 'private endpoint ';

function describe(perimeter: Perimeter): string {
  const entries = [...perimeter.allowed].filter((entry) => !entry.startsWith(ENDPOINT)).sort();
  if (entries.length > 0) return entries.join(', ');
  const endpoints = [...perimeter.allowed].filter((entry) => entry.startsWith(ENDPOINT)).sort();
  if (endpoints.length === 0) return 'no network allowed in';
  return `only its private endpoints (${endpoints.map((entry) => entry.slice(ENDPOINT.length)).join(', ')})`;
}

function perimeterOf(cloud: Cloud, store: RenderedStore): Perimeter {
  if (cloud === 'aws') return awsPerimeter(store);
  if (cloud === 'gcp') return gcpPerimeter(store);
  return azurePerimeter(store);
}

/**
 * The store bucket policy's network deny: a Deny of data calls unless `aws:SourceVpce` (or `aws:SourceVpc`,
 * `aws:SourceIp`) is one of the listed values (https://docs.aws.amazon.com/AmazonS3/latest/userguide/example-bucket-policies-vpc-endpoint.html).
 */
function awsPerimeter(store: RenderedStore): Perimeter {
  const allowed = new Set<string>();
  const settings: string[] = [];
  let closed = false;
  for (const policy of store.resources.filter(
    (r) => r.type === 'aws:s3/bucketPolicy:BucketPolicy' && r.inputs['region'] === undefined,
  )) {
    let document: { Statement?: unknown };
    try {
      document = JSON.parse(String(policy.inputs['policy'] ?? '{}')) as { Statement?: unknown };
    } catch {
      continue;
    }
    const statements = Array.isArray(document.Statement)
      ? (document.Statement as Record<string, unknown>[])
      : [];
    for (const statement of statements.filter((s) => s['Effect'] === 'Deny')) {
      const conditions = Object.values(
        (statement['Condition'] ?? {}) as Record<string, Record<string, unknown>>,
      );
      for (const condition of conditions) {
        for (const [key, value] of Object.entries(condition)) {
          if (!/^aws:(SourceVpce|SourceVpc|SourceIp)$/i.test(key)) continue;
          closed = true;
          for (const entry of Array.isArray(value) ? value : [value]) allowed.add(`${key} ${String(entry)}`);
          if (!settings.includes(`${policy.name} policy`)) settings.push(`${policy.name} policy`);
        }
      }
    }
  }
  return { closed, allowed, settings };
}

/** The bucket IP filter: `Enabled` lets in only its VPC networks and public ranges (https://cloud.google.com/storage/docs/ip-filtering-overview). */
function gcpPerimeter(store: RenderedStore): Perimeter {
  const bucket = store.resources.find((r) => r.type === 'gcp:storage/bucket:Bucket');
  const filter = (bucket?.inputs['ipFilter'] ?? {}) as Record<string, unknown>;
  const allowed = new Set<string>();
  if (filter['mode'] !== 'Enabled')
    return { closed: false, allowed, settings: bucket ? [`${bucket.name} ipFilter`] : [] };
  const networks = Array.isArray(filter['vpcNetworkSources'])
    ? (filter['vpcNetworkSources'] as Record<string, unknown>[])
    : [];
  for (const source of networks) {
    const ranges = Array.isArray(source['allowedIpCidrRanges'])
      ? source['allowedIpCidrRanges'].map(String)
      : [];
    for (const range of ranges) allowed.add(`${String(source['network'])} ${range}`);
  }
  const publicRanges = (filter['publicNetworkSource'] as { allowedIpCidrRanges?: unknown } | undefined)
    ?.allowedIpCidrRanges;
  for (const range of Array.isArray(publicRanges) ? publicRanges.map(String) : [])
    allowed.add(`public ${range}`);
  if (filter['allowAllServiceAgentAccess'] === true) allowed.add('every service agent');
  if (filter['allowCrossOrgVpcs'] === true) allowed.add('VPC networks of other organizations');
  return { closed: true, allowed, settings: [`${bucket?.name ?? 'bucket'} ipFilter`] };
}

/**
 * The account's network access: public access `Disabled`, or a network rule set that denies by default and
 * allows its subnets and addresses; private endpoints are ways in of their own, so one removed is a way in
 * that a store's jobs lose while the account's public rules must then let them in
 * (https://learn.microsoft.com/azure/storage/common/storage-network-security).
 */
function azurePerimeter(store: RenderedStore): Perimeter {
  const account = store.resources.find((r) => r.type === 'azure-native:storage:StorageAccount');
  const inputs = account?.inputs ?? {};
  const rules = (inputs['networkRuleSet'] ?? {}) as Record<string, unknown>;
  const allowed = new Set<string>();
  const name = account?.name ?? 'account';
  const publicAccess = String(inputs['publicNetworkAccess'] ?? 'Enabled');
  const endpoints = store.resources.filter((r) => r.type === 'azure-native:network:PrivateEndpoint');
  const closed = publicAccess === 'Disabled' || rules['defaultAction'] === 'Deny';
  if (publicAccess !== 'Disabled') {
    const subnets = Array.isArray(rules['virtualNetworkRules'])
      ? (rules['virtualNetworkRules'] as Record<string, unknown>[])
      : [];
    for (const rule of subnets) allowed.add(`subnet ${String(rule['virtualNetworkResourceId'])}`);
    const addresses = Array.isArray(rules['ipRules']) ? (rules['ipRules'] as Record<string, unknown>[]) : [];
    for (const rule of addresses)
      allowed.add(`address ${String(rule['iPAddressOrRange'] ?? rule['ipAddressOrRange'])}`);
    if (rules['bypass'] !== undefined && rules['bypass'] !== 'None')
      allowed.add(`bypass ${String(rules['bypass'])}`);
  }
  for (const endpoint of endpoints) allowed.add(`${ENDPOINT}${endpoint.name}`);
  return { closed, allowed, settings: [`${name} publicNetworkAccess, networkRuleSet`] };
}
