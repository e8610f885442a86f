/**
 * The preflight against the compliance view: every control the view judges outside the repository (an
 * account- or organization-level setting no stack renders) is one the preflight of its cloud asks for, so a
 * control added there without a check here fails.
 */
import {
  AUDIT_LOG_PROTECTED_ACTIONS,
  AWS_COMPLIANCE,
  AZURE_COMPLIANCE,
  GCP_COMPLIANCE,
  judgeStore,
  type AwsSubject,
  type CloudCompliance,
} from '@checkpoints/analysis';
import {
  AUDIT_LOG_PROTECTED_ACTIONS as PREFLIGHT_PROTECTED_ACTIONS,
  AWS_ORGANIZATION_TRAIL_PREREQUISITES,
  AWS_PREREQUISITES,
} from '../preflight/aws.cjs';
import { AZURE_PREREQUISITES } from '../preflight/azure.cjs';
import { GCP_PREREQUISITES } from '../preflight/gcp.cjs';

/**
 * The ids of the controls a cloud's compliance judges outside the repository whatever the store: its
 * account-level checks, each with the prerequisite it states.
 */
function outsideRepo(compliance: CloudCompliance<never>): string[] {
  return compliance.checks
    .filter((check) => check.prerequisite !== undefined)
    .flatMap((check) => check.controls.map((control) => control.id));
}

const CLOUDS = [
  ['aws', AWS_COMPLIANCE, AWS_PREREQUISITES],
  ['gcp', GCP_COMPLIANCE, GCP_PREREQUISITES],
  ['azure', AZURE_COMPLIANCE, AZURE_PREREQUISITES],
] as const;

describe('the preflight checks every prerequisite the compliance view leaves outside the repository', () => {
  it.each(CLOUDS)(
    '%s: one preflight check per outside-repo control, none for another',
    (_cloud, compliance, table) => {
      const asked = table.flatMap((prerequisite) => [...prerequisite.controls]);
      expect([...asked].sort()).toEqual([...outsideRepo(compliance as CloudCompliance<never>)].sort());
      expect(new Set(asked).size).toBe(asked.length);
    },
  );

  it('aws, a store audited by checkpoints:organizationTrail: one check per control that trail leaves outside the repository', () => {
    // What the compliance view judges of a prod store whose audit is the organization trail's: the controls it
    // cannot see in the render, beyond the account-level ones asked in any case.
    const subject = {
      store: { name: 'checkpoints', resources: [], urn: 'urn:store' },
      component: { inputs: { audit: true } },
      environment: 'prod',
      directory: false,
      buckets: [],
      audit: { organizationTrail: 'arn:aws:cloudtrail:us-east-1:111122223333:trail/org', trails: [] },
      resources: [],
      grants: [],
      retention: undefined,
    } as unknown as AwsSubject;
    const accountLevel = new Set(outsideRepo(AWS_COMPLIANCE as CloudCompliance<never>));
    const byTrail = judgeStore(AWS_COMPLIANCE, subject)
      .filter((verdict) => verdict.verdict === 'outside-repo' && !accountLevel.has(verdict.control))
      .map((verdict) => verdict.control);
    expect(byTrail.length).toBeGreaterThan(0);
    const asked = AWS_ORGANIZATION_TRAIL_PREREQUISITES.flatMap((prerequisite) => [...prerequisite.controls]);
    expect([...asked].sort()).toEqual([...new Set(byTrail)].sort());
  });

  it("refuses the audit-log bucket's deletes the compliance view asks the policy to deny", () => {
    expect([...PREFLIGHT_PROTECTED_ACTIONS].sort()).toEqual([...AUDIT_LOG_PROTECTED_ACTIONS].sort());
  });

  it('knows the prerequisites of AWS and GCP, and that Azure has none today', () => {
    expect(outsideRepo(AWS_COMPLIANCE as CloudCompliance<never>)).toEqual(
      expect.arrayContaining(['CIS AWS 2.1.3', 'S3.1', 'CIS AWS 3.1', 'CloudTrail.1', 'GuardDuty.1']),
    );
    expect(outsideRepo(GCP_COMPLIANCE as CloudCompliance<never>)).toEqual(
      expect.arrayContaining(['CIS GCP 2.2', 'checkpoints malware-scan (GCP)']),
    );
    // The Azure stack renders every control it is judged on (Defender for Storage included): nothing to ask.
    expect(outsideRepo(AZURE_COMPLIANCE as CloudCompliance<never>)).toEqual([]);
    expect(AZURE_PREREQUISITES).toEqual([]);
  });
});
