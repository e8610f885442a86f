import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { ACCOUNT_ID, accountProps } from '../../../testing/azure';
import { azureStorageDefender } from './azure-storage-defender';

const STORE = 'urn:pulumi:test::spec::checkpoints:azure:CheckpointStore::llm-pretrain';

function store(defender: Record<string, unknown> | null, environment = 'prod'): ResourceUnderTest[] {
  return [
    { type: 'checkpoints:azure:CheckpointStore', name: 'llm-pretrain', props: {} },
    {
      type: 'azure-native:storage:StorageAccount',
      name: 'llm-pretrain',
      parent: STORE,
      props: accountProps({ tags: { environment } }),
    },
    ...(defender
      ? [
          {
            type: 'azure-native:security:DefenderForStorage',
            name: 'llm-pretrain-defender',
            parent: STORE,
            props: { resourceId: ACCOUNT_ID, settingName: 'current', properties: defender },
          },
        ]
      : []),
  ];
}

describe('azure-storage-defender', () => {
  it('passes a prod account with Defender for Storage scanning every upload', async () => {
    const on = { isEnabled: true, malwareScanning: { onUpload: { isEnabled: true, capGBPerMonth: -1 } } };
    expect(await violationsOf(azureStorageDefender, store(on))).toEqual([]);
  });

  it('flags a prod account without Defender, or with Defender but no scan on upload', async () => {
    const controls = '(CIS Azure 3.1.5.1, MCSB LT-1, Azure Policy 640d2586-54d2-465f-877f-9ffc1d2109f4)';
    expect(await violationsOf(azureStorageDefender, store(null))).toEqual([
      `store llm-pretrain: Defender for Storage is not enabled on the account ${controls}`,
    ]);
    expect(await violationsOf(azureStorageDefender, store({ isEnabled: true }))).toEqual([
      `store llm-pretrain: Defender for Storage on, but uploads are not scanned for malware ${controls}`,
    ]);
  });

  it('accepts an account outside prod without it (the declared exception)', async () => {
    expect(await violationsOf(azureStorageDefender, store(null, 'dev'))).toEqual([]);
  });
});
