import * as pulumi from '@pulumi/pulumi';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { render } from '../src/render';
import { getStore, withoutForeignTypeAliases } from '../src/pulumi-internals';

/* eslint-disable @typescript-eslint/no-require-imports */
const debuggable = require('@pulumi/pulumi/runtime/debuggable') as {
  debuggablePromise<T>(promise: Promise<T>, context: unknown): Promise<T>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

const runtimeGlobals = globalThis as { globalStore?: unknown };

function bucketsProgram(prefix: string, count: number) {
  return async () => {
    // Registrations interleave with those of a concurrent render while this one waits.
    for (let index = 0; index < count; index++) {
      new Bucket(`${prefix}-${index}`, { bucket: `${prefix}-${index}` });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { prefix };
  };
}

describe('the render runtime', () => {
  it('keeps renders that run at the same time apart: each records its own resources, config and outputs', async () => {
    const [first, second] = await Promise.all([
      render(bucketsProgram('first', 3), { project: 'one', stack: 'dev', config: { 'one:key': 'a' } }),
      render(
        async () => {
          const result = await bucketsProgram('second', 2)();
          return { ...result, key: new pulumi.Config('two').require('key') };
        },
        { project: 'two', stack: 'prod', config: { 'two:key': 'b' } },
      ),
    ]);
    expect(first.resources.map((r) => r.urn)).toEqual([
      'urn:pulumi:dev::one::pulumi:pulumi:Stack::one-dev',
      'urn:pulumi:dev::one::pulumi:pulumi:Stack$aws:s3/bucket:Bucket::first-0',
      'urn:pulumi:dev::one::pulumi:pulumi:Stack$aws:s3/bucket:Bucket::first-1',
      'urn:pulumi:dev::one::pulumi:pulumi:Stack$aws:s3/bucket:Bucket::first-2',
    ]);
    expect(second.resources.map((r) => r.urn)).toEqual([
      'urn:pulumi:prod::two::pulumi:pulumi:Stack::two-prod',
      'urn:pulumi:prod::two::pulumi:pulumi:Stack$aws:s3/bucket:Bucket::second-0',
      'urn:pulumi:prod::two::pulumi:pulumi:Stack$aws:s3/bucket:Bucket::second-1',
    ]);
    expect(first.outputs).toEqual({ prefix: 'first' });
    expect(second.outputs).toEqual({ prefix: 'second', key: 'b' });
  });

  it("gives a render a store of its own and puts the process's store back afterwards", async () => {
    const before = getStore();
    let during: unknown;
    await render(
      () => {
        during = getStore();
      },
      { project: 'fx', stack: 'dev' },
    );
    expect(during).not.toBe(before);
    expect(getStore()).toBe(before);
    expect(runtimeGlobals.globalStore).toBe(before);
  });

  it("settles each promise the SDK tracks in the microtask turn the SDK's own tracking settles it", async () => {
    /** The turn in which `wrap(make())` settles, and how, counted in microtasks from the call. */
    async function settledAt(
      wrap: (promise: Promise<unknown>) => Promise<unknown>,
      make: () => Promise<unknown>,
    ) {
      let turn = 0;
      let settled: string | undefined;
      wrap(make()).then(
        (value) => (settled = `${turn}: ${String(value)}`),
        (error: unknown) => (settled = `${turn}: ${(error as Error).message}`),
      );
      while (settled === undefined && turn < 20) {
        await Promise.resolve();
        turn++;
      }
      return settled;
    }
    const promises = [
      () => Promise.resolve(1),
      () => Promise.reject(new Error('refused')),
      () => Promise.resolve().then(() => Promise.resolve(2)),
    ];
    const sdk = debuggable.debuggablePromise;
    const bySdk: unknown[] = [];
    for (const make of promises) bySdk.push(await settledAt((p) => sdk(p, 'sdk'), make));
    const byRender: unknown[] = [];
    let inRender: unknown;
    await render(
      async () => {
        inRender = debuggable.debuggablePromise;
        for (const make of promises)
          byRender.push(await settledAt((p) => debuggable.debuggablePromise(p, 'render'), make));
      },
      { project: 'fx', stack: 'dev' },
    );
    expect(inRender).not.toBe(sdk);
    expect(bySdk).toEqual(['2: 1', '2: refused', '5: 2']);
    expect(byRender).toEqual(bySdk);
    expect(debuggable.debuggablePromise).toBe(sdk);
  });
});

describe('withoutForeignTypeAliases', () => {
  const transform = withoutForeignTypeAliases('fx', 'dev');
  const TYPE = 'aws:s3/bucket:Bucket';
  const URN = 'urn:pulumi:dev::fx::aws:s3/bucket:Bucket::old';

  it.each([
    ['another type only', [{ type: 'aws:s3/bucketV2:BucketV2' }], []],
    ['its own type', [{ type: TYPE }], [{ type: TYPE }]],
    [
      'a type and a name',
      [{ type: 'aws:s3/bucketV2:BucketV2', name: 'old' }],
      [{ type: 'aws:s3/bucketV2:BucketV2', name: 'old' }],
    ],
    ['a name', [{ name: 'old' }], [{ name: 'old' }]],
    ['a URN', [URN], [URN]],
    [
      'a qualified type',
      [{ type: 'a:b:C$aws:s3/bucketV2:BucketV2' }],
      [{ type: 'a:b:C$aws:s3/bucketV2:BucketV2' }],
    ],
    ['an Output', [pulumi.output(URN)], 'kept'],
  ])('an alias naming %s: left out only if it names another type and nothing else', (_, aliases, kept) => {
    const resource = {} as pulumi.Resource;
    const result = transform({ resource, type: TYPE, name: 'b', props: {}, opts: { aliases } });
    expect(result === undefined ? aliases : result.opts.aliases).toEqual(kept === 'kept' ? aliases : kept);
  });
});
