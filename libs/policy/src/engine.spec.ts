import { Bucket } from '@pulumi/aws/s3/bucket';
import { Bucket as GcsBucket } from '@pulumi/gcp/storage/bucket';
import type { ResourceValidationPolicy, StackValidationPolicy } from '@pulumi/policy';
import { evaluatePolicies } from './engine';
import { policyResource } from '../testing';

const noOverrides = { file: 'none', entries: {} };

const bucketIsType: ResourceValidationPolicy = {
  name: 'bucket-is-type',
  description: 'reports what the SDK type checks answer',
  validateResource: (args, report) => {
    if (!args.isType(Bucket)) args.notApplicable('not an S3 bucket');
    report(`s3 bucket ${String(args.asType(Bucket)?.bucket)}; gcs: ${args.isType(GcsBucket)}`);
  },
};

const dependencies: StackValidationPolicy = {
  name: 'dependencies',
  description: 'reports the property dependencies it sees',
  validateStack: (args, report) => {
    for (const resource of args.resources) {
      for (const [property, sources] of Object.entries(resource.propertyDependencies)) {
        report(
          `${resource.name}.${property} <- ${sources.map((source) => source.name).join(',')}; parent ${resource.parent?.name}`,
        );
      }
    }
  },
};

const stack = {
  project: 'p',
  stack: 's',
  outputs: {},
  resources: [
    policyResource({ type: 'fixture:index:Store', props: {}, name: 'store' }, 0),
    policyResource(
      {
        type: 'aws:s3/bucket:Bucket',
        props: { bucket: 'ckpt' },
        name: 'bucket',
        parent: 'urn:pulumi:test::spec::fixture:index:Store::store',
      },
      1,
    ),
    policyResource(
      {
        type: 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock',
        props: { bucket: 'ckpt' },
        name: 'pab',
        parent: 'urn:pulumi:test::spec::fixture:index:Store::store',
        propertyDependencies: { bucket: ['urn:pulumi:test::spec::aws:s3/bucket:Bucket::bucket'] },
      },
      2,
    ),
    policyResource({ type: 'gcp:storage/bucket:Bucket', props: { name: 'g' }, name: 'gcs' }, 3),
  ],
};

describe('evaluatePolicies', () => {
  it('answers isType/asType for SDK resource classes and skips resources a rule calls not applicable', async () => {
    const verdicts = await evaluatePolicies(stack, [bucketIsType], noOverrides);
    expect(verdicts).toEqual([
      {
        policy: 'bucket-is-type',
        level: 'mandatory',
        urn: 'urn:pulumi:test::spec::aws:s3/bucket:Bucket::bucket',
        message: 's3 bucket ckpt; gcs: false',
      },
    ]);
  });

  it('resolves property dependencies and parents to resources for stack rules', async () => {
    const verdicts = await evaluatePolicies(stack, [dependencies], noOverrides);
    expect(verdicts.map((verdict) => verdict.message)).toEqual(['pab.bucket <- bucket; parent store']);
  });

  it('gives every stack rule the same resources, frozen: no rule changes what the next one sees', async () => {
    const mutating: StackValidationPolicy = {
      name: 'mutating',
      description: 'drops the links of every resource it sees',
      validateStack: (args) => {
        for (const resource of args.resources) {
          resource.propertyDependencies = {};
          delete resource.parent;
        }
      },
    };
    await expect(evaluatePolicies(stack, [mutating, dependencies], noOverrides)).rejects.toThrow(TypeError);
    const verdicts = await evaluatePolicies(stack, [dependencies, dependencies], noOverrides);
    expect(verdicts.map((verdict) => verdict.message)).toEqual([
      'pab.bucket <- bucket; parent store',
      'pab.bucket <- bucket; parent store',
    ]);
  });

  it('applies the policy config: advisory reports as advisory, disabled does not run', async () => {
    const advisory = await evaluatePolicies(stack, [bucketIsType], {
      file: 'x',
      entries: { 'bucket-is-type': { enforcementLevel: 'advisory', reason: 'migration in progress' } },
    });
    expect(advisory.map((verdict) => verdict.level)).toEqual(['advisory']);
    const disabled = await evaluatePolicies(stack, [bucketIsType], {
      file: 'x',
      entries: { 'bucket-is-type': { enforcementLevel: 'disabled', reason: 'not applicable to this org' } },
    });
    expect(disabled).toEqual([]);
  });
});
