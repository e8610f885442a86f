import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { NO_BOOTSTRAP } from '../access/analysis';
import { withBootstrapRender, type BootstrapFile } from '../../../testing/access';
import { gcpGcsDataAccessAudit } from './gcp-gcs-data-access-audit';

const PROJECT = 'ml-platform-prod-7310';
const WRITER = `serviceAccount:trainer@${PROJECT}.iam.gserviceaccount.com`;

function store(audit: Record<string, unknown>): ResourceUnderTest[] {
  return [
    { type: 'checkpoints:gcp:CheckpointStore', name: 'llm-pretrain', props: { tier: 'standard', audit } },
  ];
}

function auditConfig(service: string, auditLogConfigs: unknown[], project = PROJECT) {
  return {
    urn: `urn:pulumi:ci::checkpoint-storage-bootstrap::gcp:projects/iAMAuditConfig:IAMAuditConfig::${project}-${service}`,
    type: 'gcp:projects/iAMAuditConfig:IAMAuditConfig',
    name: `storage-data-access-${project}`,
    custom: true,
    parent: null,
    protect: true,
    retainOnDelete: false,
    dependsOn: [],
    inputs: { project, service, auditLogConfigs },
  };
}

/** Points the rule at a bootstrap render holding these resources, for one test. */
function withBootstrap(resources: unknown[]): BootstrapFile {
  return withBootstrapRender({
    project: 'checkpoint-storage-bootstrap',
    stack: 'ci',
    resources,
    outputs: {},
  });
}

const audited = { enabled: true, project: PROJECT, exemptMembers: [WRITER] };
const BOTH = [{ logType: 'DATA_READ' }, { logType: 'DATA_WRITE' }];

describe('gcp-gcs-data-access-audit', () => {
  let bootstrap: BootstrapFile | undefined;
  afterEach(() => {
    bootstrap?.remove();
    bootstrap = undefined;
  });

  it('passes an audited store whose project records reads and writes, exempting only declared members', async () => {
    bootstrap = withBootstrap([
      auditConfig('storage.googleapis.com', [
        { logType: 'DATA_READ', exemptedMembers: [WRITER] },
        { logType: 'DATA_WRITE', exemptedMembers: [WRITER] },
      ]),
    ]);
    expect(await violationsOf(gcpGcsDataAccessAudit, store(audited), {}, bootstrap?.path)).toEqual([]);
  });

  it('adds up allServices and the storage config, and leaves unaudited stores alone', async () => {
    bootstrap = withBootstrap([
      auditConfig('allServices', [{ logType: 'DATA_READ' }]),
      auditConfig('storage.googleapis.com', [{ logType: 'DATA_WRITE' }]),
    ]);
    expect(await violationsOf(gcpGcsDataAccessAudit, store(audited), {}, bootstrap?.path)).toEqual([]);
    bootstrap.remove();
    bootstrap = withBootstrap([]);
    expect(
      await violationsOf(gcpGcsDataAccessAudit, store({ ...audited, enabled: false }), {}, bootstrap?.path),
    ).toEqual([]);
  });

  it('fails closed without a bootstrap render: it says the audit configs were not judged', async () => {
    expect(await violationsOf(gcpGcsDataAccessAudit, store(audited), {}, bootstrap?.path)).toEqual([
      `store llm-pretrain: its project's audit configs were not judged: ${NO_BOOTSTRAP}`,
    ]);
  });

  it.each<[string, unknown[], string]>([
    [
      'no audit config',
      [],
      `store llm-pretrain: the bootstrap render has no Data Access audit config recording DATA_READ and DATA_WRITE for storage.googleapis.com in project ${PROJECT}`,
    ],
    [
      'reads not recorded',
      [auditConfig('storage.googleapis.com', [{ logType: 'DATA_WRITE' }])],
      `store llm-pretrain: the bootstrap render has no Data Access audit config recording DATA_READ for storage.googleapis.com in project ${PROJECT}`,
    ],
    [
      "another project's config",
      [auditConfig('storage.googleapis.com', BOTH, 'ml-platform-dev-4821')],
      `store llm-pretrain: the bootstrap render has no Data Access audit config recording DATA_READ and DATA_WRITE for storage.googleapis.com in project ${PROJECT}`,
    ],
    [
      'an exemption the stack does not declare',
      [
        auditConfig('storage.googleapis.com', [
          { logType: 'DATA_READ', exemptedMembers: ['group:ml-eval@example.com'] },
          { logType: 'DATA_WRITE' },
        ]),
      ],
      `store llm-pretrain: the audit config of project ${PROJECT} exempts group:ml-eval@example.com, which checkpoints:auditExemptMembers does not declare`,
    ],
  ])('flags %s', async (_title, resources, message) => {
    bootstrap = withBootstrap(resources);
    expect(await violationsOf(gcpGcsDataAccessAudit, store(audited), {}, bootstrap?.path)).toEqual([message]);
  });
});
