import * as pulumi from '@pulumi/pulumi';
import { Role } from '@pulumi/aws/iam/role';
import { RolePolicy } from '@pulumi/aws/iam/rolePolicy';
import { names } from '@checkpoints/naming';
import {
  awsStoreAccessPolicy,
  awsTrustPolicy,
  type AwsStoreTarget,
  type AwsStorePurpose,
} from '@checkpoints/policy';
import type { StoreScope } from './scope';

const DESCRIPTIONS: Record<AwsStorePurpose, string> = {
  writer: 'Writes and reads the checkpoints of store',
  reader: 'Reads the checkpoints of store',
};

/**
 * The store's writer or reader role: assumable by the configured principals only, allowed on this
 * store only, through an inline policy that lives and dies with the role (no access keys, no users).
 */
export function createStoreRole(
  scope: StoreScope,
  purpose: AwsStorePurpose,
  target: pulumi.Output<AwsStoreTarget>,
  accountRootArn: pulumi.Input<string>,
): Role {
  const { store, parent } = scope;
  const principals = purpose === 'writer' ? store.access.writers : store.access.readers;
  const role = new Role(
    `${store.name}-${purpose}`,
    {
      name: names.iamRole(scope.nameContext, purpose),
      description: `${DESCRIPTIONS[purpose]} ${store.name} (${scope.nameContext.project}/${scope.nameContext.stack})`,
      assumeRolePolicy: pulumi
        .output(accountRootArn)
        .apply((root) => JSON.stringify(awsTrustPolicy(principals, root))),
      tags: scope.tags,
    },
    { parent },
  );
  new RolePolicy(
    `${store.name}-${purpose}-access`,
    {
      name: `checkpoint-store-${purpose}`,
      role: role.name,
      policy: target.apply((resolved) => JSON.stringify(awsStoreAccessPolicy(purpose, resolved))),
    },
    { parent },
  );
  return role;
}
