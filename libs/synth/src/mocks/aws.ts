import { guid, str, type CloudMocks, type MockState } from './common';

export const AWS_ACCOUNT_ID = '123456789012';

export function awsMocks(config: Record<string, string>): CloudMocks {
  const region = config['aws:region'] ?? 'us-east-1';
  const account = AWS_ACCOUNT_ID;
  const withArn =
    (id: string, arn: string, extra: Record<string, unknown> = {}) =>
    (inputs: Record<string, unknown>): MockState => ({ id, state: { ...inputs, arn, ...extra } });

  // A bucket's settings resources are identified by the bucket's name, as the provider reads them back.
  const byBucket = ({ name, inputs }: { name: string; inputs: Record<string, unknown> }): MockState => ({
    id: str(inputs['bucket'], name),
    state: { ...inputs },
  });
  const bucketSettings = Object.fromEntries(
    [
      'aws:s3/bucketOwnershipControls:BucketOwnershipControls',
      'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock',
      'aws:s3/bucketVersioning:BucketVersioning',
      'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
      'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
      'aws:s3/bucketPolicy:BucketPolicy',
      'aws:s3/bucketReplicationConfig:BucketReplicationConfig',
    ].map((type) => [type, byBucket]),
  );

  return {
    resources: {
      'aws:s3/bucket:Bucket': ({ name, inputs }) => {
        const bucket = str(inputs['bucket'], name);
        // A resource's own `region` input (provider 7.x) places it outside the provider's region.
        const bucketRegion = str(inputs['region'], region);
        return withArn(bucket, `arn:aws:s3:::${bucket}`, {
          bucket,
          region: bucketRegion,
          bucketDomainName: `${bucket}.s3.amazonaws.com`,
          bucketRegionalDomainName: `${bucket}.s3.${bucketRegion}.amazonaws.com`,
        })(inputs);
      },
      'aws:s3/directoryBucket:DirectoryBucket': ({ name, inputs }) => {
        const bucket = str(inputs['bucket'], name);
        return withArn(bucket, `arn:aws:s3express:${region}:${account}:bucket/${bucket}`, { bucket })(inputs);
      },
      'aws:kms/key:Key': ({ name, inputs }) => {
        const keyId = guid('aws-kms-key', name);
        return withArn(keyId, `arn:aws:kms:${str(inputs['region'], region)}:${account}:key/${keyId}`, {
          keyId,
        })(inputs);
      },
      'aws:kms/alias:Alias': ({ name, inputs }) => {
        const alias = str(inputs['name'], `alias/${name}`);
        return withArn(alias, `arn:aws:kms:${str(inputs['region'], region)}:${account}:${alias}`, {
          name: alias,
        })(inputs);
      },
      'aws:iam/role:Role': ({ name, inputs }) => {
        const roleName = str(inputs['name'], name);
        const path = str(inputs['path'], '/');
        return withArn(roleName, `arn:aws:iam::${account}:role${path}${roleName}`, {
          name: roleName,
          uniqueId: `AROA${guid('aws-role', roleName).replace(/-/g, '').slice(0, 17).toUpperCase()}`,
        })(inputs);
      },
      'aws:iam/policy:Policy': ({ name, inputs }) => {
        const policyName = str(inputs['name'], name);
        return withArn(policyName, `arn:aws:iam::${account}:policy/${policyName}`, { name: policyName })(
          inputs,
        );
      },
      'aws:iam/rolePolicy:RolePolicy': ({ name, inputs }) => {
        const policyName = str(inputs['name'], name);
        return { id: `${str(inputs['role'], 'role')}:${policyName}`, state: { ...inputs, name: policyName } };
      },
      ...bucketSettings,
    },
    calls: {
      'aws:index/getCallerIdentity:getCallerIdentity': () => ({
        accountId: account,
        arn: `arn:aws:iam::${account}:user/synth`,
        userId: 'AIDASYNTHUSER',
        id: account,
      }),
      'aws:index/getRegion:getRegion': () => ({ name: region, region, id: region }),
      'aws:index/getPartition:getPartition': () => ({
        partition: 'aws',
        dnsSuffix: 'amazonaws.com',
        id: 'aws',
      }),
    },
  };
}
