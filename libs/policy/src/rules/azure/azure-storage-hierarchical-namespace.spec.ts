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

  it("exempts the bootstrap's write-once log archive (version-level immutability rules a namespace out), not a flat store", async () => {
    const archive = accountProps({
      isHnsEnabled: false,
      immutableStorageWithVersioning: {
        enabled: true,
        immutabilityPolicy: { immutabilityPeriodSinceCreationInDays: 365 },
      },
    });
    expect(
      await violationsOf(azureStorageHierarchicalNamespace, [
        { ...account, name: 'audit-archive-prod', props: archive },
        {
          ...account,
          props: accountProps({ isHnsEnabled: false, immutableStorageWithVersioning: { enabled: false } }),
        },
      ]),
    ).toEqual(['isHnsEnabled is false; expected true (an ADLS Gen2 account)']);
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
