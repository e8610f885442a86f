import { awsPolicies } from '.';
import { describeCloudRules } from '../../../testing/rules';

describe('awsPolicies', () => {
  describeCloudRules({
    cloud: 'aws',
    policies: awsPolicies,
    folder: __dirname,
    namePattern: /^aws-(s3|kms|iam)-[a-z0-9-]+$/,
    sdk: { package: '@pulumi/aws' },
    tokenPrefix: 'aws',
    leastTokens: 31,
  });
});
