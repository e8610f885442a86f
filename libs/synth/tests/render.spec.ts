import { render } from '../src/render';
import { fixtureProgram } from './fixtures/simple';

describe('render', () => {
  it('records resources with options and outputs', async () => {
    const snapshot = await render(fixtureProgram, {
      project: 'fx',
      stack: 'dev',
      config: { 'fixture:name': 'ckpt', 'aws:region': 'eu-west-1' },
    });
    console.log(JSON.stringify(snapshot, null, 1));
  });
});
