import type * as pulumi from '@pulumi/pulumi';
import type { Environment } from '@checkpoints/config';
import type { Tags } from '@checkpoints/tagging';
import type { Repository } from './config';
import type { BootstrapContext } from './names';

/** What every cloud's CI identities are built from. */
export interface CiIdentityArgs {
  context: BootstrapContext;
  repository: Repository;
  environments: readonly Environment[];
  /** The standard tags: of a deploy identity's environment, or of the resources every environment shares. */
  tags(environment?: Environment): Tags;
}

/** A cloud's CI identities: the repository variables the workflows read, by name. */
export interface CiIdentities {
  readonly variables: Record<string, pulumi.Output<string>>;
}
