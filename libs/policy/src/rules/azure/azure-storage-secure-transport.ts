import { read, state } from '../inputs';
import { azureResourceRule, T } from './support';

/** TLS versions the baseline accepts as a minimum: 1.2, and 1.3 where the service takes it. */
const ACCEPTED_TLS: readonly unknown[] = ['TLS1_2', 'TLS1_3'];

export const azureStorageSecureTransport = azureResourceRule({
  name: 'azure-storage-secure-transport',
  description:
    'Storage accounts accept HTTPS only (enableHttpsTrafficOnly true) with TLS 1.2 or later (minimumTlsVersion "TLS1_2" or "TLS1_3")',
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 4.1 (Secure transfer required) and 4.15 (Minimum TLS version 1.2); Microsoft cloud security benchmark DP-3',
  types: [T.storageAccount],
  validate: (props, _args, report) => {
    const https = read(props, 'enableHttpsTrafficOnly');
    if (https !== true) {
      report(`enableHttpsTrafficOnly ${state(https)}; expected true (secure transfer required)`);
    }
    const tls = read(props, 'minimumTlsVersion');
    if (!ACCEPTED_TLS.includes(tls)) {
      // Unset, the service falls back to TLS 1.0 on accounts created outside the portal.
      report(`minimumTlsVersion ${state(tls)}; expected "TLS1_2" (or "TLS1_3")`);
    }
  },
});
