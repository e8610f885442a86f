import * as pulumi from '@pulumi/pulumi';
import type { StoreSpec } from '@checkpoints/config';
import type { S3Perimeter } from '@checkpoints/translate';

/**
 * The store's `network` as the bucket policy's perimeter; undefined when every network may reach it
 * (`network: { public: true }`, or no block outside prod). `ciRoleArns`: the CI roles that refresh the
 * stack, `serviceRoleArns`: roles an AWS service acts as from its own network (S3 replicating, GuardDuty
 * scanning); both exact ARNs.
 */
export function perimeterOf(
  store: StoreSpec,
  ciRoleArns: pulumi.Output<string[]>,
  serviceRoleArns: pulumi.Input<string>[],
): pulumi.Output<S3Perimeter | undefined> {
  const { network } = store;
  if (network === undefined || network.public) return pulumi.output(undefined);
  return pulumi.all([ciRoleArns, pulumi.all(serviceRoleArns)]).apply(([ci, service]) => ({
    vpcEndpoints: network.vpcEndpoints,
    vpcs: network.vpcs,
    cidrs: network.cidrs,
    serviceRoleArns: service,
    ciRoleArns: ci,
  }));
}
