import { resourceRule } from '../define';
import { GCS_HMAC_KEY } from './tokens';

export const gcpGcsNoHmacKeys = resourceRule({
  name: 'gcp-gcs-no-hmac-keys',
  description:
    'No Cloud Storage HMAC keys: they are long-lived shared secrets; jobs authenticate as their service account with short-lived OAuth 2.0 tokens (Workload Identity, attached service accounts)',
  source:
    'Google Cloud: Cloud Storage HMAC keys (prefer OAuth 2.0 service-account credentials); Checkpoint security baseline (no shared secrets: no HMAC keys)',
  types: [GCS_HMAC_KEY],
  validate: (_props, args, report) => {
    report(
      `${args.type} creates a shared secret; must not be used: authenticate as the store's service account through Workload Identity instead`,
    );
  },
});
