import type * as pulumi from '@pulumi/pulumi';
import { Service } from '@pulumi/gcp/projects/service';

/**
 * The APIs the GCP stack calls in its project: Cloud Storage (buckets, their IAM, Anywhere Caches), Cloud
 * KMS (key rings, keys, their IAM), IAM (service accounts; the deny policies, v2), Resource Manager (the
 * project's IAM policy and audit config). A fresh project has only some of them on, and a call to one
 * that is off fails with SERVICE_DISABLED (https://cloud.google.com/service-usage/docs/enable-disable).
 */
export const GCP_STACK_APIS = [
  'cloudkms.googleapis.com',
  'cloudresourcemanager.googleapis.com',
  'iam.googleapis.com',
  'storage.googleapis.com',
] as const;

/**
 * What GitHub's OIDC tokens are exchanged through in the CI project: the Security Token Service and the
 * IAM Service Account Credentials API (https://cloud.google.com/iam/docs/workload-identity-federation-with-deployment-pipelines#before-you-begin).
 */
export const GCP_CI_APIS = [
  'iam.googleapis.com',
  'iamcredentials.googleapis.com',
  'sts.googleapis.com',
] as const;

/**
 * Enables each API in the project, never disabling it again on destroy: other workloads of the project may
 * use it (`disableOnDestroy: false`, @pulumi/gcp projects.Service). Needs serviceusage.services.enable
 * (roles/serviceusage.serviceUsageAdmin) for whoever runs bootstrap.
 */
export function enableApis(
  parent: pulumi.Resource,
  project: string,
  apis: readonly string[],
  enabled: Map<string, Service>,
): Service[] {
  return apis.map((api) => {
    const key = `${project}/${api}`;
    let service = enabled.get(key);
    if (!service) {
      service = new Service(
        `api-${project}-${api.split('.')[0]}`,
        { project, service: api, disableOnDestroy: false, disableDependentServices: false },
        { parent },
      );
      enabled.set(key, service);
    }
    return service;
  });
}
