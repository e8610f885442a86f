import { read, readList, state } from '../inputs';
import { azureResourceRule, T } from './support';

/** Days of an ISO 8601 duration (P2Y, P30D, P1Y6M), months and years at their shortest; undefined when not one. */
export function durationDays(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?$/.exec(value);
  if (!match || value === 'P') return undefined;
  const [years, months, weeks, days] = match.slice(1).map((part) => Number(part ?? 0));
  return (years ?? 0) * 365 + (months ?? 0) * 28 + (weeks ?? 0) * 7 + (days ?? 0);
}

export const azureKeyvaultKeyRotation = azureResourceRule({
  name: 'azure-keyvault-key-rotation',
  description:
    'Every Key Vault key expires and is rotated before it does: rotationPolicy.attributes.expiryTime set, a rotate action triggered earlier than the expiry, and a notify action before the expiry (the near-expiry event)',
  source:
    'Checkpoint security baseline (key hygiene); CIS Microsoft Azure Foundations Benchmark v3.0.0 8.1 / 8.3 (expiration date on keys), 8.6 (automatic key rotation); Microsoft Learn: Configure cryptographic key auto-rotation in Azure Key Vault',
  types: [T.key],
  validate: (props, _args, report) => {
    const expiryTime = read(props, 'properties', 'rotationPolicy', 'attributes', 'expiryTime');
    const expiry = durationDays(expiryTime);
    if (expiry === undefined) {
      report(
        `properties.rotationPolicy.attributes.expiryTime ${state(expiryTime)}; expected an ISO 8601 duration such as P2Y`,
      );
      return;
    }
    const actions = readList(props, 'properties', 'rotationPolicy', 'lifetimeActions');
    const list = Array.isArray(actions) ? actions : [];
    const dayOf = (action: unknown): number | undefined => {
      const afterCreate = durationDays(read(action, 'trigger', 'timeAfterCreate'));
      const beforeExpiry = durationDays(read(action, 'trigger', 'timeBeforeExpiry'));
      return afterCreate ?? (beforeExpiry === undefined ? undefined : expiry - beforeExpiry);
    };
    const typed = (type: string) =>
      list.filter((action) => String(read(action, 'action', 'type')).toLowerCase() === type);
    if (!typed('rotate').some((action) => (dayOf(action) ?? expiry) < expiry)) {
      report(
        `no rotate action before the key expires (expiryTime ${String(expiryTime)}); expected a lifetimeAction of type rotate triggered earlier`,
      );
    }
    if (!typed('notify').some((action) => (dayOf(action) ?? expiry) < expiry)) {
      report(
        'no notify action before the key expires; expected a lifetimeAction of type notify (timeBeforeExpiry), which raises the near-expiry event',
      );
    }
  },
});
