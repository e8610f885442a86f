/**
 * The read-only preflight of the AWS stack: what its first deploy needs, asked with the caller's own
 * credentials through the official SDK, never a write (only Get, List and Head calls; the tests hold it to that).
 */
const { STSClient, GetCallerIdentityCommand } = require('@aws-sdk/client-sts');
const { IAMClient, GetRoleCommand } = require('@aws-sdk/client-iam');
const { S3Client, HeadBucketCommand } = require('@aws-sdk/client-s3');
const { checklist } = require('./checks.cjs');

/**
 * @typedef {import('./checks.cjs').Check} Check
 * @typedef {{ sts: STSClient, iam: IAMClient, s3: S3Client }} AwsClients
 * @typedef {{ environment: string, region: string, deployRole: string, stateBucket?: string }} AwsTarget
 */

/** @param {string} region @returns {AwsClients} the SDK's clients, credentials from its default chain */
function awsClients(region) {
  return { sts: new STSClient({ region }), iam: new IAMClient({ region }), s3: new S3Client({ region }) };
}

/**
 * The SDK's own words for a failed call, with what to do when it is the credentials.
 * @param {unknown} error
 */
function failure(error) {
  const { name = 'Error', message = String(error) } =
    error instanceof Error ? error : /** @type {{ name?: string, message?: string }} */ ({});
  if (name === 'CredentialsProviderError' || /credential/i.test(message)) {
    return 'no AWS credentials: sign in (aws sso login, or AWS_PROFILE / AWS_ACCESS_KEY_ID) and run it again';
  }
  return `${name}: ${message}`;
}

/**
 * @param {AwsClients} clients
 * @param {AwsTarget} target
 * @returns {Promise<Check[]>} one check per question, in order; a failed question never stops the others
 */
async function awsPreflight(clients, target) {
  const { checks, ask } = checklist(failure);
  await ask('who am I', async () => {
    // GetCallerIdentity (https://docs.aws.amazon.com/STS/latest/APIReference/API_GetCallerIdentity.html).
    const caller = await clients.sts.send(new GetCallerIdentityCommand({}));
    return `${caller.Arn} in account ${caller.Account}, region ${target.region}`;
  });
  await ask(`bootstrap applied: deploy role ${target.deployRole}`, async () => {
    // GetRole (https://docs.aws.amazon.com/IAM/latest/APIReference/API_GetRole.html).
    const { Role } = await clients.iam.send(new GetRoleCommand({ RoleName: target.deployRole }));
    return `${Role?.Arn}`;
  });
  if (target.stateBucket !== undefined) {
    await ask(`state backend s3://${target.stateBucket} reachable`, async () => {
      // HeadBucket (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html).
      await clients.s3.send(new HeadBucketCommand({ Bucket: target.stateBucket }));
      return 'the bucket answers';
    });
  }
  return checks;
}

module.exports = { awsClients, awsPreflight, failure };
