import {
  COMPONENT_TYPES,
  isStoreComponent,
  resourcesOfType,
  storeCloudOf,
  storesOf,
  type RenderedResource,
} from '../src';

function resource(urn: string, type: string, parent: string | null, name = urn): RenderedResource {
  return { urn, type, name, parent, protect: false, retainOnDelete: false, dependsOn: [], inputs: {} };
}

describe('storesOf', () => {
  const resources = [
    resource('stack', 'pulumi:pulumi:Stack', null),
    resource('a', 'checkpoints:aws:CheckpointStore', 'stack', 'llm'),
    resource('a-bucket', 'aws:s3/bucket:Bucket', 'a'),
    resource('a-nested', 'aws:s3/bucketPolicy:BucketPolicy', 'a-bucket'),
    resource('b', 'checkpoints:aws:CheckpointStore', 'stack', 'fast'),
    resource('b-bucket', 'aws:s3/directoryBucket:DirectoryBucket', 'b'),
    resource('shared', 'aws:cloudtrail/trail:Trail', 'stack'),
  ];

  it('gives each store the resources below its component, at any depth, and no others', () => {
    const stores = storesOf({ resources });
    expect(stores.map((store) => [store.name, store.cloud, store.resources.map((r) => r.urn)])).toEqual([
      ['llm', 'aws', ['a-bucket', 'a-nested']],
      ['fast', 'aws', ['b-bucket']],
    ]);
  });

  it('survives a parent cycle without looping', () => {
    const cyclic = [resource('x', 'aws:s3/bucket:Bucket', 'y'), resource('y', 'aws:s3/bucket:Bucket', 'x')];
    expect(storesOf({ resources: cyclic })).toEqual([]);
  });

  it('finds resources by type token', () => {
    expect(resourcesOfType(resources, 'aws:s3/bucket:Bucket').map((r) => r.urn)).toEqual(['a-bucket']);
  });
});

describe('component type tokens', () => {
  it('names each cloud by its store component and nothing else', () => {
    expect(storeCloudOf(COMPONENT_TYPES.store.aws)).toBe('aws');
    expect(storeCloudOf(COMPONENT_TYPES.store.gcp)).toBe('gcp');
    expect(storeCloudOf(COMPONENT_TYPES.store.azure)).toBe('azure');
    expect(storeCloudOf(COMPONENT_TYPES.awsStoreReplica)).toBeUndefined();
    expect(storeCloudOf('checkpoints:aws:CheckpointStoreX')).toBeUndefined();
    expect(isStoreComponent('aws:s3/bucket:Bucket')).toBe(false);
  });

  it('counts a replica as a resource of its store, not a store', () => {
    const stores = storesOf({
      resources: [
        resource('s', COMPONENT_TYPES.store.aws, null, 'llm'),
        resource('r', COMPONENT_TYPES.awsStoreReplica, 's', 'llm-replica'),
        resource('rb', 'aws:s3/bucket:Bucket', 'r'),
      ],
    });
    expect(stores.map((store) => [store.name, store.resources.map((r) => r.urn)])).toEqual([
      ['llm', ['r', 'rb']],
    ]);
  });
});
