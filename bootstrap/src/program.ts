import * as pulumi from '@pulumi/pulumi';
import type { Environment } from '@checkpoints/config';
import { AwsCiIdentities } from './aws/ci-identities';
import { AzureCiIdentities } from './azure/ci-identities';
import { loadBootstrapConfig, type BootstrapConfig } from './config';
import { GcpCiIdentities } from './gcp/ci-identities';
import type { CiIdentities, CiIdentityArgs } from './identity-args';
import { checkCiNames, type BootstrapContext } from './names';
import { ciTags } from './tags';

/** Where Pulumi reads this project's stack config from (`stackConfigDir` of the root Pulumi.yaml). */
export const STACK_CONFIG_DIR = 'bootstrap';

/**
 * The CI identities of every cloud in `bootstrap:clouds`. Returns the stack outputs: one per GitHub
 * repository variable the workflows read, named as that variable.
 */
export function bootstrapStack(): Record<string, pulumi.Output<string>> {
  const context: BootstrapContext = { project: pulumi.getProject(), stack: pulumi.getStack() };
  const config = loadBootstrapConfig(
    pulumi.runtime.allConfig(),
    `${STACK_CONFIG_DIR}/Pulumi.${context.stack}.yaml`,
  );
  checkCiNames(context, config.clouds, config.environments);
  const common: CiIdentityArgs = {
    context,
    repository: config.repository,
    environments: config.environments,
    tags: (environment?: Environment) => ciTags(config, context, environment),
  };
  const identities = cloudIdentities(config, common);
  return Object.fromEntries(identities.flatMap((cloud) => Object.entries(cloud.variables)));
}

function cloudIdentities(config: BootstrapConfig, common: CiIdentityArgs): CiIdentities[] {
  const identities: CiIdentities[] = [];
  if (config.aws) {
    const { oidcProviderArn, stateBucket, region } = config.aws;
    identities.push(
      new AwsCiIdentities('aws', {
        ...common,
        region,
        ...(oidcProviderArn ? { oidcProviderArn } : {}),
        ...(stateBucket ? { stateBucket } : {}),
      }),
    );
  }
  if (config.gcp) identities.push(new GcpCiIdentities('gcp', { ...common, settings: config.gcp }));
  if (config.azure) identities.push(new AzureCiIdentities('azure', { ...common, settings: config.azure }));
  return identities;
}
