import { violationsOf } from '../../../testing';
import { ciProdNoDestroy } from './ci-prod-no-destroy';
import { azureStore, CUSTOM, GROUP, withBootstrap, withBootstrapRender } from '../../../testing/access';
import {
  AZURE_DEPLOY_WRITES,
  awsBootstrap,
  awsProdStore,
  azureBootstrap,
  azureProdStore,
} from '../../../testing/configuration';

describe('ci-prod-no-destroy', () => {
  const deleteAccounts = ['Microsoft.Storage/storageAccounts/delete'];

  it('passes a dev deploy identity that may delete dev accounts', async () => {
    const bootstrap = withBootstrap(
      [{ purpose: 'deploy-dev', role: CUSTOM, scope: GROUP('dev') }],
      deleteAccounts,
    );
    try {
      expect(await violationsOf(ciProdNoDestroy, azureStore('dev'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('flags a prod deploy identity that may delete prod accounts', async () => {
    const bootstrap = withBootstrap(
      [{ purpose: 'deploy-prod', role: CUSTOM, scope: GROUP('prod') }],
      deleteAccounts,
    );
    try {
      expect(await violationsOf(ciProdNoDestroy, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'store ckpt (prod): ci deploy-prod can delete a data-holding resource in prod: Microsoft.Storage/storageAccounts/delete from custom on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment deploy-prod-0)',
      ]);
    } finally {
      bootstrap.remove();
    }
  });
});

describe('ci-prod-no-destroy: destruction through configuration', () => {
  const judge = async (render: ReturnType<typeof azureBootstrap>) => {
    const bootstrap = withBootstrapRender(render);
    try {
      return await violationsOf(ciProdNoDestroy, azureProdStore(), {}, bootstrap.path);
    } finally {
      bootstrap.remove();
    }
  };

  it('passes a prod deploy role whose worst lifecycle and soft-delete write the Azure Policy deny keeps at 14 days', async () => {
    expect(await judge(azureBootstrap(AZURE_DEPLOY_WRITES, ['soft-delete', 'diagnostics']))).toEqual([]);
  });

  it('without the deny assignment, names the identity, the writes and the day the data is gone', async () => {
    const [violation, ...more] = await judge(azureBootstrap(AZURE_DEPLOY_WRITES, ['diagnostics']));
    expect(more).toEqual([]);
    expect(violation).toMatch(
      /^store ckpt \(prod\): ci deploy-prod can make checkpoints unrecoverable through configuration: its lifecycle management policy \(Microsoft\.Storage\/storageAccounts\/managementPolicies\/write\), blob soft delete \(Microsoft\.Storage\/storageAccounts\/blobServices\/write\) write leaves a checkpoint recoverable for 1 day, inside the 14-day recovery window \(no guardrail holds\): all checkpoints gone after 1 day/,
    );
  });

  it('a prod deploy role that may rewrite policy assignments lifts the deny: refused', async () => {
    const violations = await judge(
      azureBootstrap(
        [...AZURE_DEPLOY_WRITES, 'Microsoft.Authorization/policyAssignments/write'],
        ['soft-delete', 'diagnostics'],
      ),
    );
    expect(violations.filter((v) => v.includes('through configuration'))).toHaveLength(1);
  });
});

describe('ci-prod-no-destroy: a lifecycle write against S3 Object Lock', () => {
  const judge = async (lockDays: number | undefined) => {
    const bootstrap = withBootstrapRender(awsBootstrap());
    try {
      return await violationsOf(ciProdNoDestroy, awsProdStore(lockDays), {}, bootstrap.path);
    } finally {
      bootstrap.remove();
    }
  };

  it('passes with a GOVERNANCE lock as long as the 7-day window: a checkpoint written before the write outlasts it', async () => {
    expect(await judge(7)).toEqual([]);
  });

  it('without the lock, names the identity, the writes and the day the data is gone', async () => {
    expect(await judge(undefined)).toEqual([
      expect.stringMatching(
        /^store ckpt \(prod\): ci deploy-prod can make checkpoints unrecoverable through configuration: its lifecycle \(s3:PutLifecycleConfiguration\), versioning \(s3:PutBucketVersioning\) write leaves a checkpoint recoverable for 2 days, inside the 7-day recovery window \(no guardrail holds\): all checkpoints gone after 2 days/,
      ),
    ]);
  });

  it('a lock shorter than the window is not enough', async () => {
    expect(await judge(3)).toEqual([expect.stringContaining('recoverable for 4 days, inside the 7-day')]);
  });
});
