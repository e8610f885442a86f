import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const project = join(__dirname, 'fixtures', 'weak-gcp');
const bin = join(__dirname, '..', 'bin', 'synth.js');

/** Every GCP rule, each caught on the weakened store (the security baseline and least privilege). */
const EXPECTED: readonly [rule: string, resource: string][] = [
  ['gcp-gcs-public-access-prevention', 'weak-bucket'],
  ['gcp-gcs-uniform-bucket-level-access', 'weak-bucket'],
  ['gcp-gcs-encryption-key', 'weak-bucket'],
  ['gcp-kms-key-rotation', 'weak-key'],
  ['gcp-gcs-no-hmac-keys', 'weak-hmac'],
  ['gcp-iam-no-service-account-keys', 'weak-writer-key'],
  ['gcp-gcs-no-legacy-acls', 'weak-acl'],
  ['gcp-gcs-versioning', 'weak-bucket'],
  ['gcp-gcs-soft-delete', 'weak-bucket'],
  ['gcp-gcs-hierarchical-namespace', 'weak-hot-bucket'],
  ['gcp-gcs-lifecycle-abort-incomplete-uploads', 'weak-bucket'],
  ['gcp-gcs-no-force-destroy', 'weak-bucket'],
  ['gcp-gcs-no-bucket-objects', 'weak-readme'],
  ['gcp-iam-no-public-members', 'weak-public-read'],
  ['gcp-iam-no-primitive-roles', 'weak-writer-editor'],
  ['gcp-gcs-bucket-object-roles', 'weak-writer-admin'],
];

interface Violation {
  policy: string;
  level: string;
  urn: string | null;
  message: string;
}

describe('synth on a weakened GCS store', () => {
  const out = mkdtempSync(join(tmpdir(), 'synth-weak-gcp-'));
  const result = spawnSync(process.execPath, [bin, `--out=${out}`], { cwd: project, encoding: 'utf8' });
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const violations = (): Violation[] =>
    JSON.parse(readFileSync(join(out, 'dev.json'), 'utf8')).violations as Violation[];

  it('exits 1 on the mandatory violations', () => {
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('weak-gcp-fixture / dev: 12 resources');
  });

  it.each(EXPECTED)('names %s in the table and the JSON, on %s', (rule, resource) => {
    expect(result.stdout).toContain(`[mandatory] ${rule}: `);
    expect(violations()).toContainEqual(
      expect.objectContaining({
        policy: rule,
        level: 'mandatory',
        urn: expect.stringMatching(`::${resource}$`),
      }),
    );
  });

  it('reports GCP rules only: the fixture is tagged and otherwise sound', () => {
    expect(new Set(violations().map((violation) => violation.policy))).toEqual(
      new Set(EXPECTED.map(([rule]) => rule)),
    );
  });

  it('explains each weakness and what is expected', () => {
    expect(violations().map((violation) => `${violation.policy}: ${violation.message}`)).toEqual(
      expect.arrayContaining([
        'gcp-gcs-public-access-prevention: publicAccessPrevention is "inherited"; must be "enforced" (unset or "inherited" follows the project)',
        'gcp-iam-no-public-members: member "allUsers" makes roles/storage.objectViewer public; must name specific principals (user:, group:, serviceAccount:, principal://…)',
        'gcp-gcs-bucket-object-roles: role "roles/storage.admin" on a bucket; must be one of roles/storage.objectViewer, roles/storage.objectCreator, roles/storage.objectUser',
        'gcp-kms-key-rotation: rotationPeriod is "31536000s" (365 days); must be at most "7776000s" (90 days)',
      ]),
    );
  });
});
