import type { AnalysisContext } from '../context';
import type { Render, RenderedResource } from '@checkpoints/render';

/** What Pulumi asks the provider to do with a resource: each needs its own cloud permissions. */
export type RightsOperation = 'create' | 'update' | 'delete' | 'read';

/** The permissions one resource type needs, per operation, with where that comes from. */
export interface ResourceRights {
  create: readonly string[];
  update: readonly string[];
  delete: readonly string[];
  read: readonly string[];
  /** The page that says which calls (and so which permissions) the provider makes. */
  source: string;
}

/** A right on another resource than the one being deployed: the identity, key or network it is attached to. */
export interface LinkedRight {
  operation: RightsOperation;
  permission: string;
  /** The resource the permission is needed on, in the cloud's identifier. */
  on: string;
  why: string;
}

export interface MissingRight {
  /** The resource being deployed: its type and name. */
  resource: string;
  operation: RightsOperation;
  permission: string;
  /** The cloud identifier of what the permission is needed on. */
  on: string;
  /**
   * `ci deploy-<env>` or `ci preview`; for what an API demands of another identity than the caller (the
   * identity a resource acts through), that identity.
   */
  identity: string;
  /**
   * Set when the identity holds the permission but its call cannot reach the API from where CI runs
   * (`checkpoints:ciRunners`): the perimeter rule that blocks it.
   */
  blockedBy?: string;
  /**
   * Set when the call needs more than a right of its caller: what the API demands before it can succeed that
   * the render does not ensure (a role assigned in the same deploy that is not yet in effect when the call is
   * made, a resource provider the subscription is not registered for).
   */
  unmet?: string;
}

export interface RightsInput {
  render: Pick<Render, 'resources'>;
  bootstrap: Pick<Render, 'resources'>;
  environment: string;
  /** The analysis of these renders, whose IAM answers the rights share; a new one without. */
  context?: AnalysisContext;
}

/**
 * The deploy identity needs every operation of what it manages, but deletion of a protected or retained
 * resource: Pulumi refuses to delete a protected one until an administrator unprotects it (break-glass),
 * and only forgets a retained one (https://www.pulumi.com/docs/iac/concepts/options/protect/,
 * https://www.pulumi.com/docs/iac/concepts/options/retainondelete/).
 */
export function neededOperations(resource: RenderedResource): RightsOperation[] {
  return resource.protect || resource.retainOnDelete
    ? ['create', 'update', 'read']
    : ['create', 'update', 'delete', 'read'];
}
