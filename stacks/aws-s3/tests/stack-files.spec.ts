import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  customResources,
  readProject,
  readStackConfig,
  render,
  stackConfigFile,
  type Snapshot,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { resource, TYPES } from './render-stack';

const projectDir = join(__dirname, '..');

/** Renders a stack from its Pulumi.<stack>.yaml, loaded exactly as `synth` and Pulumi load it. */
async function renderStackFile(stack: string): Promise<Snapshot> {
  const project = readProject(projectDir);
  const { config, secretKeys } = readStackConfig(stackConfigFile(project, stack), project);
  expect(secretKeys).toEqual([]);
  return render(checkpointStack, { project: project.name, stack, config, secretKeys });
}

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
      'checkpoints:costCenter',
      'checkpoints:environment',
      'checkpoints:owner',
      'checkpoints:stores',
    ]);
    for (const declaration of Object.values(project.template.config)) {
      expect(declaration.description).toEqual(expect.any(String));
      expect(declaration.default).toBeUndefined();
    }
  });
});

describe('Pulumi.dev.yaml', () => {
  it('renders one standard store with provider-managed encryption, unprotected', async () => {
    const snapshot = await renderStackFile('dev');
    expect(snapshot.resources.filter((r) => r.type === TYPES.store).map((r) => r.name)).toEqual([
      'llm-pretrain',
    ]);
    expect(resource(snapshot, 'encryption', 'llm-pretrain-encryption').inputs['rules']).toEqual([
      { applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' }, blockedEncryptionTypes: ['SSE-C'] },
    ]);
    expect(customResources(snapshot).filter((r) => r.type === TYPES.key || r.protect)).toEqual([]);
  });
});

describe('Pulumi.prod.yaml', () => {
  it('renders a customer-managed standard store and a high-throughput store in use1-az4, protected', async () => {
    const snapshot = await renderStackFile('prod');
    const stores = snapshot.resources.filter((r) => r.type === TYPES.store).map((r) => r.name);
    expect(stores).toEqual(['llm-pretrain', 'llm-pretrain-fast']);
    expect(
      (
        resource(snapshot, 'encryption', 'llm-pretrain-encryption').inputs['rules'] as {
          applyServerSideEncryptionByDefault: unknown;
        }[]
      )[0]?.applyServerSideEncryptionByDefault,
    ).toEqual({ sseAlgorithm: 'aws:kms', kmsMasterKeyId: expect.stringMatching(/^arn:aws:kms:us-east-1:/) });
    expect(resource(snapshot, 'directoryBucket', 'llm-pretrain-fast-bucket').inputs['location']).toEqual({
      name: 'use1-az4',
      type: 'AvailabilityZone',
    });
    expect(
      customResources(snapshot)
        .filter((r) => r.protect && r.retainOnDelete)
        .map((r) => r.name)
        .sort(),
    ).toEqual([
      'llm-pretrain-bucket',
      'llm-pretrain-fast-bucket',
      'llm-pretrain-fast-key',
      'llm-pretrain-key',
    ]);
  });
});
