import { customResources } from '@checkpoints/synth';
import { renderStack, T } from './render';

// Resource types ARM tags; role assignments, filesystems and account sub-resources take none.
const TAGGABLE = [T.group, T.account, T.identity, T.vault, T.key];

describe('tags', () => {
  it('puts the standard tags, normalised for Azure, on every taggable resource', async () => {
    const snapshot = await renderStack(
      {
        environment: 'prod',
        stores: [
          { name: 'llm', dataClassification: 'confidential' },
          {
            name: 'fast',
            dataClassification: 'restricted',
            tier: 'high-throughput',
            retention: { expireAfterDays: 7 },
          },
        ],
      },
      'prod',
    );
    const standard = {
      owner: 'ml-platform',
      'cost-center': 'cc-1234',
      environment: 'prod',
      'managed-by': 'pulumi',
      'pulumi-project': 'checkpoints-azure',
      'pulumi-stack': 'prod',
    };
    const taggable = customResources(snapshot).filter((r) => TAGGABLE.includes(r.type as never));
    expect(taggable).toHaveLength(1 + 2 * 6);
    for (const resource of taggable) {
      const store = resource.type === T.group ? undefined : resource.name.startsWith('fast') ? 'fast' : 'llm';
      const expected =
        store === undefined
          ? { ...standard, 'data-classification': 'restricted' }
          : {
              ...standard,
              'data-classification': store === 'fast' ? 'restricted' : 'confidential',
              'checkpoint-store': store,
            };
      expect({ name: resource.name, type: resource.type, tags: resource.inputs['tags'] }).toEqual({
        name: resource.name,
        type: resource.type,
        tags: expected,
      });
    }
  });
});
