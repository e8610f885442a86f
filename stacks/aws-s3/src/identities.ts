import * as pulumi from '@pulumi/pulumi';
import { Role } from '@pulumi/aws/iam/role';
import { RolePolicy } from '@pulumi/aws/iam/rolePolicy';
import { names } from '@checkpoints/naming';
import {
  awsStoreAccessPolicy,
  awsTrustPolicy,
  type AwsStoreTarget,
  type AwsStorePurpose,
} from '@checkpoints/translate';
import type { StoreScope } from './scope';

const DESCRIPTIONS: Record<AwsStorePurpose, string> = {
  writer: 'Writes and reads the checkpoints of store',
  reader: 'Reads the checkpoints of store',
};

export interface StoreRoleArgs {
  /** Trusted when the store lists no principals for the role (see awsTrustPolicy). */
  accountRootArn: pulumi.Input<string>;
  /** The stack's role permissions boundary: the most the role may ever do, whatever its own policy says. */
  boundaryArn: pulumi.Input<string>;
}

/**
 * The store's writer or reader role: assumable by the configured principals only, allowed on this
 * store only, through an inline policy that lives and dies with the role (no access keys, no users),
 * and capped by the stack's permissions boundary, without which CI's deploy identity may create no role.
 */
export function createStoreRole(
  scope: StoreScope,
  purpose: AwsStorePurpose,
  target: pulumi.Output<AwsStoreTarget>,
  { accountRootArn, boundaryArn }: StoreRoleArgs,
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
      permissionsBoundary: boundaryArn,
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
