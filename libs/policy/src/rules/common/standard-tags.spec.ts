import { standardTagSet, violationsOf } from '../../../testing';
import { standardTags } from './standard-tags';

describe('standard-tags', () => {
  it('passes a bucket with the standard tags', async () => {
    expect(
      await violationsOf(standardTags, [{ type: 'aws:s3/bucket:Bucket', props: { tags: standardTagSet() } }]),
    ).toEqual([]);
  });

  it('passes GCS labels', async () => {
    expect(
      await violationsOf(standardTags, [
        { type: 'gcp:storage/bucket:Bucket', props: { labels: standardTagSet() } },
      ]),
    ).toEqual([]);
  });

  it('flags a storage account without owner and cost-center', async () => {
    const { owner: _owner, 'cost-center': _cost, ...partial } = standardTagSet();
    expect(
      await violationsOf(standardTags, [
        { type: 'azure-native:storage:StorageAccount', props: { tags: partial } },
      ]),
    ).toEqual(['tags missing: owner, cost-center']);
  });

  it('flags an untagged KMS key and a wrong managed-by', async () => {
    expect(await violationsOf(standardTags, [{ type: 'aws:kms/key:Key', props: {} }])).toEqual([
      'tags missing: owner, cost-center, environment, data-classification, managed-by, pulumi-project, pulumi-stack',
    ]);
    expect(
      await violationsOf(standardTags, [
        { type: 'aws:iam/role:Role', props: { tags: { ...standardTagSet(), 'managed-by': 'terraform' } } },
      ]),
    ).toEqual(['tags[\'managed-by\'] is "terraform"; must be "pulumi"']);
  });

  it('ignores types that take no tags', async () => {
    expect(
      await violationsOf(standardTags, [{ type: 'aws:s3/bucketPolicy:BucketPolicy', props: {} }]),
    ).toEqual([]);
  });
});
