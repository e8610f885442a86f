import { CHECKPOINT_WRITER_ROLE } from '@checkpoints/config';
import azureRoleData from '../../data/azure-roles.json';

/**
 * The writer role is Storage Blob Data Contributor as Microsoft publishes it (data/azure-roles.json), less the
 * control-plane actions a training job does not need: every data action, and of the actions only
 * `containers/read`.
 */
describe('the Checkpoint Store Writer role against the published Storage Blob Data Contributor', () => {
  const contributor = (
    azureRoleData.roles as Record<string, { permissions: { actions: string[]; dataActions: string[] }[] }>
  )['ba92f5b4-2d11-453d-a403-e96b0029c9fe'];
  const published = contributor?.permissions ?? [];
  const writer = CHECKPOINT_WRITER_ROLE.permissions;

  it('keeps every data action of the built-in and adds none', () => {
    expect(published.length).toBeGreaterThan(0);
    expect(writer.flatMap((p) => p.dataActions).sort()).toEqual(
      published.flatMap((p) => p.dataActions).sort(),
    );
  });

  it('keeps only containers/read of its actions: no filesystem delete, no properties write, no SAS keys', () => {
    expect(writer.flatMap((p) => p.actions)).toEqual([
      'Microsoft.Storage/storageAccounts/blobServices/containers/read',
    ]);
    expect(published.flatMap((p) => p.actions)).toContain(
      'Microsoft.Storage/storageAccounts/blobServices/containers/delete',
    );
  });
});
