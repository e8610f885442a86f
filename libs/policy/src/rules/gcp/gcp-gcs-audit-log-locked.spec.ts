import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { withBootstrapRender, type BootstrapFile } from '../../../testing/access';
import { gcpGcsAuditLogLocked } from './gcp-gcs-audit-log-locked';

const PROJECT = 'ml-platform-prod-7310';
const STORE = 'urn:pulumi:test::spec::checkpoints:gcp:CheckpointStore::llm-pretrain';
const LOG_BUCKET = `${PROJECT}-data-access-audit`;

function store(environment = 'prod'): ResourceUnderTest[] {
  return [
    {
      type: 'checkpoints:gcp:CheckpointStore',
      name: 'llm-pretrain',
      props: { tier: 'standard', audit: { enabled: true, project: PROJECT } },
    },
    {
      type: 'gcp:storage/bucket:Bucket',
      name: 'llm-pretrain-bucket',
      parent: STORE,
      props: { name: 'ckpt', labels: { environment } },
    },
  ];
}

const resource = (type: string, name: string, inputs: Record<string, unknown>) => ({
  urn: `urn:pulumi:ci::checkpoints-bootstrap::${type}::${name}`,
  type,
  name,
  custom: true,
  parent: null,
  protect: true,
  retainOnDelete: true,
  dependsOn: [],
  inputs,
});

/** The bootstrap's sink of the project's Data Access log and its bucket, whose retention policy is `retention`. */
function bootstrapOf(
  retention: Record<string, unknown> | undefined,
  filter = `logName="projects/${PROJECT}/logs/cloudaudit.googleapis.com%2Fdata_access"`,
) {
  return withBootstrapRender({
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: [
      resource('gcp:storage/bucket:Bucket', `audit-log-${PROJECT}`, {
        project: PROJECT,
        name: LOG_BUCKET,
        ...(retention ? { retentionPolicy: retention } : {}),
      }),
      resource('gcp:logging/projectSink:ProjectSink', `data-access-audit-${PROJECT}`, {
        project: PROJECT,
        destination: `storage.googleapis.com/${LOG_BUCKET}`,
        filter,
      }),
    ],
  });
}

describe('gcp-gcs-audit-log-locked', () => {
  let bootstrap: BootstrapFile | undefined;
  afterEach(() => bootstrap?.remove());

  it("passes a prod store whose project's Data Access log goes into a bucket with a locked year", async () => {
    bootstrap = bootstrapOf({ retentionPeriod: '31536000', isLocked: true });
    expect(await violationsOf(gcpGcsAuditLogLocked, store(), {}, bootstrap.path)).toEqual([]);
  });

  it('flags an unlocked log bucket, and a project whose Data Access log no sink routes', async () => {
    bootstrap = bootstrapOf({ retentionPeriod: '31536000', isLocked: false });
    expect(await violationsOf(gcpGcsAuditLogLocked, store(), {}, bootstrap.path)).toEqual([
      `store llm-pretrain: the Data Access sink of ${PROJECT} writes into no bucket with a locked retention policy (CIS GCP 2.3)`,
    ]);
    bootstrap.remove();
    bootstrap = bootstrapOf({ retentionPeriod: '31536000', isLocked: true }, 'severity>=ERROR');
    expect(await violationsOf(gcpGcsAuditLogLocked, store(), {}, bootstrap.path)).toEqual([
      `store llm-pretrain: no log sink routes the Data Access log of ${PROJECT} (CIS GCP 2.3)`,
    ]);
  });

  it('fails closed without the bootstrap render, and accepts an unlocked bucket outside prod', async () => {
    expect(await violationsOf(gcpGcsAuditLogLocked, store())).toEqual([
      'store llm-pretrain: the bootstrap render was not given (synth --bootstrap): not judged, counted as failed (CIS GCP 2.3)',
    ]);
    bootstrap = bootstrapOf({ retentionPeriod: '31536000', isLocked: false });
    expect(await violationsOf(gcpGcsAuditLogLocked, store('dev'), {}, bootstrap.path)).toEqual([]);
  });
});
