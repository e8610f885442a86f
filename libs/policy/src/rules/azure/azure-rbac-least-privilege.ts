import { read, state, UNKNOWN } from '../inputs';
import {
  azureResourceRule,
  isGuid,
  oneOf,
  ROLE_GRANT_TYPES,
  roleGuidOf,
  roleLabel,
  ROLES,
  type Role,
} from './support';

/** Roles never granted by a checkpoint stack: each one reaches keys, data or other principals' access. */
export const PRIVILEGED_ROLES: readonly Role[] = [
  ROLES.owner,
  ROLES.contributor,
  ROLES.userAccessAdministrator,
  ROLES.storageAccountKeyOperator,
  ROLES.storageBlobDataOwner,
];

export const azureRbacLeastPrivilege = azureResourceRule({
  name: 'azure-rbac-least-privilege',
  description: `Role assignments (and PIM role eligibilities) never grant ${oneOf(PRIVILEGED_ROLES)}; Role Based Access Control Administrator only with a condition limiting the roles it may assign; and the principal is a Microsoft Entra object ID`,
  source:
    'Microsoft cloud security benchmark PA-7 (just enough administration); Microsoft Learn: Best practices for Azure RBAC (limit privileged administrator role assignments; delegate role assignment management with conditions)',
  types: ROLE_GRANT_TYPES,
  validate: (props, _args, report) => {
    const role = roleGuidOf(read(props, 'roleDefinitionId'));
    if (role !== UNKNOWN && role !== undefined) {
      if (PRIVILEGED_ROLES.some((privileged) => privileged.id === role)) {
        report(
          `roleDefinitionId grants ${roleLabel(role)}; expected a narrower role (never ${oneOf(PRIVILEGED_ROLES)})`,
        );
      }
      if (role === ROLES.rbacAdministrator.id) {
        const condition = read(props, 'condition');
        if (condition !== UNKNOWN && (typeof condition !== 'string' || condition.trim() === '')) {
          report(
            `roleDefinitionId grants ${roleLabel(role)} and condition ${state(condition)}; expected a condition limiting the roles it may assign (without one it can grant Owner)`,
          );
        }
      }
    }
    const principal = read(props, 'principalId');
    if (
      principal !== UNKNOWN &&
      principal !== undefined &&
      !(typeof principal === 'string' && isGuid(principal))
    ) {
      report(`principalId ${state(principal)}; expected a Microsoft Entra object ID (a GUID)`);
    }
  },
});
