import * as pulumi from '@pulumi/pulumi';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { ConfigError } from '@checkpoints/config';
import { withoutForeignTypeAliases } from '../src/foreign-type-aliases';
import { render, RenderFailure, storeComponentsOf } from '../src/render';

function bucketsProgram(prefix: string, count: number) {
  return async () => {
    // Registrations would interleave with those of a concurrent render while this one waits.
    for (let index = 0; index < count; index++) {
      new Bucket(`${prefix}-${index}`, { bucket: `${prefix}-${index}` });
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { prefix };
  };
}

describe('the render runtime', () => {
  it('keeps renders started at the same time apart: each records its own resources, config and outputs', async () => {
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

  it('starts the next render after one whose program failed', async () => {
    const failed = render(
      () => {
        throw new Error('broken on purpose');
      },
      { project: 'one', stack: 'dev' },
    );
    const next = render(bucketsProgram('next', 1), { project: 'two', stack: 'dev' });
    await expect(failed).rejects.toThrow('broken on purpose');
    expect((await next).outputs).toEqual({ prefix: 'next' });
  });

  it('records one frame per stack trace during a render, and puts the limit back after one that failed', async () => {
    const limit = Error.stackTraceLimit;
    let frames: number | undefined;
    const failed = render(
      () => {
        frames ??= new Error('during').stack?.split('\n').filter((line) => line.startsWith('    at ')).length;
        throw new Error('broken on purpose');
      },
      { project: 'one', stack: 'dev' },
    );
    await expect(failed).rejects.toThrow('broken on purpose');
    expect(frames).toBe(1);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("reports a failed program's error with all its frames, and a config error from the first run", async () => {
    const framesOf = (error: unknown) =>
      String((error as Error).stack)
        .split('\n')
        .filter((line) => line.startsWith('    at ')).length;
    const deep = (depth: number): never => {
      if (depth === 0) throw new Error('broken deep down');
      return deep(depth - 1);
    };
    let runs = 0;
    const failed = await render(
      () => {
        runs += 1;
        deep(5);
      },
      { project: 'one', stack: 'dev' },
    ).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(RenderFailure);
    expect(framesOf((failed as RenderFailure).cause)).toBeGreaterThan(5);
    expect(runs).toBe(2);

    runs = 0;
    const invalid = await render(
      () => {
        runs += 1;
        throw new ConfigError([]);
      },
      { project: 'one', stack: 'dev' },
    ).catch((error: unknown) => error);
    expect((invalid as RenderFailure).cause).toBeInstanceOf(ConfigError);
    expect(runs).toBe(1);
  });

  it('gives the Pulumi runtime back when it ends, and refuses to start while mocks of someone else hold it', async () => {
    await render(bucketsProgram('done', 1), { project: 'one', stack: 'dev' });
    expect(pulumi.runtime.hasMonitor()).toBe(false);
    await pulumi.runtime.setMocks({ newResource: () => ({ id: 'x', state: {} }), call: () => ({}) });
    try {
      await expect(render(bucketsProgram('refused', 1), { project: 'one', stack: 'dev' })).rejects.toThrow(
        'holds the Pulumi runtime of this process',
      );
    } finally {
      pulumi.runtime.setMockOptions(undefined);
    }
  });
});

describe('withoutForeignTypeAliases', () => {
  const TYPE = 'aws:s3/bucket:Bucket';
  const URN = 'urn:pulumi:dev::fx::aws:s3/bucket:Bucket::old';
  /** A resource as a provider SDK's class has it while its constructor runs: its type recorded. */
  const providerResource = () => Object.assign(Object.create(Bucket.prototype), { __pulumiType: TYPE });

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
    const transform = withoutForeignTypeAliases();
    const result = transform({
      resource: providerResource(),
      type: TYPE,
      name: 'b',
      props: {},
      opts: { aliases },
    });
    expect(result === undefined ? aliases : result.opts.aliases).toEqual(kept === 'kept' ? aliases : kept);
  });

  it("keeps a component's type aliases: its children inherit them", () => {
    const transform = withoutForeignTypeAliases();
    const component = Object.create(pulumi.ComponentResource.prototype) as pulumi.Resource;
    const aliases = [{ type: 'fixture:index:OldStore' }];
    const opts = { aliases };
    expect(transform({ resource: component, type: 'fixture:index:Store', name: 'c', props: {}, opts })).toBe(
      undefined,
    );
  });

  it('fails the render of a child of a provider resource whose type aliases it left out', async () => {
    const failure = await render(
      () => {
        const parent = new Bucket('outer', {});
        new Bucket('outer-inner', {}, { parent });
      },
      { project: 'fx', stack: 'dev' },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RenderFailure);
    expect((failure as RenderFailure).message).toBe(
      "aws:s3/bucket:Bucket 'outer-inner' is a child of aws:s3/bucket:Bucket 'outer', whose aliases to former types the offline render leaves out; the child would not inherit them, so synth cannot render it as Pulumi would register it",
    );
  });
});

describe("a previous render's stores", () => {
  const resource = (type: string, name: string, inputs: Record<string, unknown>) => ({
    urn: `urn:${name}`,
    type,
    name,
    parent: null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
  });

  it('are its store components on every cloud, by name and recorded inputs, and nothing else', () => {
    expect(
      storeComponentsOf({
        resources: [
          resource('checkpoints:gcp:CheckpointStore', 'llm', { tier: 'standard' }),
          resource('checkpoints:aws:CheckpointStore', 'fast', { tier: 'high-throughput' }),
          resource('checkpoints:aws:StoreReplica', 'fast-replica', { replicaRegion: 'us-west-2' }),
          resource('gcp:storage/bucket:Bucket', 'llm-bucket', { location: 'US' }),
        ],
      }),
    ).toEqual([
      { name: 'llm', inputs: { tier: 'standard' } },
      { name: 'fast', inputs: { tier: 'high-throughput' } },
    ]);
  });
});
