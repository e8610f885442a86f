import type { RenderedResource, RenderedStore } from '@checkpoints/render';
import type { AccessGrant } from '../access/model';
import { stringInput } from '../access/model';
import { GCP_CONTROLS as C } from './controls';
import {
  fail,
  notApplicable,
  pass,
  accountLevel,
  type Check,
  type CloudCompliance,
  type ComplianceException,
  type Finding,
  outsideProd,
} from './model';

/** What the GCP checks judge one store by. */
export interface GcpSubject {
  store: RenderedStore;
  component: RenderedResource;
  environment: string;
  bucket: RenderedResource | undefined;
  key: RenderedResource | undefined;
  /** The bootstrap render (the project's audit config and log sink live there); undefined when not given. */
  bootstrap: readonly RenderedResource[] | undefined;
  grants: readonly AccessGrant[];
}

const TYPES = {
  bucket: 'gcp:storage/bucket:Bucket',
  key: 'gcp:kms/cryptoKey:CryptoKey',
  keyMember: 'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember',
  bucketMember: 'gcp:storage/bucketIAMMember:BucketIAMMember',
  auditConfig: 'gcp:projects/iAMAuditConfig:IAMAuditConfig',
  sink: 'gcp:logging/projectSink:ProjectSink',
} as const;

/** IAM's public principals (https://cloud.google.com/iam/docs/principals-overview#all-users). */
const PUBLIC_MEMBERS = ['allUsers', 'allAuthenticatedUsers'];

const NO_BOOTSTRAP = 'the bootstrap render was not given (synth --bootstrap): not judged, counted as failed';

/** 90 days, CIS GCP 1.10's longest rotation period. */
const MAX_ROTATION_SECONDS = 90 * 24 * 3600;

function projectOf(subject: GcpSubject): string | undefined {
  const audit = subject.component.inputs['audit'] as { project?: unknown } | undefined;
  return typeof audit?.project === 'string' ? audit.project : undefined;
}

function auditConfigured(subject: GcpSubject): Finding {
  const audit = subject.component.inputs['audit'] as { enabled?: unknown } | undefined;
  if (audit?.enabled !== true) return fail('the store is not audited');
  if (!subject.bootstrap) return fail(NO_BOOTSTRAP);
  const project = projectOf(subject);
  const types = subject.bootstrap
    .filter(
      (resource) =>
        resource.type === TYPES.auditConfig &&
        resource.inputs['project'] === project &&
        ['storage.googleapis.com', 'allServices'].includes(String(resource.inputs['service'])),
    )
    .flatMap((config) => (config.inputs['auditLogConfigs'] as { logType?: string }[] | undefined) ?? [])
    .map((config) => config.logType);
  const missing = ['DATA_READ', 'DATA_WRITE'].filter((type) => !types.includes(type));
  return missing.length === 0
    ? pass(`the bootstrap's audit config of ${String(project)} records DATA_READ and DATA_WRITE`)
    : fail(`project ${String(project)} records no ${missing.join(' or ')} for Cloud Storage`);
}

/** The sink of the project's Data Access log, and the bucket it writes into, in the bootstrap render. */
function lockedSink(subject: GcpSubject): Finding {
  if (!subject.bootstrap) return fail(NO_BOOTSTRAP);
  const project = projectOf(subject);
  const sinks = subject.bootstrap.filter(
    (resource) =>
      resource.type === TYPES.sink &&
      resource.inputs['project'] === project &&
      String(resource.inputs['filter'] ?? '').includes('data_access'),
  );
  if (sinks.length === 0) return fail(`no log sink routes the Data Access log of ${String(project)}`);
  for (const sink of sinks) {
    const destination = stringInput(sink, 'destination') ?? '';
    const name = /^storage\.googleapis\.com\/(.+)$/.exec(destination)?.[1];
    const bucket = subject.bootstrap.find(
      (resource) => resource.type === TYPES.bucket && resource.inputs['name'] === name,
    );
    const retention = bucket?.inputs['retentionPolicy'] as
      { isLocked?: boolean; retentionPeriod?: number | string } | undefined;
    if (retention?.isLocked === true && Number(retention.retentionPeriod) > 0) {
      return pass(
        `sink ${sink.name} writes into ${String(name)}, whose retention policy (${Number(retention.retentionPeriod) / 86400} d) is locked`,
      );
    }
  }
  return fail(
    `the Data Access sink of ${String(project)} writes into no bucket with a locked retention policy`,
  );
}

const CHECKS: readonly Check<GcpSubject>[] = [
  {
    controls: [C.cis51],
    field:
      'gcp:storage/bucket:Bucket publicAccessPrevention; access analysis (no allUsers/allAuthenticatedUsers grant)',
    rule: 'gcp-gcs-public-access-prevention',
    judge: (subject: GcpSubject): Finding => {
      if (subject.bucket?.inputs['publicAccessPrevention'] !== 'enforced') {
        return fail(
          `publicAccessPrevention ${String(subject.bucket?.inputs['publicAccessPrevention'] ?? 'not set')}`,
        );
      }
      const open = subject.grants.filter((grant) => PUBLIC_MEMBERS.includes(grant.principal.id));
      return open.length === 0
        ? pass('public access prevention enforced; no public principal holds a grant')
        : fail(`${open[0]?.principal.id ?? ''} can ${open[0]?.operation ?? ''}`);
    },
  },
  {
    controls: [C.cis52],
    field: 'gcp:storage/bucket:Bucket uniformBucketLevelAccess',
    rule: 'gcp-gcs-uniform-bucket-level-access',
    judge: (subject: GcpSubject): Finding =>
      subject.bucket?.inputs['uniformBucketLevelAccess'] === true
        ? pass('uniform bucket-level access on')
        : fail('uniform bucket-level access off'),
  },
  {
    controls: [C.cis19],
    field: `${TYPES.keyMember} member`,
    rule: 'gcp-iam-no-public-members',
    judge: (subject: GcpSubject): Finding => {
      if (!subject.key) return notApplicable('the store has no customer managed key');
      const open = subject.store.resources.filter(
        (resource) =>
          resource.type === TYPES.keyMember && PUBLIC_MEMBERS.includes(String(resource.inputs['member'])),
      );
      return open.length === 0
        ? pass('no public member on the key')
        : fail(`${String(open[0]?.inputs['member'])} holds ${String(open[0]?.inputs['role'])}`);
    },
  },
  {
    controls: [C.cis110],
    field: `${TYPES.key} rotationPeriod`,
    rule: 'gcp-kms-key-rotation',
    judge: (subject: GcpSubject): Finding => {
      if (!subject.key) return notApplicable('the store has no customer managed key');
      const period = Number.parseInt(String(subject.key.inputs['rotationPeriod'] ?? ''), 10);
      return Number.isFinite(period) && period <= MAX_ROTATION_SECONDS
        ? pass(`rotated every ${period / 86400} d`)
        : fail(`rotation period ${String(subject.key.inputs['rotationPeriod'] ?? 'not set')}`);
    },
  },
  {
    controls: [C.cis21],
    field: `${TYPES.auditConfig} auditLogConfigs (bootstrap render)`,
    rule: 'gcp-gcs-data-access-audit',
    judge: auditConfigured,
  },
  accountLevel<GcpSubject>(
    [C.cis22],
    'the organization log sink (organization)',
    "a sink of every log entry (no filter) is the organization's aggregated sink, not a stack's",
    'gcloud logging sinks list --organization=ORG lists a sink with no filter and includeChildren true',
  ),
  {
    controls: [C.cis23],
    field: `${TYPES.sink} destination and its bucket's retentionPolicy.isLocked (bootstrap render)`,
    rule: 'gcp-gcs-audit-log-locked',
    judge: lockedSink,
  },
  accountLevel<GcpSubject>(
    [C.malwareScan],
    'Security Command Center (organization)',
    'Security Command Center is activated at the organization; no stack or bootstrap project can enable it',
    'Security Command Center (Premium or Enterprise tier) is active for the organization with Event Threat Detection on for the stack project (gcloud scc manage services describe event-threat-detection --project=PROJECT reports ENABLED)',
  ),
  {
    controls: [C.releasesReplicated],
    field: 'gcp:storage/bucket:Bucket customPlacementConfig.dataLocations (dual-region)',
    rule: 'releases-replicated-in-prod',
    judge: (subject: GcpSubject): Finding => {
      if (subject.bucket?.inputs['retentionPolicy'] === undefined) {
        return notApplicable('not a store of released checkpoints (no retention lock)');
      }
      if (outsideProd(subject.environment)) return notApplicable('not a prod store');
      const locations = (
        subject.bucket.inputs['customPlacementConfig'] as { dataLocations?: string[] } | undefined
      )?.dataLocations;
      return (locations?.length ?? 0) >= 2
        ? pass(`a dual-region bucket (${(locations ?? []).join(' + ')})`)
        : fail('a prod store of released checkpoints in one region');
    },
  },
];

const EXCEPTIONS: readonly ComplianceException<GcpSubject>[] = [
  {
    controls: [C.cis21],
    when: 'a store with audit: false',
    reason:
      'the store spec turns audit off (audit: false, allowed only outside prod for public and internal data)',
    applies: (subject) =>
      (subject.component.inputs['audit'] as { enabled?: unknown } | undefined)?.enabled !== true,
  },
  {
    controls: [C.cis23],
    when: 'a project outside prod',
    reason:
      "a locked retention policy can never be shortened or removed, so the dev project's log bucket keeps its retention unlocked (a dev project must remain removable)",
    applies: (subject) => outsideProd(subject.environment),
  },
];

export const GCP_COMPLIANCE: CloudCompliance<GcpSubject> = { checks: CHECKS, exceptions: EXCEPTIONS };

export function gcpSubjectOf(
  store: RenderedStore,
  resources: readonly RenderedResource[],
  environment: string,
  grants: readonly AccessGrant[],
  bootstrap: readonly RenderedResource[] | undefined,
): GcpSubject {
  return {
    store,
    component: resources.find((resource) => resource.urn === store.urn)!,
    environment,
    bucket: store.resources.find((resource) => resource.type === TYPES.bucket),
    key: store.resources.find((resource) => resource.type === TYPES.key),
    bootstrap,
    grants,
  };
}
