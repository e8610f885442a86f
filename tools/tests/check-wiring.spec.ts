import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempDir, WORKSPACE } from './helpers';

const SCRIPT = join(WORKSPACE, 'tools', 'check-wiring.mjs');

/** A repository with a bootstrap stack and the two stacks' config files, as given. */
function repository(gcpProject: string, resourceGroup: string): string {
  const root = tempDir('wiring-');
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('Pulumi.yaml', 'name: checkpoints-bootstrap\nruntime: nodejs\nstackConfigDir: bootstrap\n');
  write(
    'bootstrap/Pulumi.ci.yaml',
    [
      'config:',
      '  bootstrap:clouds: [gcp, azure]',
      '  bootstrap:environments: [prod]',
      '  bootstrap:gcp: { stackProjects: { prod: ml-prod } }',
      '  bootstrap:azure: { stackResourceGroups: { prod: rg-prod } }',
      '',
    ].join('\n'),
  );
  write('stacks/gcp-gcs/Pulumi.prod.yaml', `config:\n  gcp:project: ${gcpProject}\n`);
  write('stacks/azure-adls/Pulumi.prod.yaml', `config:\n  checkpoints:resourceGroupName: ${resourceGroup}\n`);
  return root;
}

describe('check-wiring', () => {
  it('passes when bootstrap grants CI where each stack deploys', () => {
    const result = run(process.execPath, [SCRIPT, `--root=${repository('ml-prod', 'rg-prod')}`]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('bootstrap grants CI where every stack deploys');
  });

  it('fails naming the file, the setting and the stack config that disagree', () => {
    const result = run(process.execPath, [SCRIPT, `--root=${repository('ml-other', 'rg-other')}`]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Pulumi.ci.yaml: bootstrap:gcp.stackProjects.prod is "ml-prod" but stacks/gcp-gcs/Pulumi.prod.yaml sets gcp:project to "ml-other"',
    );
    expect(result.stderr).toContain(
      'Pulumi.ci.yaml: bootstrap:azure.stackResourceGroups.prod is "rg-prod" but stacks/azure-adls/Pulumi.prod.yaml sets checkpoints:resourceGroupName to "rg-other"',
    );
  });
});
