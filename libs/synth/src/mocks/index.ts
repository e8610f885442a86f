import type { Mocks, MockCallArgs, MockResourceArgs } from '@pulumi/pulumi/runtime/mocks';
import { awsMocks } from './aws';
import { armId, azureMocks } from './azure';
import type { CloudMocks, MockState } from './common';
import { gcpMocks } from './gcp';
import { identityMocks } from './identity';

export { AWS_ACCOUNT_ID } from './aws';
export { AZURE_SUBSCRIPTION_ID, AZURE_TENANT_ID } from './azure';
export { GCP_PROJECT_NUMBER } from './gcp';
export { digest, guid } from './common';

/**
 * Deterministic stand-ins for what providers compute (IDs, ARNs, emails, principal IDs), in each
 * cloud's real format, so rendered policies and scopes read like the real thing.
 */
export class SynthMocks implements Mocks {
  private readonly clouds: CloudMocks[];

  constructor(private readonly config: Record<string, string>) {
    this.clouds = [awsMocks(config), gcpMocks(config), azureMocks(config), identityMocks(config)];
  }

  newResource(args: MockResourceArgs): MockState {
    for (const cloud of this.clouds) {
      const mock = cloud.resources[args.type];
      const result = mock?.(args);
      if (result) return result;
    }
    if (args.type.startsWith('azure-native:')) {
      return { id: armId(args.type, args.name, args.inputs, this.config), state: { ...args.inputs } };
    }
    return { id: `${args.name}-id`, state: { ...args.inputs } };
  }

  call(args: MockCallArgs): Record<string, unknown> {
    for (const cloud of this.clouds) {
      const mock = cloud.calls[args.token];
      const result = mock?.(args);
      if (result) return result;
    }
    throw new Error(
      `synth has no offline answer for the call '${args.token}'; add one in libs/synth/src/mocks so it renders deterministically`,
    );
  }
}
