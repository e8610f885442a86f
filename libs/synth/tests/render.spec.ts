import { ConfigError } from '@checkpoints/config';
import { render, RenderFailure } from '../src/render';
import { byName, childrenOf, customResources } from '../src/query';
import * as pulumi from '@pulumi/pulumi';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { fixtureProgram } from './fixtures/simple';

const config = { 'fixture:name': 'ckpt', 'fixture:apiToken': 'tok', 'aws:region': 'eu-west-1' };

describe('render', () => {
  it('records every resource with its parent, options, dependencies and inputs', async () => {
    const snapshot = await render(fixtureProgram, {
      project: 'fx',
      stack: 'dev',
      config,
      secretKeys: ['fixture:apiToken'],
    });
    expect(snapshot.resources.map((r) => `${r.type}::${r.name}`)).toEqual([
      'pulumi:pulumi:Stack::fx-dev',
      'fixture:index:Store::ckpt',
      'aws:s3/bucket:Bucket::ckpt-bucket',
      'aws:iam/role:Role::ckpt-role',
    ]);
    const store = byName(snapshot, 'fixture:index:Store', 'ckpt');
    const bucket = byName(snapshot, 'aws:s3/bucket:Bucket', 'ckpt-bucket');
    const role = byName(snapshot, 'aws:iam/role:Role', 'ckpt-role');
    expect(store).toMatchObject({
      custom: false,
      protect: true,
      parent: 'urn:pulumi:dev::fx::pulumi:pulumi:Stack::fx-dev',
    });
    expect(bucket).toMatchObject({
      urn: 'urn:pulumi:dev::fx::fixture:index:Store$aws:s3/bucket:Bucket::ckpt-bucket',
      custom: true,
      protect: true,
      retainOnDelete: true,
      parent: store.urn,
    });
    expect(role.retainOnDelete).toBe(false);
    expect(role.dependsOn).toEqual([bucket.urn]);
    expect(role.propertyDependencies).toEqual({ assumeRolePolicy: [bucket.urn] });
    expect(role.inputs['assumeRolePolicy']).toBe('{"arn":"arn:aws:s3:::ckpt-bucket"}');
    expect(childrenOf(snapshot, store)).toHaveLength(2);
    expect(customResources(snapshot)).toHaveLength(2);
  });

  it('returns stack outputs with provider-computed values in the real format and secrets masked', async () => {
    const snapshot = await render(fixtureProgram, {
      project: 'fx',
      stack: 'dev',
      config,
      secretKeys: ['fixture:apiToken'],
    });
    expect(snapshot.outputs).toEqual({
      roleArn: 'arn:aws:iam::123456789012:role/ckpt-role',
      token: '[secret]',
    });
  });

  it('renders the same snapshot twice (deterministic, isolated runs)', async () => {
    const first = await render(fixtureProgram, { project: 'fx', stack: 'dev', config });
    const second = await render(fixtureProgram, { project: 'fx', stack: 'dev', config });
    expect(second).toEqual(first);
  });

  it('fails with the config error before any resource is registered', async () => {
    const bad = { ...config, 'checkpoints:environment': 'qa' };
    const failure = await render(fixtureProgram, { project: 'fx', stack: 'dev', config: bad }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(RenderFailure);
    expect((failure as RenderFailure).cause).toBeInstanceOf(ConfigError);
    expect((failure as RenderFailure).resources.filter((r) => r.custom)).toEqual([]);
  });
});

describe('render of aliases', () => {
  class Renamed extends pulumi.ComponentResource {
    constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
      super('fixture:index:Store', name, {}, opts);
      new Bucket(`${name}-bucket`, {}, { parent: this, aliases: [{ type: 'aws:s3/bucketV2:BucketV2' }] });
      this.registerOutputs({});
    }
  }

  it("records the URNs a resource answers to, its parent's former name included, under its own type only", async () => {
    const snapshot = await render(() => void new Renamed('new', { aliases: [{ name: 'old' }] }), {
      project: 'fx',
      stack: 'dev',
    });
    expect(byName(snapshot, 'fixture:index:Store', 'new').aliases).toEqual([
      'urn:pulumi:dev::fx::fixture:index:Store::old',
    ]);
    expect(byName(snapshot, 'aws:s3/bucket:Bucket', 'new-bucket').aliases).toEqual([
      'urn:pulumi:dev::fx::fixture:index:Store$aws:s3/bucket:Bucket::old-bucket',
    ]);
  });

  it("records a child's aliases under its parent's former types", async () => {
    const snapshot = await render(
      () => {
        new Renamed('new', { aliases: [{ type: 'fixture:index:OldStore' }] });
        // The provider SDK aliases every Bucket to the type aws:s3/bucketV2:BucketV2.
        new Bucket('outer', {});
      },
      { project: 'fx', stack: 'dev' },
    );
    expect(byName(snapshot, 'fixture:index:Store', 'new')).not.toHaveProperty('aliases');
    expect(byName(snapshot, 'aws:s3/bucket:Bucket', 'new-bucket').aliases).toEqual([
      'urn:pulumi:dev::fx::fixture:index:OldStore$aws:s3/bucket:Bucket::new-bucket',
    ]);
    expect(byName(snapshot, 'aws:s3/bucket:Bucket', 'outer')).not.toHaveProperty('aliases');
  });

  it('leaves the field out when a resource has no alias', async () => {
    const snapshot = await render(() => void new Renamed('new'), { project: 'fx', stack: 'dev' });
    expect(byName(snapshot, 'fixture:index:Store', 'new')).not.toHaveProperty('aliases');
  });
});
