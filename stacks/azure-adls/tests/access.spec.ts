import { analyzeAccess } from '@checkpoints/analysis';
import { checkpointWriterRoleGuid } from '@checkpoints/config';
import { ofType, type Snapshot } from '@checkpoints/synth';
import { roleAssignmentName } from '../src/role-assignment';
import { sharedRenderStack, SUBSCRIPTION, T } from './render';

const FILESYSTEM_ID =
  `/subscriptions/${SUBSCRIPTION}/resourceGroups/checkpoints-azure-dev-1592ff/providers/Microsoft.Storage` +
  '/storageAccounts/azuredevllmb6ad56/blobServices/default/containers/checkpoints-llm';
const roleDefinition = (guid: string) =>
  `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
const WRITER = roleDefinition(checkpointWriterRoleGuid(SUBSCRIPTION));
const READER = roleDefinition('2a2b9908-6ea1-4ae2-8e65-a410df84e7d1');
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const pipeline = 'c56a4180-65aa-42ec-a945-5fd21dec0538';
const evalGroup = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const alice = '0f8fad5b-d9cb-469f-a165-70867728950e';

const withAccess = (access: Record<string, string[]>) =>
  sharedRenderStack({ stores: [{ name: 'llm', dataClassification: 'internal', access }] });

/** Each assignment as `name: role on scope for principal (type)`; principals of store identities by resource name. */
function assignments(snapshot: Snapshot): string[] {
  const identityByUrn = new Map(
    ofType(snapshot, T.identity).map((identity) => [identity.urn, identity.name]),
  );
  return ofType(snapshot, T.roleAssignment).map((assignment) => {
    const { roleDefinitionId, scope, principalId, principalType } = assignment.inputs;
    const identity = assignment.dependsOn.map((urn) => identityByUrn.get(urn)).find(Boolean);
    const role =
      roleDefinitionId === WRITER ? 'writer role' : roleDefinitionId === READER ? 'reader' : roleDefinitionId;
    const where = scope === FILESYSTEM_ID ? 'filesystem' : scope;
    return `${assignment.name}: ${role} on ${where} for ${identity ?? principalId} (${principalType})`;
  });
}

// Assignments whose principal is another resource's output register later than the others.
const sorted = (lines: string[]) => [...lines].sort();

describe('filesystem role assignments', () => {
  it('give the writer identity the Checkpoint Store Writer role and the reader Storage Blob Data Reader, on the filesystem only', async () => {
    expect(assignments(await withAccess({})).sort()).toEqual(
      sorted([
        'llm-writer-identity: writer role on filesystem for llm-writer (ServicePrincipal)',
        'llm-reader-identity: reader on filesystem for llm-reader (ServicePrincipal)',
      ]),
    );
  });

  it('give access.writers and access.readers the same roles, with their principal types', async () => {
    const snapshot = await withAccess({
      writers: [`servicePrincipal:${pipeline}`],
      readers: [`group:${evalGroup}`, `user:${alice.toUpperCase()}`],
    });
    expect(assignments(snapshot).sort()).toEqual(
      sorted([
        'llm-writer-identity: writer role on filesystem for llm-writer (ServicePrincipal)',
        'llm-reader-identity: reader on filesystem for llm-reader (ServicePrincipal)',
        `llm-writer-${pipeline}: writer role on filesystem for ${pipeline} (ServicePrincipal)`,
        `llm-reader-${evalGroup}: reader on filesystem for ${evalGroup} (Group)`,
        `llm-reader-${alice}: reader on filesystem for ${alice} (User)`,
      ]),
    );
  });

  it('describe what each assignment is for', async () => {
    const snapshot = await withAccess({ readers: [`group:${evalGroup}`] });
    const descriptions = ofType(snapshot, T.roleAssignment).map(
      (a) => `${a.name}: ${a.inputs['description']}`,
    );
    expect(descriptions.sort()).toEqual(
      sorted([
        'llm-writer-identity: checkpoint store llm: writer (Checkpoint Store Writer)',
        'llm-reader-identity: checkpoint store llm: reader (Storage Blob Data Reader)',
        `llm-reader-${evalGroup}: checkpoint store llm: reader (Storage Blob Data Reader)`,
      ]),
    );
  });

  it('grant no other role anywhere in the stack', async () => {
    const snapshot = await sharedRenderStack(
      {
        environment: 'prod',
        stores: [
          { name: 'llm', dataClassification: 'internal', access: { writers: [`user:${alice}`] } },
          {
            name: 'fast',
            dataClassification: 'internal',
            tier: 'high-throughput',
            retention: { expireAfterDays: 7 },
          },
        ],
      },
      'prod',
    );
    const roles = new Set(ofType(snapshot, T.roleAssignment).map((a) => a.inputs['roleDefinitionId']));
    expect([...roles].sort()).toEqual(
      [WRITER, READER, roleDefinition('e147488a-f6f5-4113-8e2d-b22465e65bf6')].sort(),
    );
  });
});

describe('what the store identities can do (the access model)', () => {
  it('the writer reads, writes and deletes checkpoints but cannot delete the filesystem; the reader only reads', async () => {
    const snapshot = await withAccess({});
    const [store] = (await analyzeAccess(snapshot)).stores;
    const operations = (label: string) =>
      (store?.grants ?? [])
        .filter((grant) => grant.principal.label === label)
        .map((grant) => grant.operation)
        .sort();
    expect([operations('writer'), operations('reader')]).toEqual([['delete', 'read', 'write'], ['read']]);
  });
});

describe('role assignment names', () => {
  it('are GUIDs derived from scope, role and principal, so re-runs and reordered lists find the same ones', async () => {
    const nameByResource = async (writers: string[]) =>
      Object.fromEntries(
        ofType(await withAccess({ writers }), T.roleAssignment).map((a) => [
          a.name,
          a.inputs['roleAssignmentName'],
        ]),
      );
    const first = await nameByResource([`user:${alice}`, `servicePrincipal:${pipeline}`]);
    expect(await nameByResource([`servicePrincipal:${pipeline}`, `user:${alice}`])).toEqual(first);
    const names = Object.values(first) as string[];
    expect(new Set(names).size).toBe(4);
    names.forEach((name) => expect(name).toMatch(GUID));
    expect(first[`llm-writer-${alice}`]).toBe(roleAssignmentName(FILESYSTEM_ID, WRITER, alice));
  });

  it.each([
    ['/subscriptions/s/resourceGroups/rg/x', '/r/ba92f5b4', 'aaaa', '4e9ab43f-faa3-b859-9a24-d0568b040084'],
    ['/SUBSCRIPTIONS/S/RESOURCEGROUPS/RG/X', '/R/BA92F5B4', 'AAAA', '4e9ab43f-faa3-b859-9a24-d0568b040084'],
    ['/subscriptions/s/resourceGroups/rg/x', '/r/2a2b9908', 'aaaa', '73a51f69-bbd0-dfe0-dee3-dc1f3c312925'],
  ])('never change for the same assignment, whatever the case: %s %s %s', (scope, role, principal, name) => {
    expect(roleAssignmentName(scope, role, principal)).toBe(name);
  });
});
