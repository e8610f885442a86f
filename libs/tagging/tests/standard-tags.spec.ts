import { standardTags, type TagContext } from '../src/index';

const prod: TagContext = {
  owner: 'ml-platform',
  costCenter: 'cc-1234',
  environment: 'prod',
  dataClassification: 'confidential',
  project: 'checkpoints-aws',
  stack: 'prod',
};

describe('standardTags', () => {
  it('tags a store with the whole standard set', () => {
    expect(standardTags({ ...prod, store: 'llm-pretrain' })).toStrictEqual({
      owner: 'ml-platform',
      'cost-center': 'cc-1234',
      environment: 'prod',
      'data-classification': 'confidential',
      'managed-by': 'pulumi',
      'pulumi-project': 'checkpoints-aws',
      'pulumi-stack': 'prod',
      'checkpoint-store': 'llm-pretrain',
    });
  });

  it('leaves checkpoint-store out for resources no single store owns', () => {
    expect(Object.keys(standardTags(prod))).toStrictEqual([
      'owner',
      'cost-center',
      'environment',
      'data-classification',
      'managed-by',
      'pulumi-project',
      'pulumi-stack',
    ]);
  });
});
