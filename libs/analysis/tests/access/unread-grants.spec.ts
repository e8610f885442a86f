import { analyzeAccess, OPERATIONS, unreadGrantType } from '../../src';
import { renderOf, resource } from './fixtures';

/**
 * Grant resources the access models do not read fail closed: each counts as granting every operation to an
 * unknown principal (who may be CI), named by type and resource; the types the models read are judged by
 * them instead, and the types that only look like grants are left alone.
 */
describe('unread grant types', () => {
  it.each([
    ['gcp', 'gcp:iam/projectsPolicyBinding:ProjectsPolicyBinding'],
    ['gcp', 'gcp:iam/foldersPolicyBinding:FoldersPolicyBinding'],
    ['gcp', 'gcp:iam/principalAccessBoundaryPolicy:PrincipalAccessBoundaryPolicy'],
    ['gcp', 'gcp:storage/bucketAccessControl:BucketAccessControl'],
    ['gcp', 'gcp:storage/defaultObjectAccessControl:DefaultObjectAccessControl'],
    ['gcp', 'gcp:storage/objectAccessControl:ObjectAccessControl'],
    ['gcp', 'gcp:storage/bucketACL:BucketACL'],
    ['gcp', 'gcp:storage/managedFolderIamMember:ManagedFolderIamMember'],
    ['gcp', 'gcp:iam/workloadIdentityPoolIamMember:WorkloadIdentityPoolIamMember'],
    ['aws', 'aws:s3/accessPoint:AccessPoint'],
    ['aws', 'aws:s3control/accessPointPolicy:AccessPointPolicy'],
    ['aws', 'aws:s3control/bucketPolicy:BucketPolicy'],
    ['aws', 'aws:s3control/accessGrant:AccessGrant'],
    ['aws', 'aws:s3/bucketAclV2:BucketAclV2'],
    ['aws', 'aws:lakeformation/permissions:Permissions'],
    ['aws', 'aws:lakeformation/resource:Resource'],
    ['azure', 'azure-native:authorization:PimRoleEligibilitySchedule'],
    ['azure', 'azure-native:authorization:RoleManagementPolicyAssignment'],
    ['azure', 'azure-native:storage:LocalUser'],
    ['azure', 'azure-native:keyvault:AccessPolicy'],
  ] as const)('%s %s is an unread grant type', (cloud, type) => {
    expect(unreadGrantType(cloud, type)).toBe(true);
  });

  it.each([
    ['gcp', 'gcp:projects/iAMMember:IAMMember'],
    ['gcp', 'gcp:projects/iAMBinding:IAMBinding'],
    ['gcp', 'gcp:projects/iAMPolicy:IAMPolicy'],
    ['gcp', 'gcp:folder/iAMMember:IAMMember'],
    ['gcp', 'gcp:organizations/iAMPolicy:IAMPolicy'],
    ['gcp', 'gcp:serviceaccount/iAMMember:IAMMember'],
    ['gcp', 'gcp:storage/bucketIAMMember:BucketIAMMember'],
    ['gcp', 'gcp:storage/bucketIAMBinding:BucketIAMBinding'],
    ['gcp', 'gcp:storage/bucketIAMPolicy:BucketIAMPolicy'],
    ['gcp', 'gcp:kms/keyRingIAMBinding:KeyRingIAMBinding'],
    ['gcp', 'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember'],
    ['gcp', 'gcp:iam/denyPolicy:DenyPolicy'],
    ['gcp', 'gcp:projects/iAMCustomRole:IAMCustomRole'],
    ['gcp', 'gcp:projects/iAMAuditConfig:IAMAuditConfig'],
    ['gcp', 'gcp:orgpolicy/policy:Policy'],
    ['gcp', 'gcp:storage/bucket:Bucket'],
    ['aws', 'aws:iam/rolePolicy:RolePolicy'],
    ['aws', 'aws:iam/rolePolicyAttachment:RolePolicyAttachment'],
    ['aws', 'aws:iam/policyAttachment:PolicyAttachment'],
    ['aws', 'aws:iam/userPolicyAttachment:UserPolicyAttachment'],
    ['aws', 'aws:iam/policy:Policy'],
    ['aws', 'aws:s3/bucketPolicy:BucketPolicy'],
    ['aws', 'aws:kms/key:Key'],
    ['aws', 'aws:kms/grant:Grant'],
    ['aws', 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock'],
    ['azure', 'azure-native:authorization:RoleAssignment'],
    ['azure', 'azure-native:authorization:RoleDefinition'],
    ['azure', 'azure-native:authorization:PolicyAssignment'],
    ['azure', 'azure-native:authorization:ManagementLockByScope'],
    ['azure', 'azure-native:keyvault:Vault'],
    ['azure', 'azure-native:storage:BlobContainerImmutabilityPolicy'],
    ['azure', 'azure-native:storage:ManagementPolicy'],
    // Another cloud's grant says nothing of this cloud's stores.
    ['aws', 'gcp:storage/bucketAccessControl:BucketAccessControl'],
  ] as const)('%s %s is read by its model or grants nothing', (cloud, type) => {
    expect(unreadGrantType(cloud, type)).toBe(false);
  });

  it('counts an unread grant on a store as every operation for an unknown principal, naming type and resource', async () => {
    const render = renderOf({ type: 'checkpoints:gcp:CheckpointStore' }, [
      resource('gcp:storage/bucket:Bucket', 'ckpt-bucket', { name: 'ckpt', labels: { environment: 'prod' } }),
      resource('gcp:storage/bucketAccessControl:BucketAccessControl', 'ckpt-acl', {
        bucket: 'ckpt',
        role: 'OWNER',
        entity: 'allAuthenticatedUsers',
      }),
    ]);
    const [store] = (await analyzeAccess(render)).stores;
    const unknown = store?.grants.filter((grant) => grant.principal.kind === 'unknown') ?? [];
    expect(unknown.map((grant) => grant.operation)).toEqual([...OPERATIONS]);
    expect(unknown[0]?.reason).toBe(
      'gcp:storage/bucketAccessControl:BucketAccessControl ckpt-acl is a grant type the access analysis does not read: counted as granting every operation to an unknown principal, who may be a CI identity',
    );
  });

  it('counts an unread grant of the bootstrap render too: it may grant CI', async () => {
    const render = renderOf({ type: 'checkpoints:aws:CheckpointStore' }, [
      resource('aws:s3/bucket:Bucket', 'ckpt-bucket', { bucket: 'ckpt', tags: { environment: 'prod' } }),
    ]);
    const bootstrap = renderOf({ type: 'checkpoints:bootstrap:AwsCiIdentities', name: 'aws' }, [
      resource('aws:lakeformation/permissions:Permissions', 'deploy-prod-lake', { permissions: ['ALL'] }),
    ]);
    const [store] = (await analyzeAccess(render, bootstrap)).stores;
    expect(
      store?.grants.some(
        (grant) =>
          grant.principal.kind === 'unknown' &&
          grant.operation === 'read' &&
          grant.reason.startsWith('aws:lakeformation/permissions:Permissions deploy-prod-lake '),
      ),
    ).toBe(true);
  });
});
