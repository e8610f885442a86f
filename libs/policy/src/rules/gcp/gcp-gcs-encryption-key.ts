import { resourceRule } from '../define';
import { read, state, UNKNOWN } from '../inputs';
import { GCS_BUCKET } from './tokens';

/** A Cloud KMS key's resource ID, the form `defaultKmsKeyName` takes. */
const KMS_KEY_ID = /^projects\/[^/]+\/locations\/[^/]+\/keyRings\/[^/]+\/cryptoKeys\/[^/]+$/;

export const gcpGcsEncryptionKey = resourceRule({
  name: 'gcp-gcs-encryption-key',
  description:
    'A bucket encrypted with a customer-managed key names it in full (encryption.defaultKmsKeyName = projects/…/locations/…/keyRings/…/cryptoKeys/…); a bucket without it uses Google-managed encryption. A key created in the same update is unknown during preview and passes',
  source:
    'Google Cloud: Cloud Storage customer-managed encryption keys; Checkpoint security baseline (encryption: CMEK or Google-managed)',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    const key = read(props, 'encryption', 'defaultKmsKeyName');
    if (key === undefined || key === null || key === UNKNOWN) return;
    if (typeof key !== 'string' || !KMS_KEY_ID.test(key)) {
      report(
        `encryption.defaultKmsKeyName ${state(key)}; must be a Cloud KMS key ID projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>, or encryption left unset for Google-managed encryption`,
      );
    }
  },
});
