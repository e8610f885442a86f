import { azureRoleAllows, azureRoleDefinitionsOf, missingDeployRights } from '@checkpoints/analysis';
import { type RenderedResource } from '@checkpoints/render';
import { CHECKPOINT_WRITER_ROLE } from '@checkpoints/config';
import { ofType, type Snapshot } from '@checkpoints/synth';
import { renderBootstrap, SUBSCRIPTION } from './helpers';

/**
 * The retention lock of an Azure store (a container time-based immutability policy, unlocked): CI creates it
 * and changes its days, and nobody the stack or the bootstrap makes can lift it (immutabilityPolicies/delete)
 * or make it irreversible (immutabilityPolicies/lock/action), judged on the role definitions themselves
 * (the bootstrap's custom roles, Azure's published built-ins: libs/analysis/data/azure-roles.json).
 */
const POLICIES = 'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies';
const [WRITE, READ, LIFT, LOCK, EXTEND] = ['write', 'read', 'delete', 'lock/action', 'extend/action'].map(
  (verb) => `${POLICIES}/${verb}`,
) as [string, string, string, string, string];
const BLOB_DATA_READER = '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1';
const GROUP = (environment: string) =>
  `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-checkpoints-${environment}`;
const POLICY_ID = (environment: string) =>
  `${GROUP(environment)}/providers/Microsoft.Storage/storageAccounts/${environment}llm/blobServices/default/containers/checkpoints-llm/immutabilityPolicies/default`;

/** The actions of `candidates` that some role assigned to the CI identity `purpose` allows on `resource`. */
function heldBy(snapshot: Snapshot, purpose: string, resource: string, candidates: readonly string[]) {
  const roles = azureRoleDefinitionsOf(snapshot.resources);
  const assignments = ofType(snapshot, 'azure-native:authorization:RoleAssignment').filter(
    (a) =>
      String(a.inputs['description'] ?? '').startsWith(`CI ${purpose} of `) &&
      resource.toLowerCase().startsWith(String(a.inputs['scope']).toLowerCase()),
  );
  return candidates.filter((action) =>
    assignments.some((a) =>
      azureRoleAllows(roles.get(String(a.inputs['roleDefinitionId']).split('/').pop()!), action, false),
    ),
  );
}

function policy(environment: string, options: Partial<RenderedResource>): RenderedResource {
  return {
    urn: `urn:pulumi:${environment}::checkpoints-azure::azure-native:storage:BlobContainerImmutabilityPolicy::llm`,
    type: 'azure-native:storage:BlobContainerImmutabilityPolicy',
    name: 'llm',
    custom: true,
    parent: null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs: {
      resourceGroupName: `rg-checkpoints-${environment}`,
      accountName: `${environment}llm`,
      containerName: 'checkpoints-llm',
      immutabilityPolicyName: 'default',
      immutabilityPeriodSinceCreationInDays: 365,
    },
    ...options,
  };
}

describe('Azure retention lock: who may create, lift or lock it', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap();
  });

  it.each(['dev', 'prod'])(
    '%s: the deploy identity creates and reads the policy, and can neither lift, lock nor extend it',
    (environment) => {
      expect(
        heldBy(snapshot, `deploy-${environment}`, POLICY_ID(environment), [WRITE, READ, LIFT, LOCK, EXTEND]),
      ).toEqual([WRITE, READ]);
    },
  );

  it('the preview identity reads the policy, and changes nothing of it', () => {
    for (const environment of ['dev', 'prod'])
      expect(heldBy(snapshot, 'preview', POLICY_ID(environment), [WRITE, READ, LIFT, LOCK, EXTEND])).toEqual([
        READ,
      ]);
  });

  it("the store's writer and reader roles hold no right on the policy", () => {
    const reader = azureRoleDefinitionsOf([]).get(BLOB_DATA_READER);
    expect(reader?.roleName).toBe('Storage Blob Data Reader');
    for (const role of [CHECKPOINT_WRITER_ROLE, reader])
      expect(
        [WRITE, READ, LIFT, LOCK, EXTEND].filter((action) => azureRoleAllows(role, action, false)),
      ).toEqual([]);
  });

  it.each(['dev', 'prod'])(
    '%s: the rights check asks only for the delete of a policy that is not retained, and nothing for the retained one the stack renders',
    async (environment) => {
      const missing = async (resource: RenderedResource) =>
        (await missingDeployRights('azure', { resources: [resource] }, snapshot, environment)).map(
          (right) => `${right.identity} ${right.operation} ${right.permission} on ${right.on}`,
        );
      expect(await missing(policy(environment, {}))).toEqual([
        `ci deploy-${environment} delete ${LIFT} on ${POLICY_ID(environment)}`,
      ]);
      expect(await missing(policy(environment, { retainOnDelete: true }))).toEqual([]);
    },
  );
});
