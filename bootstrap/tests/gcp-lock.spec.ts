import gcpRoles from '@checkpoints/analysis/data/gcp-roles.json';
import type { Snapshot } from '@checkpoints/synth';
import { renderBootstrap } from './helpers';

/**
 * The retention lock of a GCP store is its bucket's retention policy, set by storage.buckets.create and
 * storage.buckets.update; an unlocked policy "can be modified or removed from the bucket via a
 * storage.buckets.update operation" and buckets.lockRetentionPolicy needs the same permission (Storage JSON
 * API, Bucket.retentionPolicy and buckets.lockRetentionPolicy). Judged with the published role definitions
 * (../shared/reference/cloud-roles, vendored in libs/analysis/data).
 */
const PREDEFINED: Record<string, readonly string[]> = gcpRoles.roles;
const EMAIL = (id: string) => `serviceAccount:${id}@acme-checkpoints-ci.iam.gserviceaccount.com`;
const DENY_UPDATE = 'storage.googleapis.com/buckets.update';

/** Every permission `member` holds on `project` through the bootstrap's grants, custom roles resolved. */
function projectPermissions(snapshot: Snapshot, member: string, project: string): Set<string> {
  const custom = new Map(
    snapshot.resources
      .filter((resource) => resource.type === 'gcp:projects/iAMCustomRole:IAMCustomRole')
      .map((role) => [
        `projects/${String(role.inputs['project'])}/roles/${String(role.inputs['roleId'])}`,
        role.inputs['permissions'] as string[],
      ]),
  );
  const roles = snapshot.resources
    .filter((resource) => resource.type === 'gcp:projects/iAMMember:IAMMember')
    .filter((grant) => grant.inputs['member'] === member && grant.inputs['project'] === project)
    .map((grant) => String(grant.inputs['role']));
  return new Set(roles.flatMap((role) => custom.get(role) ?? PREDEFINED[role] ?? []));
}

/** The v2 permissions the bootstrap's deny policies deny `member` (v2 principal form) in `project`. */
function deniedPermissions(snapshot: Snapshot, member: string, project: string): string[] {
  const principal = `principal://iam.googleapis.com/projects/-/serviceAccounts/${member.slice('serviceAccount:'.length)}`;
  return snapshot.resources
    .filter((resource) => resource.type === 'gcp:iam/denyPolicy:DenyPolicy')
    .filter((policy) => String(policy.inputs['parent']).endsWith(`%2Fprojects%2F${project}`))
    .flatMap(
      (policy) =>
        policy.inputs['rules'] as { denyRule: { deniedPrincipals: string[]; deniedPermissions: string[] } }[],
    )
    .filter(({ denyRule }) => denyRule.deniedPrincipals.includes(principal))
    .flatMap(({ denyRule }) => denyRule.deniedPermissions);
}

describe('GCP CI and the retention lock of a store', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap();
  });

  it.each(['dev', 'prod'])(
    'the %s deploy account can create and update the policy: storage.buckets.create and update, not denied',
    (environment) => {
      const member = EMAIL(`checkpoints-ci-deploy-${environment}`);
      const project = `acme-checkpoints-${environment}`;
      const held = projectPermissions(snapshot, member, project);
      expect(['storage.buckets.create', 'storage.buckets.update'].filter((p) => !held.has(p))).toEqual([]);
      expect(deniedPermissions(snapshot, member, project)).not.toContain(DENY_UPDATE);
    },
  );

  it('the preview account cannot shorten, remove or lock the policy: no storage.buckets.update anywhere', () => {
    const member = EMAIL('checkpoints-ci-preview');
    for (const project of ['acme-checkpoints-dev', 'acme-checkpoints-prod']) {
      const held = projectPermissions(snapshot, member, project);
      expect(held.has('storage.buckets.get')).toBe(true);
      expect(held.has('storage.buckets.update')).toBe(false);
    }
  });

  it('no Cloud Storage permission separates lifting a bucket policy from updating the bucket (so no role can withhold it)', () => {
    // Object Retention Lock has its own permissions (objects.setRetention, objects.overrideUnlockedRetention);
    // the bucket policy has none besides storage.buckets.update: a deploy account that manages the bucket
    // can lift its unlocked policy. That is the relaxable mode (docs/gcp.md, "Retention lock": break glass).
    const storage = new Set(Object.values(PREDEFINED).flatMap((permissions) => [...permissions]));
    const retention = [...storage].filter((permission) => /retention/i.test(permission)).sort();
    expect(retention).toEqual([
      'storage.buckets.enableObjectRetention',
      'storage.objects.overrideUnlockedRetention',
      'storage.objects.setRetention',
    ]);
  });
});
