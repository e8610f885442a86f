import type { Cloud } from '@checkpoints/config';
import type { AnalysisContext } from '../context';
import type { Render } from '@checkpoints/render';
import { awsMissingRights } from './aws';
import { azureMissingRights } from './azure';
import { gcpMissingRights } from './gcp';
import type { MissingRight, RightsInput } from './model';

export * from './model';
export {
  AWS_RIGHTS,
  awsDeployRequests,
  CI_UNREFRESHED_TYPES,
  DIRECTORY_BUCKET_KEY_DEMANDS,
  KEY_POLICY_DEMANDS,
} from './aws';
export { GCP_RIGHTS } from './gcp';
export {
  AZURE_ROLE_PROPAGATION_SECONDS,
  goDurationSeconds,
  AZURE_RIGHTS,
  azureRegisteredProviders,
  azureResourceProviderOf,
} from './azure';

const BY_CLOUD: Record<Cloud, (input: RightsInput) => Promise<MissingRight[]>> = {
  aws: awsMissingRights,
  gcp: gcpMissingRights,
  azure: azureMissingRights,
};

/**
 * Every permission a deploy of `render` needs (create, update, delete, read of each rendered resource, and
 * the linked authorizations) that the environment's deploy identity in `bootstrap` lacks, and every read
 * the preview identity lacks (refresh and drift).
 */
export function missingDeployRights(
  cloud: Cloud,
  render: Pick<Render, 'resources'>,
  bootstrap: Pick<Render, 'resources'>,
  environment: string,
  context?: AnalysisContext,
): Promise<MissingRight[]> {
  return BY_CLOUD[cloud]({ render, bootstrap, environment, ...(context ? { context } : {}) });
}
