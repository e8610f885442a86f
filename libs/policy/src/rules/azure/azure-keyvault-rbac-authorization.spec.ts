import { violationsOf } from '../../../testing';
import { onPreview } from '../../../testing/rules';
import { azureKeyvaultRbacAuthorization } from './azure-keyvault-rbac-authorization';
import { vaultProps } from '../../../testing/azure';
import { T } from './support';

const vault = (overrides: Record<string, unknown> = {}) => ({
  type: T.vault,
  name: 'llm-pretrain',
  props: vaultProps(overrides),
});

describe('azure-keyvault-rbac-authorization', () => {
  it('passes a vault authorized by Azure RBAC', async () => {
    expect(await violationsOf(azureKeyvaultRbacAuthorization, onPreview([vault()]))).toEqual([]);
  });

  it('flags a vault on access policies, explicitly or by default', async () => {
    expect(
      await violationsOf(azureKeyvaultRbacAuthorization, [
        vault({ enableRbacAuthorization: false }),
        vault({ enableRbacAuthorization: undefined }),
      ]),
    ).toEqual([
      'properties.enableRbacAuthorization is false; expected true (no vault access policies)',
      'properties.enableRbacAuthorization is not set; expected true (no vault access policies)',
    ]);
  });
});
