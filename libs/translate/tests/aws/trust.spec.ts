import { awsTrustPolicy } from '../../src/aws/trust';
import type { AwsPolicyStatement } from '../../src/aws/types';

const root = 'arn:aws:iam::123456789012:root';
const trainingRole = 'arn:aws:iam::123456789012:role/ml/training-jobs';
const otherAccount = 'arn:aws:iam::210987654321:root';

describe('awsTrustPolicy', () => {
  it.each<[string, string[], AwsPolicyStatement[]]>([
    [
      'no principals: the account root, so only an explicit identity policy lets anyone in',
      [],
      [
        {
          Sid: 'AccountIdentityPolicies',
          Effect: 'Allow',
          Principal: { AWS: [root] },
          Action: ['sts:AssumeRole'],
        },
      ],
    ],
    [
      'IAM principals go under Principal.AWS, in the order given',
      [trainingRole, otherAccount],
      [
        {
          Sid: 'ConfiguredPrincipals',
          Effect: 'Allow',
          Principal: { AWS: [trainingRole, otherAccount] },
          Action: ['sts:AssumeRole'],
        },
      ],
    ],
    [
      'service principals go under Principal.Service, only for the deploying account (confused deputy)',
      ['sagemaker.amazonaws.com', 'ec2.amazonaws.com'],
      [
        {
          Sid: 'ConfiguredServices',
          Effect: 'Allow',
          Principal: { Service: ['sagemaker.amazonaws.com', 'ec2.amazonaws.com'] },
          Action: ['sts:AssumeRole'],
          Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
        },
      ],
    ],
    [
      'EKS Pod Identity also tags the session, nothing else gets sts:TagSession, and it has no source account',
      ['pods.eks.amazonaws.com', trainingRole, 'sagemaker.amazonaws.com'],
      [
        {
          Sid: 'ConfiguredPrincipals',
          Effect: 'Allow',
          Principal: { AWS: [trainingRole] },
          Action: ['sts:AssumeRole'],
        },
        {
          Sid: 'ConfiguredServices',
          Effect: 'Allow',
          Principal: { Service: ['sagemaker.amazonaws.com'] },
          Action: ['sts:AssumeRole'],
          Condition: { StringEquals: { 'aws:SourceAccount': '123456789012' } },
        },
        {
          Sid: 'ConfiguredSessionTaggingServices',
          Effect: 'Allow',
          Principal: { Service: ['pods.eks.amazonaws.com'] },
          Action: ['sts:AssumeRole', 'sts:TagSession'],
        },
      ],
    ],
  ])('%s', (_title, principals, statements) => {
    expect(awsTrustPolicy(principals, root)).toEqual({ Version: '2012-10-17', Statement: statements });
  });
});

describe('awsTrustPolicy in other partitions and with a bad root', () => {
  it('reads the account of a GovCloud root', () => {
    expect(
      awsTrustPolicy(['sagemaker.amazonaws.com'], 'arn:aws-us-gov:iam::210987654321:root').Statement,
    ).toEqual([
      {
        Sid: 'ConfiguredServices',
        Effect: 'Allow',
        Principal: { Service: ['sagemaker.amazonaws.com'] },
        Action: ['sts:AssumeRole'],
        Condition: { StringEquals: { 'aws:SourceAccount': '210987654321' } },
      },
    ]);
  });

  it('refuses an ARN that is not an account root', () => {
    expect(() => awsTrustPolicy([], trainingRole)).toThrow(
      'awsTrustPolicy: arn:aws:iam::123456789012:role/ml/training-jobs is not an account root ARN (arn:<partition>:iam::<account>:root)',
    );
  });
});
