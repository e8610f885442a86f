import type { Render } from '@checkpoints/render';
import { awsCiTrust } from './aws';
import { azureCiTrust } from './azure';
import { gcpCiRepository, gcpCiTrust } from './gcp';
import { repositoryOf, type IdentityTrust, type RepositoryRef } from './model';

export * from './model';
export { awsCiTrust } from './aws';
export { azureCiChanges, azureCiTrust } from './azure';
export { gcpCiChanges, gcpCiRepository, gcpCiTrust } from './gcp';

/** The trust of every CI identity the bootstrap render holds, on every cloud it renders. */
export function ciTrustOf(bootstrap: Pick<Render, 'resources'>): IdentityTrust[] {
  const { resources } = bootstrap;
  return [...awsCiTrust(resources), ...gcpCiTrust(resources), ...azureCiTrust(resources)];
}

/**
 * This repository as the trust probes name it: the one repository every path names, with the immutable
 * IDs the GCP providers' attribute conditions pin (a token of other IDs is another repository's).
 */
export function ciRepositoryOf(
  bootstrap: Pick<Render, 'resources'>,
  trusts: readonly IdentityTrust[],
): RepositoryRef | { why: string } {
  const named = repositoryOf(trusts);
  return 'repository' in named ? gcpCiRepository(bootstrap.resources, named.repository) : named;
}
