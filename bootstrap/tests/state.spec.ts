import { ConfigError } from '@checkpoints/config';
import { ofType, type RenderedResource, type Snapshot } from '@checkpoints/synth';
import { renderBootstrap, renderFailure, resource, SUBSCRIPTION } from './helpers';

const BUCKET = 'acme-pulumi-state';
const ACCOUNT_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-state/providers/Microsoft.Storage/storageAccounts/acmestate`;
const CONTAINER = { storageAccountId: ACCOUNT_ID, container: 'pulumi-state' };
const STATE_KEYS = {
  'bootstrap:gcp': {
    stackProjects: { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' },
    stateBucket: BUCKET,
  },
  'bootstrap:azure': {
    stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
    stateContainer: CONTAINER,
  },
};

type Operation = 'read' | 'list' | 'write' | 'delete';

/** Sample state objects of Pulumi's DIY layout, by stack project and stack. */
const object = {
  meta: '.pulumi/meta.yaml',
  state: (project: string, stack: string) => `.pulumi/stacks/${project}/${stack}.json`,
  stateBackup: (project: string, stack: string) => `.pulumi/stacks/${project}/${stack}.json.bak`,
  history: (project: string, stack: string) =>
    `.pulumi/history/${project}/${stack}/${stack}-1700000000.history.json`,
  backup: (project: string, stack: string) => `.pulumi/backups/${project}/${stack}/${stack}.1700000000.json`,
  lock: (project: string, stack: string) => `.pulumi/locks/organization/${project}/${stack}/0a1b2c.json`,
};

/**
 * [operation, object, allowed] for the preview and the dev deploy identity of a cloud's stack project.
 * `other` is another cloud's project in the same backend.
 */
function expectations(project: string, other: string) {
  const preview: [Operation, string, boolean][] = [
    ['read', object.meta, true],
    ['read', object.state(project, 'dev'), true],
    ['read', object.state(project, 'prod'), true],
    ['read', object.history(project, 'prod'), true],
    ['read', object.lock(project, 'prod'), true],
    ['write', object.lock(project, 'prod'), true],
    ['delete', object.lock(project, 'dev'), true],
    ['write', object.state(project, 'dev'), false],
    ['write', object.meta, false],
    ['delete', object.history(project, 'prod'), false],
    ['read', object.backup(project, 'prod'), false],
    ['read', object.state(other, 'prod'), false],
    ['write', object.lock(other, 'prod'), false],
    ['read', 'checkpoints/model.bin', false],
  ];
  const deployDev: [Operation, string, boolean][] = [
    ['read', object.meta, true],
    ['write', object.meta, false],
    ['read', object.state(project, 'dev'), true],
    ['write', object.state(project, 'dev'), true],
    ['write', object.stateBackup(project, 'dev'), true],
    ['delete', object.state(project, 'dev'), true],
    ['write', object.history(project, 'dev'), true],
    ['write', object.backup(project, 'dev'), true],
    ['write', object.lock(project, 'dev'), true],
    ['delete', object.lock(project, 'dev'), true],
    ['read', object.state(project, 'prod'), false],
    ['write', object.state(project, 'prod'), false],
    ['delete', object.history(project, 'prod'), false],
    ['write', object.lock(project, 'prod'), false],
    ['read', object.state(other, 'dev'), false],
    ['write', object.state(other, 'dev'), false],
  ];
  return { preview, deployDev };
}

/**
 * A tiny evaluator of the only Cloud Storage IAM Condition forms the grants use, disjunctions of
 * `resource.name == '<name>'` and `resource.name.startsWith('<prefix>')`; anything else throws.
 * resource.name of an object is projects/_/buckets/<bucket>/objects/<object>, of a bucket
 * projects/_/buckets/<bucket> (https://cloud.google.com/iam/docs/conditions-resource-attributes#resource-name).
 */
function gcsConditionAdmits(expression: string, name: string): boolean {
  return expression.split(' || ').some((term) => {
    const equals = /^resource\.name == '([^']+)'$/.exec(term);
    if (equals) return name === equals[1];
    const prefix = /^resource\.name\.startsWith\('([^']+)'\)$/.exec(term);
    if (prefix?.[1] !== undefined) return name.startsWith(prefix[1]);
    throw new Error(`unexpected condition term: ${term}`);
  });
}

/**
 * What the roles grant, from the predefined roles reference
 * (https://cloud.google.com/storage/docs/access-control/iam-roles): Storage Object Viewer gets and lists
 * objects; Storage Object User also creates (and so overwrites) and deletes them. storage.objects.list is
 * checked on the bucket, the other three on the object (https://cloud.google.com/storage/docs/access-control/iam-permissions).
 */
const GCS_ROLE_OPERATIONS: Record<string, readonly Operation[]> = {
  'roles/storage.objectViewer': ['read', 'list'],
  'roles/storage.objectUser': ['read', 'list', 'write', 'delete'],
};

function gcsAllows(grants: readonly RenderedResource[], operation: Operation, objectName?: string): boolean {
  const name =
    operation === 'list'
      ? `projects/_/buckets/${BUCKET}`
      : `projects/_/buckets/${BUCKET}/objects/${objectName}`;
  return grants.some((grant) => {
    const role = String(grant.inputs['role']);
    const condition = grant.inputs['condition'] as { expression: string };
    const operations = GCS_ROLE_OPERATIONS[role];
    if (!operations) throw new Error(`unexpected role ${role}`);
    return (
      grant.inputs['bucket'] === BUCKET &&
      operations.includes(operation) &&
      gcsConditionAdmits(condition.expression, name)
    );
  });
}

const BLOBS = 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs';
const READER = '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1';
const CONTRIBUTOR = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe';
const CONTAINERS = 'Microsoft.Storage/storageAccounts/blobServices/containers';
interface RolePermissions {
  actions: readonly string[];
  dataActions: readonly string[];
}
/**
 * The published definitions of Storage Blob Data Reader and Storage Blob Data Contributor
 * (https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/storage#storage-blob-data-reader,
 * ...#storage-blob-data-contributor);
 * List Blobs is blobs/read with the suboperation Blob.List
 * (https://learn.microsoft.com/en-us/azure/storage/blobs/storage-auth-abac-attributes#list-blobs).
 */
const BUILT_IN_ROLES: Record<string, RolePermissions> = {
  [READER]: {
    actions: [
      `${CONTAINERS}/read`,
      'Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action',
    ],
    dataActions: [`${BLOBS}/read`],
  },
  [CONTRIBUTOR]: {
    actions: [
      `${CONTAINERS}/delete`,
      `${CONTAINERS}/read`,
      `${CONTAINERS}/write`,
      'Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action',
    ],
    dataActions: [
      `${BLOBS}/delete`,
      `${BLOBS}/read`,
      `${BLOBS}/write`,
      `${BLOBS}/move/action`,
      `${BLOBS}/add/action`,
    ],
  },
};

/** A built-in role's published permissions, or a custom role's as the render defines it. */
function rolePermissions(snapshot: Snapshot, assignment: RenderedResource): RolePermissions {
  const role = String(assignment.inputs['roleDefinitionId']).split('/').at(-1) ?? '';
  const builtIn = BUILT_IN_ROLES[role];
  if (builtIn) return builtIn;
  const definition = ofType(snapshot, 'azure-native:authorization:RoleDefinition').find(
    (candidate) => candidate.inputs['roleDefinitionId'] === role,
  );
  if (!definition) throw new Error(`unexpected role ${role}`);
  const permissions = definition.inputs['permissions'] as { actions?: string[]; dataActions?: string[] }[];
  return {
    actions: permissions.flatMap((p) => p.actions ?? []),
    dataActions: permissions.flatMap((p) => p.dataActions ?? []),
  };
}

/** Azure action wildcards: `*` matches any run of characters, case-insensitively. */
function actionMatches(pattern: string, action: string): boolean {
  const source = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${source}$`, 'i').test(action);
}
const AZURE_ACTION: Record<Operation, string> = {
  read: `${BLOBS}/read`,
  list: `${BLOBS}/read`,
  write: `${BLOBS}/write`,
  delete: `${BLOBS}/delete`,
};

/**
 * A tiny evaluator of the one ABAC condition form the state grants use:
 * ((!(ActionMatches{a} [AND NOT SubOperationMatches{'Blob.List'}]) AND ...) OR (@Resource[blobs:path] StringStartsWith 'p' OR ...)).
 * A request whose action no clause names passes; otherwise the blob's path must start with a prefix
 * (https://learn.microsoft.com/en-us/azure/role-based-access-control/conditions-format). Anything else throws.
 */
function abacAdmits(
  condition: string,
  action: string,
  subOperation: string | undefined,
  path: string,
): boolean {
  const shape = /^\(\((.+)\) OR \((.+)\)\)$/.exec(condition);
  if (!shape?.[1] || !shape[2]) throw new Error(`unexpected condition: ${condition}`);
  const gated = shape[1].split(' AND !').map((clause, index) => {
    const match = /^!?\(ActionMatches\{'([^']+)'\}( AND NOT SubOperationMatches\{'Blob\.List'\})?\)$/.exec(
      index === 0 ? clause : `!${clause}`,
    );
    if (!match?.[1]) throw new Error(`unexpected clause: ${clause}`);
    return { action: match[1], exceptList: match[2] !== undefined };
  });
  const prefixes = shape[2].split(' OR ').map((term) => {
    const match = new RegExp(`^@Resource\\[${BLOBS}:path\\] StringStartsWith '([^']+)'$`).exec(term);
    if (match?.[1] === undefined) throw new Error(`unexpected path term: ${term}`);
    return match[1];
  });
  const isGated = gated.some(
    (clause) => clause.action === action && !(clause.exceptList && subOperation === 'Blob.List'),
  );
  return !isGated || prefixes.some((prefix) => path.startsWith(prefix));
}

function azureAllows(
  snapshot: Snapshot,
  assignments: readonly RenderedResource[],
  operation: Operation,
  path = '',
): boolean {
  const action = AZURE_ACTION[operation];
  return assignments.some((assignment) => {
    const { dataActions } = rolePermissions(snapshot, assignment);
    return (
      dataActions.some((pattern) => actionMatches(pattern, action)) &&
      abacAdmits(
        String(assignment.inputs['condition']),
        action,
        operation === 'list' ? 'Blob.List' : undefined,
        path,
      )
    );
  });
}

const SCOPE = `${ACCOUNT_ID}/blobServices/default/containers/pulumi-state`;
const IDENTITY = 'azure-native:managedidentity:UserAssignedIdentity';
const SERVICE_ACCOUNT = 'gcp:serviceaccount/account:Account';

function bucketGrantsOf(snapshot: Snapshot, purpose: string): RenderedResource[] {
  const account = resource(snapshot, SERVICE_ACCOUNT, purpose);
  return ofType(snapshot, 'gcp:storage/bucketIAMMember:BucketIAMMember').filter((grant) =>
    grant.propertyDependencies['member']?.includes(account.urn),
  );
}

function containerAssignmentsOf(snapshot: Snapshot, purpose: string): RenderedResource[] {
  const identity = resource(snapshot, IDENTITY, purpose);
  return ofType(snapshot, 'azure-native:authorization:RoleAssignment').filter(
    (assignment) =>
      assignment.inputs['scope'] === SCOPE &&
      assignment.propertyDependencies['principalId']?.includes(identity.urn),
  );
}

describe('without bootstrap:gcp.stateBucket and bootstrap:azure.stateContainer', () => {
  it('no CI identity gets any right on a state bucket or container', async () => {
    const snapshot = await renderBootstrap();
    // The only bucket grants are the log sinks' writers on the audit-log buckets, none a CI identity's.
    expect(
      ofType(snapshot, 'gcp:storage/bucketIAMMember:BucketIAMMember').map((grant) => [
        String(grant.inputs['bucket']).endsWith('-data-access-audit'),
        grant.inputs['role'],
      ]),
    ).toEqual([
      [true, 'roles/storage.objectCreator'],
      [true, 'roles/storage.objectCreator'],
    ]);
    const scopes = ofType(snapshot, 'azure-native:authorization:RoleAssignment').map((a) =>
      String(a.inputs['scope']),
    );
    expect(scopes.filter((scope) => scope.includes('/containers/'))).toEqual([]);
  });
});

describe('CI rights in a self-managed state backend (gs://, azblob://)', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap(STATE_KEYS);
  });

  describe('GCP: bucket grants with IAM Conditions on the object name', () => {
    const { preview, deployDev } = expectations('checkpoints-gcp', 'checkpoints-aws');
    it.each(preview)('the preview may %s %s: %s', (operation, name, allowed) => {
      expect(gcsAllows(bucketGrantsOf(snapshot, 'preview'), operation, name)).toBe(allowed);
    });
    it.each(deployDev)('the dev deploy account may %s %s: %s', (operation, name, allowed) => {
      expect(gcsAllows(bucketGrantsOf(snapshot, 'deploy-dev'), operation, name)).toBe(allowed);
    });
    it('the prod deploy account manages its own state and not dev', () => {
      const grants = bucketGrantsOf(snapshot, 'deploy-prod');
      expect(gcsAllows(grants, 'write', object.state('checkpoints-gcp', 'prod'))).toBe(true);
      expect(gcsAllows(grants, 'read', object.state('checkpoints-gcp', 'dev'))).toBe(false);
    });
    it.each(['preview', 'deploy-dev', 'deploy-prod'])(
      '%s may list the bucket, as the backend must',
      (purpose) => {
        expect(gcsAllows(bucketGrantsOf(snapshot, purpose), 'list')).toBe(true);
      },
    );
  });

  describe('Azure: container-scoped assignments with ABAC conditions on the blob path', () => {
    const { preview, deployDev } = expectations('checkpoints-azure', 'checkpoints-gcp');
    it.each(preview)('the preview may %s %s: %s', (operation, path, allowed) => {
      expect(azureAllows(snapshot, containerAssignmentsOf(snapshot, 'preview'), operation, path)).toBe(
        allowed,
      );
    });
    it.each(deployDev)('the dev deploy identity may %s %s: %s', (operation, path, allowed) => {
      expect(azureAllows(snapshot, containerAssignmentsOf(snapshot, 'deploy-dev'), operation, path)).toBe(
        allowed,
      );
    });
    it('the prod deploy identity manages its own state and not dev', () => {
      const assignments = containerAssignmentsOf(snapshot, 'deploy-prod');
      expect(azureAllows(snapshot, assignments, 'write', object.state('checkpoints-azure', 'prod'))).toBe(
        true,
      );
      expect(azureAllows(snapshot, assignments, 'read', object.state('checkpoints-azure', 'dev'))).toBe(
        false,
      );
    });
    it.each(['preview', 'deploy-dev', 'deploy-prod'])(
      '%s may list the container, as the backend must',
      (purpose) => {
        expect(azureAllows(snapshot, containerAssignmentsOf(snapshot, purpose), 'list')).toBe(true);
      },
    );
    it('no CI identity may delete the container (and every stack state in it)', () => {
      const assignments = ['preview', 'deploy-dev', 'deploy-prod'].flatMap((p) =>
        containerAssignmentsOf(snapshot, p),
      );
      const deleting = assignments.filter((assignment) =>
        rolePermissions(snapshot, assignment).actions.some((pattern) =>
          actionMatches(pattern, `${CONTAINERS}/delete`),
        ),
      );
      expect(deleting.map((assignment) => assignment.name)).toEqual([]);
    });
    it('every state assignment carries a version 2.0 condition', () => {
      const assignments = ['preview', 'deploy-dev', 'deploy-prod'].flatMap((p) =>
        containerAssignmentsOf(snapshot, p),
      );
      expect(assignments).toHaveLength(6);
      expect(new Set(assignments.map((a) => a.inputs['conditionVersion']))).toEqual(new Set(['2.0']));
    });
  });
});

describe('the evaluators themselves', () => {
  it('read the condition forms as documented', () => {
    expect(
      gcsConditionAdmits(
        "resource.name.startsWith('projects/_/buckets/b/objects/a/')",
        'projects/_/buckets/b/objects/a/x',
      ),
    ).toBe(true);
    expect(
      gcsConditionAdmits("resource.name == 'projects/_/buckets/b'", 'projects/_/buckets/b/objects/x'),
    ).toBe(false);
    const condition = `((!(ActionMatches{'${BLOBS}/read'} AND NOT SubOperationMatches{'Blob.List'}) AND !(ActionMatches{'${BLOBS}/write'})) OR (@Resource[${BLOBS}:path] StringStartsWith 'a/'))`;
    expect(abacAdmits(condition, `${BLOBS}/read`, 'Blob.List', '')).toBe(true);
    expect(abacAdmits(condition, `${BLOBS}/read`, undefined, 'b/x')).toBe(false);
    expect(abacAdmits(condition, `${BLOBS}/write`, undefined, 'a/x')).toBe(true);
    expect(abacAdmits(condition, `${BLOBS}/delete`, undefined, 'b/x')).toBe(true);
    expect(() => abacAdmits('true', `${BLOBS}/read`, undefined, 'x')).toThrow('unexpected condition');
  });
});

describe('bad state backend settings are refused, naming the key, the value and what is allowed', () => {
  it.each([
    [
      'a gs:// URL for the bucket',
      { 'bootstrap:gcp': { ...STATE_KEYS['bootstrap:gcp'], stateBucket: 'gs://acme-state' } },
      'bootstrap:gcp.stateBucket',
      'gs://acme-state',
      "allowed: the name of the Cloud Storage bucket of the GCP stacks' self-managed Pulumi state backend (gs://<bucket>)",
    ],
    [
      'a bucket name with google in it',
      { 'bootstrap:gcp': { ...STATE_KEYS['bootstrap:gcp'], stateBucket: 'my-google-state' } },
      'bootstrap:gcp.stateBucket',
      'my-google-state',
      "no 'goog' prefix, no 'google'",
    ],
    [
      'a storage account name instead of its ID',
      {
        'bootstrap:azure': {
          ...STATE_KEYS['bootstrap:azure'],
          stateContainer: { ...CONTAINER, storageAccountId: 'acmestate' },
        },
      },
      'bootstrap:azure.stateContainer.storageAccountId',
      'acmestate',
      'allowed: the ARM resource ID of the storage account that holds the state container: /subscriptions/',
    ],
    [
      'a container name with capitals',
      {
        'bootstrap:azure': {
          ...STATE_KEYS['bootstrap:azure'],
          stateContainer: { ...CONTAINER, container: 'State' },
        },
      },
      'bootstrap:azure.stateContainer.container',
      'State',
      "allowed: the name of the state container: 3-63 lowercase letters, digits and '-'",
    ],
    [
      'a container without its storage account',
      {
        'bootstrap:azure': {
          ...STATE_KEYS['bootstrap:azure'],
          stateContainer: { container: 'pulumi-state' },
        },
      },
      'bootstrap:azure.stateContainer.storageAccountId',
      undefined,
      'is required: the ARM resource ID of the storage account',
    ],
    [
      'a misspelt key of the container',
      {
        'bootstrap:azure': {
          ...STATE_KEYS['bootstrap:azure'],
          stateContainer: { ...CONTAINER, containr: 'x' },
        },
      },
      'bootstrap:azure.stateContainer.containr',
      undefined,
      "unknown key; did you mean 'container'? known keys here: storageAccountId, container",
    ],
  ])('%s', async (_case, overrides, path, value, message) => {
    const failure = await renderFailure(overrides);
    expect(failure.cause).toBeInstanceOf(ConfigError);
    const issues = (failure.cause as ConfigError).issues;
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ path, value });
    expect(issues[0]?.message).toContain(message);
    expect(failure.resources.filter((registered) => registered.custom)).toEqual([]);
  });
});
