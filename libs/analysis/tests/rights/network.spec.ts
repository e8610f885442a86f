import type { RenderedResource } from '@checkpoints/render';
import { GCP_RIGHTS, missingDeployRights } from '../../src';

const PROJECT = 'ml-prod';
const BUCKET = 'ckpt-bucket';
const TRAINING = `projects/${PROJECT}/global/networks/training`;
const RUNNERS = `projects/${PROJECT}/global/networks/ci-runners`;
const ROLE = `projects/${PROJECT}/roles/ciEverything`;

const base = { protect: false, retainOnDelete: false, dependsOn: [] as string[] };

function resource(
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  parent: string | null = 'urn:store',
): RenderedResource {
  return { ...base, urn: `urn:${type}::${name}`, type, name, parent, inputs };
}

/** A prod store: an IP-filtered bucket admitting `networks`, a member on it, the store's account. */
function storeRender(ciRunners: unknown, networks: readonly string[], cidrs: readonly string[] = []) {
  return {
    resources: [
      {
        ...base,
        urn: 'urn:store',
        type: 'checkpoints:gcp:CheckpointStore',
        name: 'ckpt',
        parent: null,
        inputs: { ciRunners },
      },
      resource('gcp:storage/bucket:Bucket', 'ckpt-bucket', {
        name: BUCKET,
        ipFilter: {
          mode: 'Enabled',
          allowAllServiceAgentAccess: false,
          allowCrossOrgVpcs: false,
          ...(cidrs.length > 0 ? { publicNetworkSource: { allowedIpCidrRanges: [...cidrs] } } : {}),
          vpcNetworkSources: networks.map((network) => ({
            network,
            allowedIpCidrRanges: ['0.0.0.0/0', '::/0'],
          })),
        },
      }),
      resource('gcp:storage/bucketIAMMember:BucketIAMMember', 'ckpt-writer', {
        bucket: BUCKET,
        role: 'roles/storage.objectUser',
        member: `serviceAccount:writer@${PROJECT}.iam.gserviceaccount.com`,
      }),
      resource('gcp:serviceaccount/account:Account', 'ckpt-writer-account', { accountId: 'writer' }),
    ],
  };
}

/** CI's identities, each holding every permission of the rights table on the project (IAM is not in question). */
function bootstrap() {
  const permissions = [
    ...new Set(Object.values(GCP_RIGHTS).flatMap((r) => [...r.create, ...r.update, ...r.delete, ...r.read])),
  ];
  const account = (purpose: string) =>
    resource(
      'gcp:serviceaccount/account:Account',
      purpose,
      { accountId: `ci-${purpose}`, project: PROJECT },
      null,
    );
  const binding = (purpose: string) =>
    resource(
      'gcp:projects/iAMMember:IAMMember',
      `${purpose}-binding`,
      {
        project: PROJECT,
        role: ROLE,
        member: `serviceAccount:ci-${purpose}@${PROJECT}.iam.gserviceaccount.com`,
      },
      null,
    );
  return {
    resources: [
      resource(
        'gcp:projects/iAMCustomRole:IAMCustomRole',
        'role',
        { project: PROJECT, roleId: 'ciEverything', permissions },
        null,
      ),
      account('preview'),
      account('deploy-prod'),
      binding('preview'),
      binding('deploy-prod'),
    ],
  };
}

const blocked = async (render: ReturnType<typeof storeRender>) =>
  (await missingDeployRights('gcp', render, bootstrap(), 'prod')).filter((m) => m.blockedBy);

describe('network reachability of CI calls (GCS IP filtering)', () => {
  it("fails an IP-filtered bucket's IAM calls from GitHub-hosted runners, naming the call and the rule", async () => {
    const found = await blocked(storeRender({ kind: 'github-hosted' }, [TRAINING]));
    expect(found).toContainEqual(
      expect.objectContaining({
        resource: 'gcp:storage/bucketIAMMember:BucketIAMMember ckpt-writer',
        operation: 'create',
        permission: 'storage.buckets.setIamPolicy',
        identity: 'ci deploy-prod',
        on: `buckets/${BUCKET}`,
        blockedBy: expect.stringContaining('GitHub-hosted runners'),
      }),
    );
    // Drift and preview refresh the member through the preview identity: refused as well.
    expect(found).toContainEqual(
      expect.objectContaining({ identity: 'ci preview', permission: 'storage.buckets.getIamPolicy' }),
    );
    // Getting, updating and deleting the bucket itself are exempt for a holder of exemptFromIpFilter.
    expect(found.filter((m) => m.resource.startsWith('gcp:storage/bucket:Bucket'))).toEqual([]);
  });

  it('judges a store without ciRunners as GitHub-hosted, and self-hosted runners without a network as unknown', async () => {
    expect((await blocked(storeRender(undefined, [TRAINING]))).length).toBeGreaterThan(0);
    const unknown = await blocked(storeRender({ kind: 'self-hosted' }, [TRAINING]));
    expect(unknown[0]?.blockedBy).toContain('an unknown address');
  });

  it('passes self-hosted runners in a network the filter admits, and refuses them in one it does not', async () => {
    expect(
      await blocked(storeRender({ kind: 'self-hosted', networks: [RUNNERS] }, [TRAINING, RUNNERS])),
    ).toEqual([]);
    const elsewhere = await blocked(storeRender({ kind: 'self-hosted', networks: [RUNNERS] }, [TRAINING]));
    expect(elsewhere[0]?.blockedBy).toContain(`${RUNNERS} is not one of vpcNetworkSources`);
  });

  it('passes egress ranges inside an admitted range, and refuses one that only overlaps it', async () => {
    const inside = storeRender(
      { kind: 'self-hosted', egressCidrs: ['203.0.113.16/28'] },
      [TRAINING],
      ['203.0.113.0/24'],
    );
    expect(await blocked(inside)).toEqual([]);
    const wider = storeRender(
      { kind: 'self-hosted', egressCidrs: ['203.0.112.0/23'] },
      [TRAINING],
      ['203.0.113.0/24'],
    );
    expect((await blocked(wider))[0]?.blockedBy).toContain(
      '203.0.112.0 is in no range of publicNetworkSource',
    );
  });

  it('passes every call when the filter is Disabled', async () => {
    const render = storeRender({ kind: 'github-hosted' }, [TRAINING]);
    const bucket = render.resources[1];
    if (bucket) bucket.inputs['ipFilter'] = { mode: 'Disabled' };
    expect(await blocked(render)).toEqual([]);
  });
});
