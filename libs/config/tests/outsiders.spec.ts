import {
  allowedAccountsOf,
  allowedAccountsRequired,
  awsRules,
  ConfigError,
  gcpRules,
  loadStackSpec,
  type ConfigIssue,
  type StoreSpec,
} from '../src';
import { NETWORK, prodConfig } from './gcp-helpers';

/** Who else may touch a prod store: principals from outside the stack are refused unless listed with why. */
const PROJECT = 'ml-platform-prod-7310';

function issuesOf(
  readers: string[],
  listed?: { principal: string; reason: string }[],
  environment = 'prod',
): ConfigIssue[] {
  const config = {
    ...prodConfig([
      { name: 'llm-pretrain', dataClassification: 'confidential', network: NETWORK, access: { readers } },
    ]),
    'checkpoints:environment': environment,
    ...(listed ? { 'checkpoints:externalPrincipals': JSON.stringify(listed) } : {}),
  };
  try {
    loadStackSpec(config, gcpRules({ region: 'us-central1', project: PROJECT }));
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('a prod store names principals from outside its stack only when externalPrincipals lists them', () => {
  it.each([
    [
      'a consumer-domain group',
      'group:ml-friends@gmail.com',
      'is of the consumer domain gmail.com, outside the organization',
    ],
    ['a consumer domain', 'domain:outlook.com', 'is of the consumer domain outlook.com'],
    [
      "another project's service account",
      'serviceAccount:evaluator@ml-platform-dev-4821.iam.gserviceaccount.com',
      `is an identity of project ml-platform-dev-4821 (another project or environment), not of gcp:project ${PROJECT}`,
    ],
    [
      "another project's GKE workload identity pool",
      'principalSet://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ml-platform-dev-4821.svc.id.goog/namespace/training',
      'is an identity of project ml-platform-dev-4821',
    ],
    [
      'a CI service account',
      'serviceAccount:checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com',
      'is a CI identity',
    ],
    [
      "CI's workload identity pool",
      'principalSet://iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/checkpoints-ci/attribute.repository/acme/checkpoint-storage',
      "member of CI's workload identity pool",
    ],
  ])('refuses %s, naming the key, the value and what is allowed', (_what, member, why) => {
    const [issue, ...others] = issuesOf([member]);
    expect(others).toEqual([]);
    expect(issue?.path).toBe('checkpoints:stores[0].access.readers[0]');
    expect(issue?.value).toBe(member);
    expect(issue?.message).toContain(why);
    expect(issue?.message).toContain('checkpoints:externalPrincipals');
  });

  it("takes the project's own identities and the organization's groups", () => {
    expect(
      issuesOf([`serviceAccount:evaluator@${PROJECT}.iam.gserviceaccount.com`, 'group:ml-eval@example.com']),
    ).toEqual([]);
  });

  it('takes an outside principal listed with its reason, and keeps the reason in the spec', () => {
    const listed = [
      { principal: 'group:ml-friends@gmail.com', reason: 'external evaluation partner, contract 42' },
    ];
    expect(issuesOf(['group:ml-friends@gmail.com'], listed)).toEqual([]);
    const spec = loadStackSpec(
      {
        ...prodConfig([
          {
            name: 'llm-releases',
            dataClassification: 'internal',
            network: NETWORK,
            access: { readers: ['group:ml-friends@gmail.com'] },
          },
          { name: 'llm-other', dataClassification: 'internal', network: NETWORK },
        ]),
        'checkpoints:externalPrincipals': JSON.stringify(listed),
      },
      gcpRules({ region: 'us-central1', project: PROJECT }),
    );
    expect(spec.externalPrincipals).toEqual(listed);
    expect(spec.stores[0]?.access.external).toEqual(listed);
    expect(spec.stores[1]?.access.external).toBeUndefined();
  });

  it('refuses a reason too short to say why', () => {
    const issues = issuesOf(['group:x@gmail.com'], [{ principal: 'group:x@gmail.com', reason: 'ok' }]);
    expect(issues.some((issue) => issue.path.startsWith('checkpoints:externalPrincipals[0].reason'))).toBe(
      true,
    );
  });

  it('lets a dev store name them', () => {
    expect(issuesOf(['group:ml-friends@gmail.com'], undefined, 'dev')).toEqual([]);
  });

  it('refuses a CI role on an AWS prod store', () => {
    const config = prodConfig([
      {
        name: 'llm-pretrain',
        dataClassification: 'confidential',
        network: { vpcEndpoints: ['vpce-0a1b2c3d4e5f60718'] },
        access: { readers: ['arn:aws:iam::123456789012:role/checkpoints-ci-preview'] },
      },
    ]);
    expect(() => loadStackSpec(config, awsRules)).toThrow(/access\.readers\[0\].*is a CI role/s);
  });

  describe("an AWS prod store's principals of another account than aws:allowedAccountIds", () => {
    const awsIssues = (readers: string[], accounts?: string[], listed?: object[]) => {
      const config = {
        ...prodConfig([
          {
            name: 'llm-pretrain',
            dataClassification: 'confidential',
            network: { vpcEndpoints: ['vpce-0a1b2c3d4e5f60718'] },
            access: { readers },
          },
        ]),
        ...(listed ? { 'checkpoints:externalPrincipals': JSON.stringify(listed) } : {}),
      };
      try {
        loadStackSpec(config, awsRules.forRegion('us-east-1', accounts));
      } catch (error) {
        if (error instanceof ConfigError) return [...error.issues];
        throw error;
      }
      return [];
    };
    const other = 'arn:aws:iam::210987654321:role/partner-evaluation';
    const storeNaming = (principal: string) =>
      ({ access: { writers: [], readers: [principal] } }) as unknown as StoreSpec;

    it('are refused, naming the account and the stack key', () => {
      const [issue, ...rest] = awsIssues([other], ['123456789012']);
      expect(rest).toEqual([]);
      expect(issue?.path).toBe('checkpoints:stores[0].access.readers[0]');
      expect(issue?.message).toContain(
        'is of account 210987654321, not of this stack\'s aws:allowedAccountIds ["123456789012"]',
      );
      expect(issue?.message).toContain('checkpoints:externalPrincipals');
    });

    it("are taken when listed with a reason; the stack's own account and service principals always", () => {
      expect(
        awsIssues(
          [other],
          ['123456789012'],
          [{ principal: other, reason: 'partner evaluation, contract 42' }],
        ),
      ).toEqual([]);
      expect(
        awsIssues(
          ['arn:aws:iam::123456789012:role/ml-evaluation', 'sagemaker.amazonaws.com'],
          ['123456789012'],
        ),
      ).toEqual([]);
    });

    it('need aws:allowedAccountIds in prod, or the account could not be judged', () => {
      expect(
        allowedAccountsRequired({ environment: 'prod', stores: [storeNaming(other)] }, undefined),
      ).toEqual([expect.objectContaining({ path: 'aws:allowedAccountIds', value: undefined })]);
      expect(
        allowedAccountsRequired({ environment: 'prod', stores: [storeNaming(other)] }, ['123456789012']),
      ).toEqual([]);
      expect(
        allowedAccountsRequired({ environment: 'dev', stores: [storeNaming(other)] }, undefined),
      ).toEqual([]);
      expect(
        allowedAccountsRequired(
          { environment: 'prod', stores: [storeNaming('sagemaker.amazonaws.com')] },
          undefined,
        ),
      ).toEqual([]);
    });
  });

  it('reads aws:allowedAccountIds as the provider takes it, and names a malformed one', () => {
    expect(allowedAccountsOf('["123456789012"]')).toEqual({ accounts: ['123456789012'], issues: [] });
    expect(allowedAccountsOf(undefined)).toEqual({ issues: [] });
    expect(allowedAccountsOf('["12345"]').issues).toEqual([
      {
        path: 'aws:allowedAccountIds',
        value: '["12345"]',
        message: 'must be a list of 12-digit AWS account IDs, e.g. ["123456789012"]',
      },
    ]);
  });
});
