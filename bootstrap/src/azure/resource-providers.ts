import type * as ChildProcess from 'node:child_process';
import * as pulumi from '@pulumi/pulumi';
import { AZURE_RESOURCE_PROVIDERS } from '@checkpoints/render';

/**
 * Registering a resource provider is a subscription-scope action, `Microsoft.<namespace>/register/action`
 * ("Before you use a resource provider, you must make sure your Azure subscription is registered for the
 * resource provider", "To register a resource provider, you must have permission to do the
 * /register/action operation for the resource provider. The permission is included in the Contributor
 * and Owner roles", https://learn.microsoft.com/azure/azure-resource-manager/management/resource-providers-and-types#register-resource-provider).
 * A deploy of a type whose provider is not registered fails with MissingSubscriptionRegistration
 * (https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-register-resource-provider),
 * and CI's deploy identities hold roles on their resource groups only, so the admin-run bootstrap registers
 * them. @pulumi/azure-native 3.28 has no resource for it (its `features.SubscriptionFeatureRegistration`
 * registers a preview feature of a provider, `providerhub.ProviderRegistration` publishes a provider of
 * one's own), so this resource makes the documented call, `az provider register --namespace <ns> --wait`,
 * with the admin's Azure CLI login (the bootstrap's own, docs/bootstrap.md).
 */
export interface ResourceProviderRegistrationArgs {
  subscriptionId: string;
  namespace: string;
}

/**
 * Registration is never undone: unregistering a provider ("You can't unregister a resource provider when you
 * still have resource types from that resource provider in your subscription", same page) is not something
 * a bootstrap run should try, so a deleted registration only leaves the state.
 */
const registrationProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: ResourceProviderRegistrationArgs) {
    // Required here: the function is serialized into the state and runs in the provider process.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { execFileSync } = require('node:child_process') as typeof ChildProcess;
    execFileSync(
      'az',
      [
        'provider',
        'register',
        '--namespace',
        inputs.namespace,
        '--subscription',
        inputs.subscriptionId,
        '--wait',
      ],
      { stdio: 'inherit' },
    );
    return { id: `/subscriptions/${inputs.subscriptionId}/providers/${inputs.namespace}`, outs: inputs };
  },
  async delete() {},
};

class ResourceProviderRegistration extends pulumi.dynamic.Resource {
  constructor(name: string, args: ResourceProviderRegistrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(registrationProvider, name, { ...args }, opts);
  }
}

/**
 * Every resource provider the Azure stack's and the bootstrap's resource types come from, registered in its
 * subscription; by namespace, for a resource of the bootstrap's own to wait for.
 */
export function registerResourceProviders(
  subscriptionId: string,
  parent: pulumi.Resource,
): ReadonlyMap<string, pulumi.Resource> {
  return new Map(
    AZURE_RESOURCE_PROVIDERS.map((namespace) => [
      namespace,
      new ResourceProviderRegistration(
        `provider-${namespace}`,
        { subscriptionId, namespace },
        { parent, retainOnDelete: true },
      ),
    ]),
  );
}
