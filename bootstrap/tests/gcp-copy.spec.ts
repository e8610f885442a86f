import { gcpIndependentCopyOf, type GcpIndependentCopy } from '@checkpoints/analysis';
import { names } from '@checkpoints/naming';
import type { RenderedResource, Snapshot } from '@checkpoints/synth';
import { loadBootstrapConfig } from '../src/config';
import { GCP_COPY_APIS, GCP_COPY_SINK_ROLE, GCP_COPY_SOURCE_ROLE } from '../src/gcp/independent-copy';
import { configWith, renderBootstrap } from './helpers';

/**
 * The GCP independent copy the bootstrap builds (`bootstrap:gcp.independentCopy`), judged by the copy model of
 * libs/analysis (retention/gcp-copy): what it keeps of a store, and that nobody but the copy project's transfer
 * agent holds a right on it. What a CI identity can do to it from the stack is libs/policy mutations-gcp.
 */
const STACK_PROJECTS = { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' };
const COPY_PROJECT = 'acme-checkpoints-copy';
const STORE = 'llm-secret';
const STORE_BUCKET = names.gcsBucket({ project: 'checkpoints-gcp', stack: 'prod', store: STORE });
const COPY = { project: COPY_PROJECT, location: 'us-central1', retentionDays: 14, stores: [STORE] };

const gcpWith = (extra: Record<string, unknown>) => ({
  'bootstrap:gcp': { stackProjects: STACK_PROJECTS, ...extra },
});

/** Every IAM member grant of the render as the access model reads one: scope, member, role. */
function bindings(snapshot: Snapshot) {
  return snapshot.resources.flatMap((resource) => {
    const member = resource.inputs['member'];
    if (typeof member !== 'string') return [];
    const scope =
      resource.type === 'gcp:storage/bucketIAMMember:BucketIAMMember'
        ? `buckets/${String(resource.inputs['bucket'])}`
        : resource.type === 'gcp:projects/iAMMember:IAMMember'
          ? `projects/${String(resource.inputs['project'])}`
          : undefined;
    if (scope === undefined) return [];
    return [{ scope, member, role: String(resource.inputs['role']), source: resource.name }];
  });
}

function copyOf(
  snapshot: Snapshot,
  promisedDays = 14,
  resources: RenderedResource[] = snapshot.resources,
): GcpIndependentCopy | undefined {
  const all = bindings({ ...snapshot, resources });
  return gcpIndependentCopyOf({ name: STORE_BUCKET, project: STACK_PROJECTS.prod }, promisedDays, resources, {
    bindingsOn: (scopes) => all.filter((binding) => scopes.includes(binding.scope)),
    ciMembers: new Set(
      resources
        .filter((r) => r.type === 'gcp:serviceaccount/account:Account')
        .map(
          (r) =>
            `serviceAccount:${String(r.inputs['accountId'])}@${String(r.inputs['project'])}.iam.gserviceaccount.com`,
        ),
    ),
  });
}

/** A copy of the render's resources with one resource's inputs edited. */
function edited(snapshot: Snapshot, name: string, edit: (inputs: Record<string, unknown>) => void) {
  const resources = JSON.parse(JSON.stringify(snapshot.resources)) as RenderedResource[];
  const target = resources.find((resource) => resource.name === name);
  if (target === undefined) throw new Error(`no resource ${name}`);
  edit(target.inputs);
  return resources;
}

describe('the GCP independent copy of a prod store', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap(gcpWith({ independentCopy: { prod: COPY } }));
  });

  it("keeps every checkpoint gone from the store the copy's 14 days, in a locked bucket of the copy project", () => {
    const copy = copyOf(snapshot);
    expect(copy).toMatchObject({ project: COPY_PROJECT, lockedDays: 14, heldDays: 14 });
    expect(copy?.broken).toBeUndefined();
  });

  it('is no copy at all for a store the bootstrap does not list', () => {
    const other = gcpIndependentCopyOf(
      {
        name: names.gcsBucket({ project: 'checkpoints-gcp', stack: 'prod', store: 'llm-other' }),
        project: STACK_PROJECTS.prod,
      },
      14,
      snapshot.resources,
      { bindingsOn: () => [], ciMembers: new Set() },
    );
    expect(other).toBeUndefined();
  });

  it.each<[string, string, (inputs: Record<string, unknown>) => void, RegExp]>([
    [
      'an unlocked retention policy',
      'copy-prod',
      (inputs) => {
        inputs['retentionPolicy'] = { retentionPeriod: '1209600', isLocked: false };
      },
      /no locked retention policy/,
    ],
    [
      'a locked retention shorter than promised',
      'copy-prod',
      (inputs) => {
        inputs['retentionPolicy'] = { retentionPeriod: String(7 * 86_400), isLocked: true };
      },
      /locked retention is 7 days, shorter than the 14 days the store promises/,
    ],
    [
      'a soft delete shorter than promised',
      'copy-prod',
      (inputs) => {
        inputs['softDeletePolicy'] = { retentionDurationSeconds: 7 * 86_400 };
      },
      /keeps a checkpoint the lifecycle deletes 7 days/,
    ],
    [
      "a job that follows the store's deletes",
      `copy-prod-${STORE}`,
      (inputs) => {
        const spec = inputs['transferSpec'] as Record<string, Record<string, unknown>>;
        spec['transferOptions'] = { ...spec['transferOptions'], deleteObjectsUniqueInSink: true };
      },
      /deletes objects/,
    ],
    [
      'a job that overwrites copies',
      `copy-prod-${STORE}`,
      (inputs) => {
        const spec = inputs['transferSpec'] as Record<string, Record<string, unknown>>;
        spec['transferOptions'] = { ...spec['transferOptions'], overwriteWhen: 'DIFFERENT' };
      },
      /overwrites copied checkpoints/,
    ],
    [
      'a paused job',
      `copy-prod-${STORE}`,
      (inputs) => {
        inputs['status'] = 'DISABLED';
      },
      /is DISABLED: it copies nothing/,
    ],
    [
      'a job run by a service account of its own',
      `copy-prod-${STORE}`,
      (inputs) => {
        inputs['serviceAccount'] = 'mover@acme-checkpoints-prod.iam.gserviceaccount.com';
      },
      /runs as mover@/,
    ],
  ])('holds nothing with %s', (_what, name, edit, reason) => {
    expect(copyOf(snapshot, 14, edited(snapshot, name, edit))?.broken).toMatch(reason);
  });

  it('holds nothing when a CI identity is granted a right on the copy bucket', () => {
    const resources = JSON.parse(JSON.stringify(snapshot.resources)) as RenderedResource[];
    resources.push({
      ...resources.find((resource) => resource.name === 'copy-prod-sink')!,
      type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
      name: 'copy-prod-deploy',
      urn: 'urn:pulumi:ci::checkpoints-bootstrap::gcp:storage/bucketIAMMember:BucketIAMMember::copy-prod-deploy',
      inputs: {
        bucket: names.gcsCopyBucket({ project: 'checkpoints-gcp', stack: 'prod' }),
        role: 'roles/storage.admin',
        member: 'serviceAccount:checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com',
      },
    });
    expect(copyOf(snapshot, 14, resources)?.broken).toMatch(
      /grants the CI identity serviceAccount:checkpoints-ci-deploy-prod@acme-checkpoints-ci\.iam\.gserviceaccount\.com roles\/storage\.admin on the copy/,
    );
  });

  it("holds nothing when another project's transfer agent is granted on the copy too", () => {
    const resources = JSON.parse(JSON.stringify(snapshot.resources)) as RenderedResource[];
    const sink = resources.find((resource) => resource.name === 'copy-prod-sink')!;
    resources.push({
      ...sink,
      name: 'copy-prod-sink-other',
      urn: `${sink.urn}-other`,
      inputs: {
        ...sink.inputs,
        member: 'serviceAccount:project-999999999999@storage-transfer-service.iam.gserviceaccount.com',
      },
    });
    expect(copyOf(snapshot, 14, resources)?.broken).toMatch(/2 transfer agents hold rights on the copy/);
  });

  it("the copy project's transfer agent reads the store's bucket and nothing else of the stack project", () => {
    const source = snapshot.resources.filter((r) => r.name === `copy-prod-source-${STORE}`);
    expect(source).toHaveLength(1);
    const grant = source[0]!;
    expect(grant.inputs['member']).toMatch(/@storage-transfer-service\.iam\.gserviceaccount\.com$/);
    // The role's permissions are reads: nothing that writes, deletes or changes IAM.
    expect(
      GCP_COPY_SOURCE_ROLE.permissions.filter((permission) => !/\.(get|list)$/.test(permission)),
    ).toEqual([]);
    const condition = String((grant.inputs['condition'] as Record<string, unknown>)['expression']);
    expect(condition).toContain(`projects/_/buckets/${STORE_BUCKET}/objects/`);
    expect(condition).not.toMatch(new RegExp(`buckets/${STORE_BUCKET}'\\)`));
  });

  it('the transfer agent can add and list objects in the copy bucket alone, never delete or change them', () => {
    const copyBucket = names.gcsCopyBucket({ project: 'checkpoints-gcp', stack: 'prod' });
    const sink = snapshot.resources.filter((r) => r.name === 'copy-prod-sink');
    expect(sink).toHaveLength(1);
    const role = snapshot.resources.find(
      (r) =>
        r.type === 'gcp:projects/iAMCustomRole:IAMCustomRole' &&
        r.name === `copy-prod-${GCP_COPY_SINK_ROLE.roleId}`,
    );
    const permissions = (role?.inputs['permissions'] as string[] | undefined) ?? ['no role'];
    expect(permissions).toEqual(
      expect.arrayContaining(['storage.objects.create', 'storage.objects.list', 'storage.buckets.get']),
    );
    expect(permissions.filter((p) => /delete|update|setIamPolicy|no role/.test(p))).toEqual([]);
    expect(sink[0]!.inputs['project']).toBe(COPY_PROJECT);
    const condition = String((sink[0]!.inputs['condition'] as Record<string, unknown>)['expression']);
    expect(condition).toContain(`projects/_/buckets/${copyBucket}/objects/`);
  });

  it('holds nothing when the copy bucket is in the CI project', () => {
    const resources = edited(snapshot, 'copy-prod', (inputs) => {
      inputs['project'] = 'acme-checkpoints-ci';
    });
    const job = resources.find((r) => r.name === `copy-prod-${STORE}`)!;
    job.inputs['project'] = 'acme-checkpoints-ci';
    expect(copyOf(snapshot, 14, resources)?.broken).toMatch(/where the CI service accounts live/);
  });
});

describe("the copy project's first deploy", () => {
  it('enables Cloud Storage and Storage Transfer there, and the bucket and sink role wait for them', async () => {
    const snapshot = await renderBootstrap(gcpWith({ independentCopy: { prod: COPY } }));
    const apis = snapshot.resources.filter(
      (r) => r.type === 'gcp:projects/service:Service' && r.inputs['project'] === COPY_PROJECT,
    );
    expect(apis.map((api) => api.inputs['service']).sort()).toEqual([...GCP_COPY_APIS].sort());
    const apiUrns = new Set(apis.map((api) => api.urn));
    for (const name of ['copy-prod', `copy-prod-${GCP_COPY_SINK_ROLE.roleId}`]) {
      const resource = snapshot.resources.find((r) => r.name === name)!;
      expect(resource.dependsOn.filter((urn) => apiUrns.has(urn))).toHaveLength(apis.length);
    }
  });
});

describe('bootstrap:gcp.independentCopy', () => {
  const issues = (independentCopy: unknown) => {
    try {
      loadBootstrapConfig(configWith(gcpWith({ independentCopy })));
    } catch (error) {
      return (error as { issues: { path: string; value: unknown; message: string }[] }).issues;
    }
    return [];
  };

  it('refuses the copy in a stack project, naming the key, the value and why', () => {
    const [issue] = issues({ prod: { ...COPY, project: STACK_PROJECTS.dev } });
    expect(issue).toMatchObject({
      path: 'bootstrap:gcp.independentCopy.prod.project',
      value: STACK_PROJECTS.dev,
    });
    expect(issue?.message).toMatch(/stack project of dev .* no CI identity holds a right/);
  });

  it('refuses the copy in the CI project', () => {
    const [issue] = issues({ prod: { ...COPY, project: 'acme-checkpoints-ci' } });
    expect(issue?.message).toMatch(/is gcp:project, where the CI service accounts live/);
  });

  it('refuses a retention soft delete cannot keep, naming what is allowed', () => {
    const [issue] = issues({ prod: { ...COPY, retentionDays: 120 } });
    expect(issue).toMatchObject({ path: 'bootstrap:gcp.independentCopy.prod.retentionDays', value: 120 });
    expect(issue?.message).toMatch(/from 7 to 90/);
  });

  it('refuses an environment the bootstrap does not serve and a store listed twice', () => {
    expect(issues({ staging: COPY }).map((issue) => issue.path)).toEqual([
      'bootstrap:gcp.independentCopy.staging',
    ]);
    expect(issues({ prod: { ...COPY, stores: [STORE, STORE] } }).map((issue) => issue.path)).toEqual([
      'bootstrap:gcp.independentCopy.prod.stores[1]',
    ]);
  });

  it('refuses a store name the stacks cannot have', () => {
    const [issue] = issues({ prod: { ...COPY, stores: ['LLM'] } });
    expect(issue?.path).toBe('bootstrap:gcp.independentCopy.prod.stores[0]');
    expect(issue?.message).toMatch(/store name/);
  });
});
