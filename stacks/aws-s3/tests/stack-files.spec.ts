import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const projectDir = join(__dirname, '..');

describe('Pulumi.yaml', () => {
  it('is project checkpoints-aws and declares every key the program reads, with a description', () => {
    const project = parse(readFileSync(join(projectDir, 'Pulumi.yaml'), 'utf8')) as {
      name: string;
      main: string;
      config?: unknown;
      template: { config: Record<string, { description?: string; default?: unknown }> };
    };
    expect(project.name).toBe('checkpoints-aws');
    expect(project.main).toBe('index.ts');
    expect(project.config).toBeUndefined();
    expect(Object.keys(project.template.config).sort()).toEqual([
      'aws:region',
      'checkpoints:ciDeployRole',
      'checkpoints:ciRunners',
      'checkpoints:costCenter',
      'checkpoints:environment',
      'checkpoints:externalPrincipals',
      'checkpoints:organizationTrail',
      'checkpoints:owner',
      'checkpoints:stores',
    ]);
    for (const declaration of Object.values(project.template.config)) {
      expect(declaration.description).toEqual(expect.any(String));
      expect(declaration.default).toBeUndefined();
    }
  });
});
