import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeAccess, type RenderedResource } from '@checkpoints/analysis';
import { policyResource } from '../../testing';
import { accessOfRender, BOOTSTRAP_RENDER_ENV } from './analysis';
import { azureStore } from './spec-helpers';

/** The store of azureStore(environment), as the render records it. */
function render(environment: string): RenderedResource[] {
  return azureStore(environment).map((resource, index) => {
    const { urn, type, name, props } = policyResource(resource, index);
    return {
      urn,
      type,
      name,
      parent: resource.parent ?? null,
      protect: false,
      retainOnDelete: false,
      dependsOn: [],
      inputs: props,
    };
  });
}

describe('accessOfRender: one analysis per render, never another render with the same names', () => {
  afterEach(() => delete process.env[BOOTSTRAP_RENDER_ENV]);

  it('two renders with the same URNs and a different input each get their own analysis', async () => {
    const dev = await accessOfRender(render('dev'));
    const prod = await accessOfRender(render('prod'));
    expect(dev.stores.map((store) => store.environment)).toEqual(['dev']);
    expect(prod.stores.map((store) => store.environment)).toEqual(['prod']);
  });

  it('a list changed in place between two calls is analysed again (only frozen lists keep their text)', async () => {
    const resources = render('dev');
    const dev = await accessOfRender(resources);
    resources.splice(0, resources.length, ...render('prod'));
    const prod = await accessOfRender(resources);
    expect(dev.stores.map((store) => store.environment)).toEqual(['dev']);
    expect(prod.stores.map((store) => store.environment)).toEqual(['prod']);
  });

  it('a frozen list, as the engine hands every stack rule, is analysed as its content says', async () => {
    const frozen = Object.freeze(render('prod')) as RenderedResource[];
    expect(accessOfRender(frozen)).toBe(accessOfRender(render('prod')));
    expect((await accessOfRender(frozen)).stores.map((store) => store.environment)).toEqual(['prod']);
  });

  it('the same render asked twice is analysed once', async () => {
    const resources = render('prod');
    expect(accessOfRender(resources)).toBe(accessOfRender(render('prod')));
  });

  it('the render synth records and the same render as the access rules see it are analysed once', async () => {
    const stack = (inputs: Record<string, unknown>): RenderedResource => ({
      urn: 'urn:pulumi:prod::checkpoints-azure::pulumi:pulumi:Stack::checkpoints-azure-prod',
      type: 'pulumi:pulumi:Stack',
      name: 'checkpoints-azure-prod',
      parent: null,
      protect: false,
      retainOnDelete: false,
      dependsOn: [],
      inputs,
    });
    // synth records the root stack without inputs; a policy pack is handed the stack's outputs as its props,
    // and is not told retainOnDelete.
    const recorded = [
      stack({}),
      ...render('prod').map((resource) => ({ ...resource, protect: true, retainOnDelete: true })),
    ];
    const asRulesSeeIt = [stack({ stores: { prod: { account: 'stprod' } } }), ...render('prod')];
    expect(await analyzeAccess({ resources: recorded })).toEqual(
      await analyzeAccess({ resources: asRulesSeeIt }),
    );
    expect(accessOfRender(recorded)).toBe(accessOfRender(asRulesSeeIt));
  });

  it('a bootstrap render rewritten in place is read again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'access-key-'));
    try {
      const file = join(dir, 'ci.json');
      process.env[BOOTSTRAP_RENDER_ENV] = file;
      writeFileSync(file, JSON.stringify({ resources: [] }));
      const before = accessOfRender(render('prod'));
      await before;
      writeFileSync(file, JSON.stringify({ resources: [render('prod')[0]] }));
      expect(accessOfRender(render('prod'))).not.toBe(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
