import { ofType } from '@checkpoints/synth';
import { renderBootstrap } from './helpers';

const OTHER_SUBSCRIPTION = '99999999-8888-4777-8666-555555555555';

/** The custom role names a bootstrap render defines. */
async function customRoleNames(overrides: Record<string, unknown> = {}): Promise<string[]> {
  const snapshot = await renderBootstrap(overrides);
  return ofType(snapshot, 'azure-native:authorization:RoleDefinition').map((definition) =>
    String(definition.inputs['roleName']),
  );
}

describe('Azure custom role names: unique in the tenant, as Azure requires of every custom role', () => {
  it('two subscriptions of one tenant bootstrapped alike define no custom role of the same name', async () => {
    const first = await customRoleNames();
    const second = await customRoleNames({ 'azure-native:subscriptionId': OTHER_SUBSCRIPTION });
    expect(first.length).toBeGreaterThan(1);
    expect(first.filter((name) => second.includes(name))).toEqual([]);
  });
});
