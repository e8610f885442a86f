import type { Render } from '@checkpoints/render';
import { awsCiTrust } from './aws';
import type { IdentityTrust } from './model';

export * from './model';
export { awsCiTrust } from './aws';

/** The trust of every CI identity the bootstrap render holds, on every cloud it renders. */
export function ciTrustOf(bootstrap: Pick<Render, 'resources'>): IdentityTrust[] {
  return [...awsCiTrust(bootstrap.resources)];
}
