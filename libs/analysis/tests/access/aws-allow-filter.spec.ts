import fc from 'fast-check';
import { runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { anyAllowMayApply } from '../../src/access/aws';

const ACCOUNT = '111122223333';
const ROLE = `arn:aws:iam::${ACCOUNT}:role/writer`;
const BUCKET = 'arn:aws:s3:::ckpt-prod-store';

function simulation(
  identity: Record<string, unknown>[],
  request: { action: string; resource: string },
  resourcePolicy?: Record<string, unknown>[],
): Simulation {
  return {
    request: {
      principal: ROLE,
      action: request.action,
      resource: { resource: request.resource, accountId: ACCOUNT },
      contextVariables: { 'aws:SecureTransport': 'true', 'aws:PrincipalArn': ROLE },
    },
    identityPolicies: [{ name: 'identity', policy: { Version: '2012-10-17', Statement: identity } }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(resourcePolicy ? { resourcePolicy: { Version: '2012-10-17', Statement: resourcePolicy } } : {}),
  };
}

async function simulatedAllowed(input: Simulation): Promise<boolean> {
  const result = await runSimulation(input, { simulationMode: 'Strict' });
  return result.resultType === 'single' && result.overallResult === 'Allowed';
}

// Rows from the IAM evaluation logic and element references: a request is allowed only by an Allow
// statement whose Action and Resource match it (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html,
// .../reference_policies_elements_action.html, .../reference_policies_elements_resource.html).
describe('the Allow pre-filter of the AWS access analysis', () => {
  it.each([
    [
      'no statement names the action',
      [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
      's3:PutObject',
      `${BUCKET}/a`,
      false,
    ],
    [
      'the action is named, on another bucket',
      [{ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::other/*' }],
      's3:GetObject',
      `${BUCKET}/a`,
      false,
    ],
    [
      'only a Deny names it',
      [{ Effect: 'Deny', Action: 's3:*', Resource: '*' }],
      's3:GetObject',
      `${BUCKET}/a`,
      false,
    ],
    [
      'a wildcard action matches',
      [{ Effect: 'Allow', Action: 's3:Get*', Resource: `${BUCKET}/*` }],
      's3:GetObject',
      `${BUCKET}/a`,
      true,
    ],
    [
      'action names are case-insensitive',
      [{ Effect: 'Allow', Action: 'S3:getobject', Resource: `${BUCKET}/*` }],
      's3:GetObject',
      `${BUCKET}/a`,
      true,
    ],
    [
      '? matches one character',
      [{ Effect: 'Allow', Action: 's3:GetObjec?', Resource: `${BUCKET}/?` }],
      's3:GetObject',
      `${BUCKET}/a`,
      true,
    ],
    [
      'NotAction may apply',
      [{ Effect: 'Allow', NotAction: 's3:DeleteObject', Resource: '*' }],
      's3:GetObject',
      `${BUCKET}/a`,
      true,
    ],
    [
      'NotResource may apply',
      [{ Effect: 'Allow', Action: 's3:GetObject', NotResource: 'arn:aws:s3:::other/*' }],
      's3:GetObject',
      `${BUCKET}/a`,
      true,
    ],
    [
      'a policy variable may apply',
      [{ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::${aws:username}/*' }],
      's3:GetObject',
      `${BUCKET}/a`,
      true,
    ],
  ])('%s', async (_row, identity, action, resource, mayApply) => {
    const input = simulation(identity, { action, resource });
    expect(anyAllowMayApply(input)).toBe(mayApply);
    if (!mayApply) expect(await simulatedAllowed(input)).toBe(false);
  });

  it('counts an Allow of the resource policy (a same-account bucket policy naming the role)', () => {
    const input = simulation([], { action: 's3:GetObject', resource: `${BUCKET}/a` }, [
      { Effect: 'Allow', Principal: { AWS: ROLE }, Action: 's3:GetObject', Resource: `${BUCKET}/*` },
    ]);
    expect(anyAllowMayApply(input)).toBe(true);
  });

  it('never rules out a request the simulation allows', async () => {
    const actions = ['s3:GetObject', 's3:PutObject', 'kms:Decrypt'];
    const patterns = ['*', 's3:*', 's3:Get*', 'S3:PUTOBJECT', 's3:?etObject', 'kms:*', ...actions];
    const resources = [`${BUCKET}/a`, 'arn:aws:s3:::other/a', `arn:aws:kms:us-east-1:${ACCOUNT}:key/k`];
    const resourcePatterns = ['*', `${BUCKET}/*`, 'arn:aws:s3:::*/a', 'arn:aws:kms:*', ...resources];
    const statement = fc.record(
      {
        Effect: fc.constantFrom('Allow', 'Deny'),
        Action: fc.array(fc.constantFrom(...patterns), { minLength: 1, maxLength: 3 }),
        Resource: fc.array(fc.constantFrom(...resourcePatterns), { minLength: 1, maxLength: 3 }),
        Principal: fc.constant({ AWS: ROLE }),
        Condition: fc.constantFrom(undefined, { Bool: { 'aws:SecureTransport': 'true' } }),
      },
      { requiredKeys: ['Effect', 'Action', 'Resource'] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(statement, { maxLength: 2 }),
        fc.array(statement, { maxLength: 1 }),
        fc.constantFrom(...actions),
        fc.constantFrom(...resources),
        async (identity, bucketPolicy, action, resource) => {
          const identityStatements = identity.map(({ Principal: _principal, ...rest }) => rest);
          const input = simulation(
            identityStatements,
            { action, resource },
            bucketPolicy.length > 0 ? bucketPolicy : undefined,
          );
          if (!anyAllowMayApply(input)) expect(await simulatedAllowed(input)).toBe(false);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
