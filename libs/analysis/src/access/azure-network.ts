import { ipv4RangesOverlap, parseIpv4Range } from '@checkpoints/config';
import type { RenderedResource } from '@checkpoints/render';
import { stringInput } from './model';

/**
 * Which networks reach an ADLS Gen2 account's data plane, judged from the documented semantics of the
 * storage firewall (https://learn.microsoft.com/azure/storage/common/storage-network-security and
 * .../storage-network-security-limitations). A request the network allows still needs an identity with a
 * data role (the access model in ./azure.ts); a request the network refuses fails whatever its identity.
 */
export interface AccountNetwork {
  publicNetworkAccess: 'Enabled' | 'Disabled';
  defaultAction: 'Allow' | 'Deny';
  /** Exceptions of the firewall: AzureServices, Logging, Metrics (or None). */
  bypass: string[];
  /** Subnet resource IDs of the virtual network rules, lowercased (Azure IDs are case-insensitive). */
  subnets: string[];
  /** IPv4 addresses and CIDR ranges of the IP rules. */
  ipRules: string[];
  /** Whether a private endpoint of the account exists (any subresource). */
  privateEndpoint: boolean;
}

/** Where a request comes from. */
export type NetworkOrigin =
  /** A subnet of a virtual network; `serviceEndpoint`: the subnet has the Microsoft.Storage service endpoint. */
  | { kind: 'subnet'; subnet: string; serviceEndpoint: boolean }
  /** A public IPv4 or IPv6 address outside Azure's region of the account. */
  | { kind: 'internet'; address: string }
  /** Through a private endpoint of the account. */
  | { kind: 'private-endpoint' }
  /** A trusted Microsoft service (https://learn.microsoft.com/azure/storage/common/storage-network-security-trusted-azure-services). */
  | { kind: 'trusted-service' };

export interface NetworkVerdict {
  allowed: boolean;
  why: string;
}

/** The network settings of a rendered storage account, with whether the render gives it a private endpoint. */
export function accountNetworkOf(
  account: RenderedResource,
  resources: readonly RenderedResource[],
): AccountNetwork {
  const rules = (account.inputs['networkRuleSet'] ?? {}) as {
    defaultAction?: string;
    bypass?: string;
    virtualNetworkRules?: { virtualNetworkResourceId?: string; action?: string }[];
    ipRules?: { iPAddressOrRange?: string; action?: string }[];
  };
  const accountName = stringInput(account, 'accountName');
  const privateEndpoint = resources.some(
    (resource) =>
      resource.type === 'azure-native:network:PrivateEndpoint' &&
      JSON.stringify(resource.inputs['privateLinkServiceConnections'] ?? []).includes(
        `/storageAccounts/${accountName ?? '?'}"`,
      ),
  );
  return {
    // ARM's default for both, when the template leaves them out.
    publicNetworkAccess: stringInput(account, 'publicNetworkAccess') === 'Disabled' ? 'Disabled' : 'Enabled',
    defaultAction: rules.defaultAction === 'Deny' ? 'Deny' : 'Allow',
    bypass: (rules.bypass ?? 'AzureServices').split(',').map((part) => part.trim()),
    subnets: (rules.virtualNetworkRules ?? [])
      .map((rule) => rule.virtualNetworkResourceId?.toLowerCase())
      .filter((id): id is string => id !== undefined),
    ipRules: (rules.ipRules ?? [])
      .map((rule) => rule.iPAddressOrRange)
      .filter((range): range is string => range !== undefined),
    privateEndpoint,
  };
}

const SECURITY = 'https://learn.microsoft.com/azure/storage/common/storage-network-security';

/** Whether a request from `origin` reaches the account's data plane, and the documented rule that decides it. */
export function networkAllows(network: AccountNetwork, origin: NetworkOrigin): NetworkVerdict {
  if (origin.kind === 'private-endpoint') {
    // "Private endpoints ... aren't subject to the storage firewall": public network access and the
    // network rules apply to the public endpoint only.
    return network.privateEndpoint
      ? { allowed: true, why: `a private endpoint is not subject to the firewall (${SECURITY})` }
      : { allowed: false, why: 'the account has no private endpoint' };
  }
  if (network.publicNetworkAccess === 'Disabled') {
    return {
      allowed: false,
      why: `public network access is disabled: only private endpoints reach the account (${SECURITY})`,
    };
  }
  if (network.defaultAction === 'Allow') {
    return { allowed: true, why: 'the default action allows every network' };
  }
  switch (origin.kind) {
    case 'trusted-service':
      return network.bypass.includes('AzureServices')
        ? { allowed: true, why: 'the AzureServices bypass admits trusted Microsoft services' }
        : { allowed: false, why: 'no AzureServices bypass: trusted services are refused like any network' };
    case 'subnet': {
      const listed = network.subnets.includes(origin.subnet.toLowerCase());
      if (listed && origin.serviceEndpoint) {
        return {
          allowed: true,
          why: 'a virtual network rule names the subnet, which has the Microsoft.Storage service endpoint',
        };
      }
      return {
        allowed: false,
        why: listed
          ? 'the subnet is listed, but a virtual network rule applies only to traffic through the Microsoft.Storage service endpoint'
          : // "IP network rules have no effect on requests that originate from the same Azure region"
            'no virtual network rule names the subnet, and IP rules do not apply to traffic from Azure virtual networks',
      };
    }
    case 'internet':
      return ipRuleMatches(network.ipRules, origin.address)
        ? { allowed: true, why: 'an IP network rule contains the address' }
        : { allowed: false, why: 'no IP network rule contains the address (IPv4 rules only)' };
  }
}

function ipRuleMatches(rules: readonly string[], address: string): boolean {
  const ip = parseIpv4Range(address);
  if (ip === undefined) return false;
  return rules.some((rule) => {
    const range = parseIpv4Range(rule);
    return range !== undefined && range[1] <= ip[1] && ipv4RangesOverlap(range, ip);
  });
}
