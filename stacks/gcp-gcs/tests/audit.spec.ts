import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeSynthRuns, runSynth, type SynthRun } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { stackConfig, store } from './render';

const projectDir = join(__dirname, '..');
// Two renders through the CLI, the first one with the bootstrap stack.
jest.setTimeout(120_000);
afterAll(removeSynthRuns);

// A confidential store is audited in dev too; ml-platform-dev-4821 is the dev project of bootstrap/Pulumi.ci.yaml.
const config = stackConfig([store({ dataClassification: 'confidential' })], {
  'gcp:project': 'ml-platform-dev-4821',
});

describe('Data Access audit on GCS, judged against the bootstrap render', () => {
  let shipped: SynthRun;
  beforeAll(async () => {
    shipped = await runSynth(projectDir, config, [], checkpointStack);
  });

  it('passes with the bootstrap as shipped: it records reads and writes in the stack project', () => {
    expect(shipped.stdout).toContain('llm-pretrain-bucket');
    expect(shipped.stdout).not.toContain('gcp-gcs-data-access-audit');
    expect(shipped.status).toBe(0);
  });

  it('fails when the bootstrap render does not configure the audit of the stack project', async () => {
    const render = JSON.parse(readFileSync(shipped.bootstrapPath, 'utf8')) as {
      resources: { type: string }[];
    };
    render.resources = render.resources.filter(
      (resource) => resource.type !== 'gcp:projects/iAMAuditConfig:IAMAuditConfig',
    );
    const withoutAudit = join(shipped.renderPath, '..', 'bootstrap-without-audit.json');
    writeFileSync(withoutAudit, JSON.stringify(render));
    const result = await runSynth(projectDir, config, [`--bootstrap=${withoutAudit}`], checkpointStack);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'gcp-gcs-data-access-audit: store llm-pretrain: the bootstrap render has no Data Access audit config recording DATA_READ and DATA_WRITE for storage.googleapis.com in project ml-platform-dev-4821',
    );
  });
});
