import { violationsOf } from '../../../testing';
import { onPreview } from '../../../testing/rules';
import { azureStorageHierarchicalNamespace } from './azure-storage-hierarchical-namespace';
import { account, accountProps } from '../../../testing/azure';

describe('azure-storage-hierarchical-namespace', () => {
  it('passes an ADLS Gen2 account, standard or premium block blob', async () => {
    const premium = accountProps({ kind: 'BlockBlobStorage', sku: { name: 'Premium_ZRS' } });
    expect(
      await violationsOf(
        azureStorageHierarchicalNamespace,
        onPreview([account, { ...account, props: premium }]),
      ),
    ).toEqual([]);
  });

  it('flags a flat namespace', async () => {
    expect(
      await violationsOf(azureStorageHierarchicalNamespace, [
        { ...account, props: accountProps({ isHnsEnabled: false }) },
        { ...account, props: accountProps({ isHnsEnabled: undefined }) },
      ]),
    ).toEqual([
      'isHnsEnabled is false; expected true (an ADLS Gen2 account)',
      'isHnsEnabled is not set; expected true (an ADLS Gen2 account)',
    ]);
  });
});
