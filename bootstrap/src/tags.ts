import { ENVIRONMENTS, type Environment } from '@checkpoints/config';
import { standardTags, type Tags } from '@checkpoints/tagging';
import type { BootstrapConfig } from './config';
import type { BootstrapContext } from './names';

/**
 * The standard tags of a CI resource (no store: these serve every store). A deploy identity is tagged with
 * the environment it deploys; the trust anchors and the preview identity serve every environment, so they
 * carry the most sensitive one among them.
 */
export function ciTags(config: BootstrapConfig, ctx: BootstrapContext, environment?: Environment): Tags {
  return standardTags({
    owner: config.owner,
    costCenter: config.costCenter,
    environment: environment ?? mostSensitive(config.environments),
    dataClassification: 'internal',
    project: ctx.project,
    stack: ctx.stack,
  });
}

function mostSensitive(environments: readonly Environment[]): Environment {
  const rank = Math.max(...environments.map((environment) => ENVIRONMENTS.indexOf(environment)));
  return ENVIRONMENTS[rank] ?? 'prod';
}
