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
 * Runs the Azure CLI with the admin's login, its output captured: a failure names the command and what az
 * said, with anything shaped like a credential (an Entra ID token is a JWT, an `eyJ`-prefixed base64url
 * triple, https://learn.microsoft.com/entra/identity-platform/access-tokens) cut out. The dynamic provider
 * runs in Pulumi's provider process from its serialized closure, so `node:child_process` is required here.
 */
function az(args: readonly string[], failed: (what: string) => string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { spawnSync } = require('node:child_process') as typeof ChildProcess;
  const run = spawnSync('az', [...args], { encoding: 'utf8', env: process.env });
  const redacted = (text: string) =>
    text
      .replace(/eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g, '[redacted]')
      .replace(/(bearer\s+|(?:secret|password|token)["']?\s*[:=]\s*["']?)[^\s"',]+/gi, '$1[redacted]')
      .trim();
  const command = `az ${args.join(' ')}`;
  if (run.error) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      failed(
        missing
          ? `${command}: no az on PATH; install the Azure CLI and az login`
          : `${command}: ${redacted(run.error.message)}`,
      ),
    );
  }
  if (run.status !== 0) {
    const said = redacted(`${run.stderr ?? ''}\n${run.stdout ?? ''}`) || 'no output';
    throw new Error(failed(`${command} exited ${run.status ?? run.signal}: ${said}`));
  }
  return run.stdout ?? '';
}

/**
 * `az account show --subscription` first: a login of another tenant, or none, fails there with az's own
 * words rather than half-way through the registrations ("az account show: get the details of a
 * subscription", https://learn.microsoft.com/cli/azure/account#az-account-show). Then the registration,
 * `az provider register --namespace --subscription --wait`, which returns once the provider is Registered and
 * succeeds again on a provider already registered
 * (https://learn.microsoft.com/cli/azure/provider#az-provider-register).
 */
function register(inputs: ResourceProviderRegistrationArgs): pulumi.dynamic.CreateResult {
  const { namespace, subscriptionId } = inputs;
  const failed = (what: string) =>
    `cannot register resource provider ${namespace} in subscription ${subscriptionId}: ${what}`;
  const account = az(['account', 'show', '--subscription', subscriptionId, '--output', 'json'], (what) =>
    failed(`${what} (run az login, then az account set --subscription ${subscriptionId})`),
  );
  let shown: unknown;
  try {
    shown = JSON.parse(account);
  } catch {
    shown = undefined;
  }
  const { id, state } = (shown ?? {}) as { id?: unknown; state?: unknown };
  if (id !== subscriptionId || state !== 'Enabled') {
    throw new Error(
      failed(
        `az account show answered subscription ${String(id ?? 'none')} in state ${String(state ?? 'unknown')}, not ${subscriptionId} Enabled`,
      ),
    );
  }
  az(['provider', 'register', '--namespace', namespace, '--subscription', subscriptionId, '--wait'], failed);
  return { id: `/subscriptions/${subscriptionId}/providers/${namespace}`, outs: { ...inputs } };
}

/**
 * Registration is never undone: unregistering a provider ("You can't unregister a resource provider when you
 * still have resource types from that resource provider in your subscription", same page) is not something
 * a bootstrap run should try, so a deleted registration only leaves the state. Another namespace or
 * subscription is another registration (a replacement); the same inputs change nothing, and an update
 * registers again, which az accepts on a registered provider.
 */
export const registrationProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: ResourceProviderRegistrationArgs) {
    return register(inputs);
  },
  async diff(_id: string, olds: ResourceProviderRegistrationArgs, news: ResourceProviderRegistrationArgs) {
    const replaces = (['namespace', 'subscriptionId'] as const).filter((key) => olds[key] !== news[key]);
    return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
  },
  async update(_id: string, _olds: ResourceProviderRegistrationArgs, news: ResourceProviderRegistrationArgs) {
    return { outs: register(news).outs };
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
