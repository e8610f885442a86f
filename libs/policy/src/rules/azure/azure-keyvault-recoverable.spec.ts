import { violationsOf } from '../../../testing';
import { onPreview } from '../../../testing/rules';
import { azureKeyvaultRecoverable } from './azure-keyvault-recoverable';
import { vaultProps } from '../../../testing/azure';
import { T } from './support';

const vault = (overrides: Record<string, unknown> = {}) => ({
  type: T.vault,
  name: 'llm-pretrain',
  props: vaultProps(overrides),
});

describe('azure-keyvault-recoverable', () => {
  it('passes a vault with purge protection, soft delete on or left to its default', async () => {
    expect(
      await violationsOf(
        azureKeyvaultRecoverable,
        onPreview([vault(), vault({ enableSoftDelete: undefined })]),
      ),
    ).toEqual([]);
  });

  it('flags a vault without purge protection or with soft delete off', async () => {
    expect(
      await violationsOf(azureKeyvaultRecoverable, [
        vault({ enablePurgeProtection: undefined, enableSoftDelete: false }),
      ]),
    ).toEqual([
      'properties.enablePurgeProtection is not set; expected true',
      'properties.enableSoftDelete is false; expected true or not set',
    ]);
  });
});
