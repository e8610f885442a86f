import { violationsOf } from '../../../testing';
import { onPreview } from '../../../testing/rules';
import { azureStorageNoCrossTenantReplication } from './azure-storage-no-cross-tenant-replication';
import { account, accountProps } from '../../../testing/azure';

describe('azure-storage-no-cross-tenant-replication', () => {
  it('passes an account that keeps replication in its tenant', async () => {
    expect(await violationsOf(azureStorageNoCrossTenantReplication, onPreview([account]))).toEqual([]);
  });

  it('flags cross-tenant replication allowed or left to the default', async () => {
    expect(
      await violationsOf(azureStorageNoCrossTenantReplication, [
        { ...account, props: accountProps({ allowCrossTenantReplication: true }) },
        { ...account, props: accountProps({ allowCrossTenantReplication: undefined }) },
      ]),
    ).toEqual([
      'allowCrossTenantReplication is true; expected false',
      'allowCrossTenantReplication is not set; expected false',
    ]);
  });
});
