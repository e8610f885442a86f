import {
  awsAdmittedServiceRoles,
  awsStoreAccess,
  environmentOf,
  type AwsNetworkOrigin,
  type Operation,
} from '@checkpoints/analysis';
import { stackRule } from '../define';
import { unjudgedStores } from '../access/analysis';
import { awsStoresOf } from './support';

/** Networks no perimeter lists: the internet (a documentation address) and an endpoint of an unknown VPC. */
const OUTSIDE: Record<string, AwsNetworkOrigin> = {
  'the internet (192.0.2.10)': { sourceIp: '192.0.2.10' },
  'another VPC': { vpcEndpoint: 'vpce-0ffffffffffffffff', vpc: 'vpc-0ffffffffffffffff' },
};

// The data operations, a session included (the model's DATA_OPERATIONS leaves sessions out).
const PERIMETER_OPERATIONS: readonly Operation[] = ['read', 'write', 'delete', 'open-session'];

/**
 * In prod, a store that does not say `network: { public: true }` refuses its data to every principal from
 * outside its perimeter: its own roles, the principals they trust and the account's administrators, judged
 * by IAM's evaluation of the bucket policy (libs/analysis `awsStoreAccess`, @cloud-copilot/iam-simulate).
 * Admitted: a role of the store the perimeter exempts by its exact ARN that trusts one AWS service of
 * AWS_PERIMETER_SERVICES alone (GuardDuty's malware scan), and that service through it; the role itself is held
 * by the other rules (ci-cannot-change-ci, ci-no-escalation) like every store role.
 */
export const awsS3NetworkPerimeter = stackRule({
  name: 'aws-s3-network-perimeter',
  description:
    "In prod, no principal reads, writes or deletes a store's objects from outside the networks its bucket policy lists, unless the store is declared public",
  source:
    'AWS data perimeter guidance (network perimeter: aws:SourceVpce, aws:SourceVpc, aws:SourceIp); AWS Foundational Security Best Practices S3.2/S3.3',
  validate: async (args, report, evaluation) => {
    const { resources } = evaluation();
    const notJudged = unjudgedStores(evaluation().context(args));
    for (const { store, component } of awsStoresOf(evaluation())) {
      if (environmentOf(store) !== 'prod' || component.inputs['publicNetwork'] === true) continue;
      const why = notJudged.get(store.name);
      if (why !== undefined) {
        report(`store ${store.name}: ${why}`, component.urn);
        continue;
      }
      const account = /arn:(aws[a-z-]*):iam::(\d{12}):role\//.exec(JSON.stringify(store.resources));
      const admitted = account
        ? awsAdmittedServiceRoles(store, (name) => `arn:${account[1]}:iam::${account[2]}:role/${name}`)
        : { roles: [], services: [] };
      const isAdmitted = (id: string) =>
        admitted.roles.some((role) => role.arn === id) || admitted.services.includes(id);
      for (const [where, origin] of Object.entries(OUTSIDE)) {
        const grants = await awsStoreAccess(
          { store, render: { resources }, bootstrap: undefined, context: evaluation().context(args) },
          origin,
          PERIMETER_OPERATIONS,
        );
        for (const grant of grants) {
          if (isAdmitted(grant.principal.id)) continue;
          report(
            `store ${store.name}: ${grant.principal.label} can ${grant.operation} from ${where}: ${grant.reason}; expected the bucket policy to deny data requests from outside the store's network block`,
            component.urn,
          );
        }
      }
    }
  },
});
