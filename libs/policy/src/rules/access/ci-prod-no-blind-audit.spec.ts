import { violationsOf } from '../../../testing';
import { withBootstrapRender } from '../../../testing/access';
import { ciProdNoBlindAudit } from './ci-prod-no-blind-audit';
import { AZURE_DEPLOY_WRITES, azureBootstrap, azureProdStore } from '../../../testing/configuration';

describe('ci-prod-no-blind-audit', () => {
  const judge = async (render: ReturnType<typeof azureBootstrap>) => {
    const bootstrap = withBootstrapRender(render);
    try {
      return await violationsOf(ciProdNoBlindAudit, azureProdStore(), {}, bootstrap.path);
    } finally {
      bootstrap.remove();
    }
  };

  it('passes a prod deploy role that writes diagnostic settings the Azure Policy deny keeps sending the blob logs', async () => {
    expect(await judge(azureBootstrap(AZURE_DEPLOY_WRITES, ['soft-delete', 'diagnostics']))).toEqual([]);
  });

  it('without the deny assignment, names the identity and the write', async () => {
    expect(await judge(azureBootstrap(AZURE_DEPLOY_WRITES, ['soft-delete']))).toEqual([
      expect.stringMatching(
        /^store ckpt \(prod\): ci deploy-prod can blind the audit of the store in prod \(Microsoft\.Insights\/diagnosticSettings\/write\): can change or delete the account's diagnostic settings: Microsoft\.Insights\/diagnosticSettings\/write from custom/,
      ),
    ]);
  });

  it('a prod deploy role that may delete diagnostic settings is refused whatever the policy', async () => {
    const violations = await judge(
      azureBootstrap(
        [...AZURE_DEPLOY_WRITES, 'Microsoft.Insights/diagnosticSettings/delete'],
        ['soft-delete', 'diagnostics'],
      ),
    );
    expect(violations).toHaveLength(1);
  });
});
