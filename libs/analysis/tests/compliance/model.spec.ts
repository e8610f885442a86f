import { UNKNOWN_MARK } from '@checkpoints/render';
import {
  AWS_CONTROLS,
  complianceSummary,
  fail,
  judgeStore,
  pass,
  unknownAt,
  type CloudCompliance,
} from '../../src/compliance';

interface Subject {
  logged: unknown;
  accepted: boolean;
}

const compliance: CloudCompliance<Subject> = {
  checks: [
    {
      controls: [AWS_CONTROLS.s3_9, AWS_CONTROLS.cis34],
      field: 'aws:s3/bucketLogging:BucketLogging targetBucket',
      rule: 'aws-s3-access-logging',
      judge: (subject) =>
        unknownAt(subject.logged, 'the target bucket') ??
        (subject.logged ? pass('logged') : fail('not logged')),
    },
    {
      controls: [AWS_CONTROLS.s3_17],
      field: 'sseAlgorithm',
      judge: () => {
        throw new Error('no rules');
      },
    },
  ],
  exceptions: [
    {
      controls: [AWS_CONTROLS.s3_9],
      when: 'accepted',
      reason: 'because',
      applies: (subject) => subject.accepted,
    },
  ],
};

describe('judgeStore', () => {
  it('gives every control of a check its verdict, with the field, the rule and the benchmark', () => {
    const [s3, cis] = judgeStore(compliance, { logged: true, accepted: false });
    expect(s3).toMatchObject({
      control: 'S3.9',
      verdict: 'pass',
      field: 'aws:s3/bucketLogging:BucketLogging targetBucket',
      rule: 'aws-s3-access-logging',
      url: 'https://docs.aws.amazon.com/securityhub/latest/userguide/s3-controls.html#s3-9',
    });
    expect(cis).toMatchObject({ control: 'CIS AWS 3.4', verdict: 'pass' });
    expect(cis?.benchmark).toContain('CIS Amazon Web Services Foundations Benchmark v3.0.0');
  });

  it('turns a failure into an exception only for the controls the exception names, with its reason', () => {
    const [s3, cis] = judgeStore(compliance, { logged: false, accepted: true });
    expect(s3).toMatchObject({ verdict: 'exception', reason: 'because', detail: 'not logged' });
    expect(cis).toMatchObject({ verdict: 'fail', detail: 'not logged' });
  });

  it('fails closed: a value unknown at preview, or a check that cannot read the render, is a failure that says so', () => {
    const verdicts = judgeStore(compliance, { logged: UNKNOWN_MARK, accepted: false });
    expect(verdicts[0]).toMatchObject({
      verdict: 'fail',
      detail: 'the target bucket is unknown until the deploy (counted as not set)',
    });
    expect(verdicts[2]).toMatchObject({
      control: 'S3.17',
      verdict: 'fail',
      detail: 'the check could not read the render (no rules): counted as failed',
    });
  });
});

describe('complianceSummary', () => {
  it('counts each verdict and names every failing control of every store', () => {
    const controls = judgeStore(compliance, { logged: false, accepted: false });
    expect(complianceSummary([{ store: 'llm-pretrain', cloud: 'aws', environment: 'prod', controls }])).toBe(
      '1 store: 0 pass, 3 fail, 0 exception, 0 not-applicable, 0 outside-repo; FAIL: llm-pretrain S3.9, llm-pretrain CIS AWS 3.4, llm-pretrain S3.17',
    );
  });
});
