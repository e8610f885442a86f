import { isStoreComponent } from '@checkpoints/render';
import { stackRule } from '../define';
import { childrenByParent } from './store-resources';
import { GCS_BUCKET, KMS_CRYPTO_KEY, KMS_CRYPTO_KEY_IAM_MEMBER, KMS_KEY_RING } from './tokens';

/** What holds a store's customer-managed key: losing any of them loses every checkpoint written with it. */
const KEY_HOLDERS = [KMS_KEY_RING, KMS_CRYPTO_KEY, KMS_CRYPTO_KEY_IAM_MEMBER];

export const gcpKmsKeyProtection = stackRule({
  name: 'gcp-kms-key-protection',
  description:
    "A store whose bucket is protected has its key ring, crypto key and the storage service agent's key grant protected too: the key is as much a data holder as the bucket",
  source:
    'Google Cloud KMS: Destroy and restore key versions (data encrypted with a destroyed version cannot be recovered); Google Cloud: Cloud Storage customer-managed encryption keys (the service agent needs the key); Checkpoint security baseline (keys of protected stores protected like the data)',
  validate: (args, report) => {
    const childrenOf = childrenByParent(args);
    for (const component of args.resources.filter((resource) => isStoreComponent(resource.type))) {
      const children = childrenOf.get(component.urn) ?? [];
      if (!children.some((resource) => resource.type === GCS_BUCKET && resource.opts.protect)) continue;
      for (const holder of children.filter((resource) => KEY_HOLDERS.includes(resource.type))) {
        if (!holder.opts.protect) {
          report(
            `store ${component.name}: its bucket is protected but ${holder.type.split(':').pop() ?? holder.type} ${holder.name} is not; set protect on it as on the bucket`,
            holder.urn,
          );
        }
      }
    }
  },
});
