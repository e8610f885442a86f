import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const project = join(__dirname, 'fixtures', 'weak-aws');
const bin = join(__dirname, '..', 'bin', 'synth.js');

/** Every AWS rule, each broken at least once by the fixture. */
const BROKEN = [
  'aws-s3-public-access-block',
  'aws-s3-bucket-owner-enforced',
  'aws-s3-no-acls',
  'aws-s3-tls-only',
  'aws-s3-default-encryption',
  'aws-kms-key-rotation',
  'aws-s3-versioning',
  'aws-s3-abort-incomplete-uploads',
  'aws-s3-no-force-destroy',
  'aws-iam-no-long-lived-credentials',
  'aws-iam-no-wildcard-actions',
  'aws-iam-no-wildcard-resources',
  'aws-iam-no-public-principals',
  'aws-iam-no-aws-managed-policies',
];

describe('synth of a weak S3 store', () => {
  let result: { status: number | null; stdout: string; stderr: string };
  let violations: { policy: string; level: string; urn: string | null; message: string }[];

  beforeAll(() => {
    const out = mkdtempSync(join(tmpdir(), 'synth-weak-aws-'));
    const run = spawnSync(process.execPath, [bin, `--out=${out}`], { cwd: project, encoding: 'utf8' });
    result = { status: run.status, stdout: run.stdout, stderr: run.stderr };
    violations = JSON.parse(readFileSync(join(out, 'dev.json'), 'utf8')).violations;
    rmSync(out, { recursive: true, force: true });
  });

  it('exits 1: mandatory violations', () => {
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
  });

  it.each(BROKEN)('names %s in the table and in the JSON', (rule) => {
    expect(result.stdout).toContain(`[mandatory] ${rule}: `);
    expect(violations).toContainEqual(expect.objectContaining({ policy: rule, level: 'mandatory' }));
  });

  it('reports exactly what is wrong, on the resource that is wrong', () => {
    const urn = (type: string, name: string) =>
      `urn:pulumi:dev::weak-aws-fixture::pulumi:pulumi:Stack$${type}::${name}`;
    expect(violations).toEqual(
      expect.arrayContaining([
        {
          policy: 'aws-s3-public-access-block',
          level: 'mandatory',
          urn: urn('aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock', 'weak-public-access-block'),
          message:
            "BucketPublicAccessBlock 'weak-public-access-block': blockPublicAcls is false, blockPublicPolicy is false; expected blockPublicAcls, blockPublicPolicy, ignorePublicAcls, restrictPublicBuckets all true",
        },
        {
          policy: 'aws-s3-versioning',
          level: 'mandatory',
          urn: urn('aws:s3/bucket:Bucket', 'weak-bucket'),
          message: `bucket 'weak-ckpt' has no BucketVersioning; expected versioningConfiguration.status "Enabled"`,
        },
        {
          policy: 'aws-iam-no-public-principals',
          level: 'mandatory',
          urn: urn('aws:iam/role:Role', 'weak-writer'),
          message:
            'assumeRolePolicy: Allow statement #1 has a public principal {"AWS":"*"}; expected named accounts, roles or services',
        },
        {
          policy: 'aws-iam-no-wildcard-actions',
          level: 'mandatory',
          urn: urn('aws:iam/rolePolicy:RolePolicy', 'weak-writer-access'),
          message: "policy: Allow statement 'Everything' grants s3:*; expected the named actions it needs",
        },
      ]),
    );
    expect(violations.every((violation) => BROKEN.includes(violation.policy))).toBe(true);
  });
});
