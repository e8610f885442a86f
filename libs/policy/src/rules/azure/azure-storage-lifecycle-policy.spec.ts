import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_ARRAY } from '../../../testing/rules';
import { azureStorageLifecyclePolicy } from './azure-storage-lifecycle-policy';
import { account, companion, lifecycleProps } from '../../../testing/azure';
import { T } from './support';

const lifecycle = (props: Record<string, unknown> = lifecycleProps, name?: string) =>
  companion(T.managementPolicy, props, account, name);
const NAME = 'llm-pretrain-ManagementPolicy';
const rule = lifecycleProps.policy.rules[0];

describe('azure-storage-lifecycle-policy', () => {
  it('passes an account with an enabled lifecycle rule, linked through accountName on a preview', async () => {
    expect(await violationsOf(azureStorageLifecyclePolicy, onPreview([account, lifecycle()]))).toEqual([]);
  });

  it('flags an account without a ManagementPolicy', async () => {
    expect(await violationsOf(azureStorageLifecyclePolicy, [account])).toEqual([
      "storage account 'prodllmpretrain4ba09a' has no ManagementPolicy; expected one with at least one enabled rule",
    ]);
  });

  it('flags a policy with no enabled rule', async () => {
    expect(
      await violationsOf(azureStorageLifecyclePolicy, [
        account,
        lifecycle({
          policy: {
            rules: [
              { ...rule, enabled: false },
              { ...rule, enabled: undefined },
            ],
          },
        }),
        lifecycle({ policy: { rules: [] } }, 'empty'),
        lifecycle({ policy: {} }, 'unset'),
      ]),
    ).toEqual([
      `ManagementPolicy '${NAME}': none of the 2 rule(s) of policy.rules is enabled; expected at least one rule with enabled true`,
      `ManagementPolicy 'empty': policy.rules is empty; expected at least one rule with enabled true`,
      `ManagementPolicy 'unset': policy.rules is not set; expected at least one rule with enabled true`,
    ]);
  });

  it('flags rules unknown on a preview', async () => {
    expect(
      await violationsOf(
        azureStorageLifecyclePolicy,
        onPreview([account, lifecycle({ policy: { rules: UNKNOWN_ARRAY } })]),
      ),
    ).toEqual([
      `ManagementPolicy '${NAME}': policy.rules is unknown during preview; expected at least one rule with enabled true`,
    ]);
  });
});
