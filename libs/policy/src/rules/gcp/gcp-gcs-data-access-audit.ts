import type { RenderedResource } from '@checkpoints/render';
import { NO_BOOTSTRAP } from '../access/analysis';
import { stackRule } from '../define';
import { gcpStoresOf } from './store-resources';
import { PROJECT_AUDIT_CONFIG } from './tokens';

/** The log types that record who read and who wrote objects (Admin Activity is always on). */
export const REQUIRED_LOG_TYPES = ['DATA_READ', 'DATA_WRITE'] as const;
const SERVICES = ['storage.googleapis.com', 'allServices'];

interface AuditInputs {
  enabled?: unknown;
  project?: unknown;
  exemptMembers?: unknown;
}

interface AuditLogConfig {
  logType?: string;
  exemptedMembers?: string[];
}

/**
 * What the audit configs of `project` in the bootstrap render miss for an audited store: a log type, or an
 * exemption the stack did not declare. Configs for `allServices` and for the service add up (@pulumi/gcp
 * 9.37 IAMAuditConfigArgs.service: "the union of the two AuditConfigs is used for that service").
 */
export function auditProblems(
  bootstrap: readonly RenderedResource[],
  project: string,
  declaredExemptions: readonly string[],
): string[] {
  const configs = bootstrap.filter(
    (resource) =>
      resource.type === PROJECT_AUDIT_CONFIG &&
      resource.inputs['project'] === project &&
      SERVICES.includes(String(resource.inputs['service'])),
  );
  const logConfigs = configs.flatMap(
    (config) => (config.inputs['auditLogConfigs'] as AuditLogConfig[] | undefined) ?? [],
  );
  const problems: string[] = [];
  const missing = REQUIRED_LOG_TYPES.filter((type) => !logConfigs.some((config) => config.logType === type));
  if (missing.length > 0) {
    problems.push(
      `the bootstrap render has no Data Access audit config recording ${missing.join(' and ')} for storage.googleapis.com in project ${project}`,
    );
  }
  const undeclared = [...new Set(logConfigs.flatMap((config) => config.exemptedMembers ?? []))].filter(
    (member) => !declaredExemptions.includes(member),
  );
  if (undeclared.length > 0) {
    problems.push(
      `the audit config of project ${project} exempts ${undeclared.join(', ')}, which checkpoints:auditExemptMembers does not declare`,
    );
  }
  return problems;
}

export const gcpGcsDataAccessAudit = stackRule({
  name: 'gcp-gcs-data-access-audit',
  description:
    "Every audited store's project has a Data Access audit config for Cloud Storage (DATA_READ and DATA_WRITE) in the bootstrap render, exempting no member the stack's checkpoints:auditExemptMembers does not declare; checked with the bootstrap render (policy config bootstrapRender, synth --bootstrap), like the CI rules",
  source:
    'Google Cloud: Cloud Storage audit logging and Configure Data Access audit logs (https://cloud.google.com/logging/docs/audit/configure-data-access); CIS Google Cloud Platform Foundation Benchmark v3.0.0 2.1 (Cloud Audit Logging configured for all services and users)',
  validate: (args, report, evaluation) => {
    const { bootstrap } = evaluation().context(args);
    for (const store of gcpStoresOf(args)) {
      const audit = store.inputs['audit'] as AuditInputs | undefined;
      if (audit?.enabled !== true) continue;
      if (bootstrap === undefined) {
        report(
          `store ${store.name}: its project's audit configs were not judged: ${NO_BOOTSTRAP}`,
          store.urn,
        );
        continue;
      }
      const project = typeof audit.project === 'string' ? audit.project : undefined;
      if (project === undefined) {
        report(
          `store ${store.name}: the render does not say which project its audit config belongs to`,
          store.urn,
        );
        continue;
      }
      const declared = Array.isArray(audit.exemptMembers) ? audit.exemptMembers.map(String) : [];
      for (const problem of auditProblems(bootstrap.resources, project, declared)) {
        report(`store ${store.name}: ${problem}`, store.urn);
      }
    }
  },
});
