import { join } from 'node:path';
import { readProject } from '@checkpoints/synth';

const project = readProject(join(__dirname, '..'));

describe('stack config files', () => {
  it('declare the project the synth and Pulumi load', () => {
    expect({ name: project.name, main: project.main }).toEqual({
      name: 'checkpoints-azure',
      main: join(__dirname, '..', 'index.ts'),
    });
  });
});
