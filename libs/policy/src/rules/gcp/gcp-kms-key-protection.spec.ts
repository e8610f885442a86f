import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { gcpKmsKeyProtection } from './gcp-kms-key-protection';

const COMPONENT = 'checkpoints:gcp:CheckpointStore';
const PARENT = `urn:pulumi:test::spec::${COMPONENT}::llm-pretrain`;

function store(protect: {
  bucket: boolean;
  keyRing: boolean;
  key: boolean;
  grant: boolean;
}): ResourceUnderTest[] {
  const child = (type: string, name: string, isProtected: boolean): ResourceUnderTest => ({
    type,
    name,
    parent: PARENT,
    protect: isProtected,
    props: {},
  });
  return [
    { type: COMPONENT, name: 'llm-pretrain', props: {} },
    child('gcp:storage/bucket:Bucket', 'llm-pretrain-bucket', protect.bucket),
    child('gcp:kms/keyRing:KeyRing', 'llm-pretrain-key-ring', protect.keyRing),
    child('gcp:kms/cryptoKey:CryptoKey', 'llm-pretrain-key', protect.key),
    child('gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember', 'llm-pretrain-key-storage-agent', protect.grant),
  ];
}

describe('gcp-kms-key-protection', () => {
  it('passes a protected store with protected key holders, and an unprotected store', async () => {
    expect(
      await violationsOf(gcpKmsKeyProtection, store({ bucket: true, keyRing: true, key: true, grant: true })),
    ).toEqual([]);
    expect(
      await violationsOf(
        gcpKmsKeyProtection,
        store({ bucket: false, keyRing: false, key: false, grant: false }),
      ),
    ).toEqual([]);
  });

  it('flags each key holder of a protected store left unprotected', async () => {
    expect(
      await violationsOf(
        gcpKmsKeyProtection,
        store({ bucket: true, keyRing: true, key: false, grant: false }),
      ),
    ).toEqual([
      'store llm-pretrain: its bucket is protected but CryptoKey llm-pretrain-key is not; set protect on it as on the bucket',
      'store llm-pretrain: its bucket is protected but CryptoKeyIAMMember llm-pretrain-key-storage-agent is not; set protect on it as on the bucket',
    ]);
  });
});
