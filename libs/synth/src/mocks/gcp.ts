import { digest, str, type CloudMocks } from './common';

export const GCP_PROJECT_NUMBER = '123456789012';

/** A fixed timestamp for computed creation times, so renders stay byte-for-byte reproducible. */
const SYNTH_TIME = '2025-01-01T00:00:00.000000Z';

/** An IAM policy etag: 8 bytes, base64, as Google returns it. */
function etag(...parts: string[]): string {
  return Buffer.from(digest('gcp-etag', ...parts).slice(0, 16), 'hex').toString('base64');
}

export function gcpMocks(config: Record<string, string>): CloudMocks {
  const defaultProject = config['gcp:project'] ?? 'synth-project';
  const defaultRegion = config['gcp:region'] ?? 'us-central1';
  const projectOf = (inputs: Record<string, unknown>) => str(inputs['project'], defaultProject);

  return {
    resources: {
      'gcp:storage/bucket:Bucket': ({ name, inputs }) => {
        const bucket = str(inputs['name'], name);
        return {
          id: bucket,
          state: {
            ...inputs,
            name: bucket,
            project: projectOf(inputs),
            url: `gs://${bucket}`,
            selfLink: `https://www.googleapis.com/storage/v1/b/${bucket}`,
          },
        };
      },
      'gcp:serviceaccount/account:Account': ({ name, inputs }) => {
        const project = projectOf(inputs);
        const email = `${str(inputs['accountId'], name)}@${project}.iam.gserviceaccount.com`;
        const id = `projects/${project}/serviceAccounts/${email}`;
        return {
          id,
          state: {
            ...inputs,
            email,
            name: id,
            project,
            member: `serviceAccount:${email}`,
            uniqueId: BigInt(`0x${digest('gcp-sa', email).slice(0, 15)}`)
              .toString()
              .padStart(21, '1'),
          },
        };
      },
      'gcp:kms/keyRing:KeyRing': ({ name, inputs }) => {
        const id = `projects/${projectOf(inputs)}/locations/${str(inputs['location'], defaultRegion)}/keyRings/${str(inputs['name'], name)}`;
        return { id, state: { ...inputs, project: projectOf(inputs) } };
      },
      'gcp:kms/cryptoKey:CryptoKey': ({ name, inputs }) => {
        const id = `${str(inputs['keyRing'], 'projects/p/locations/l/keyRings/r')}/cryptoKeys/${str(inputs['name'], name)}`;
        return { id, state: { ...inputs } };
      },
      // IAM members: the provider's ID is `<resource>/<role>/<member>`, the etag that of the policy.
      'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember': ({ name, inputs }) => {
        const id = `${str(inputs['cryptoKeyId'], 'projects/p/locations/l/keyRings/r/cryptoKeys/k')}/${str(inputs['role'], 'role')}/${str(inputs['member'], name)}`;
        return { id, state: { ...inputs, etag: etag(id) } };
      },
      'gcp:storage/bucketIAMMember:BucketIAMMember': ({ name, inputs }) => {
        const bucket = str(inputs['bucket'], 'bucket').replace(/^b\//, '');
        const id = `b/${bucket}/${str(inputs['role'], 'role')}/${str(inputs['member'], name)}`;
        return { id, state: { ...inputs, bucket: `b/${bucket}`, etag: etag(id) } };
      },
      'gcp:storage/anywhereCache:AnywhereCache': ({ name, inputs }) => {
        // A bucket has at most one cache per zone, and the cache's ID is its zone.
        const zone = str(inputs['zone'], `${defaultRegion}-a`);
        const bucket = str(inputs['bucket'], name);
        return {
          id: `${bucket}/${zone}`,
          state: {
            ...inputs,
            anywhereCacheId: zone,
            ttl: str(inputs['ttl'], '86400s'),
            admissionPolicy: str(inputs['admissionPolicy'], 'admit-on-first-miss'),
            state: 'RUNNING',
            pendingUpdate: false,
            createTime: SYNTH_TIME,
            updateTime: SYNTH_TIME,
          },
        };
      },
    },
    calls: {
      'gcp:storage/getProjectServiceAccount:getProjectServiceAccount': ({ inputs }) => {
        const email = `service-${GCP_PROJECT_NUMBER}@gs-project-accounts.iam.gserviceaccount.com`;
        return {
          emailAddress: email,
          member: `serviceAccount:${email}`,
          project: projectOf(inputs),
          id: email,
        };
      },
      // The project's Storage Transfer Service agent, project-<number>@storage-transfer-service.iam.gserviceaccount.com
      // (https://cloud.google.com/storage-transfer/docs/reference/rest/v1/googleServiceAccounts/get); a number of each
      // project's own, so that two projects' agents stay apart in a render.
      'gcp:storage/getTransferProjectServiceAccount:getTransferProjectServiceAccount': ({ inputs }) => {
        const number = String(
          parseInt(digest('gcp-project-number', projectOf(inputs)).slice(0, 10), 16),
        ).padStart(12, '1');
        const email = `project-${number}@storage-transfer-service.iam.gserviceaccount.com`;
        return {
          email,
          member: `serviceAccount:${email}`,
          project: projectOf(inputs),
          id: email,
          subjectId: number,
        };
      },
      'gcp:organizations/getProject:getProject': ({ inputs }) => ({
        projectId: str(inputs['projectId'], defaultProject),
        number: GCP_PROJECT_NUMBER,
        name: str(inputs['projectId'], defaultProject),
        id: `projects/${str(inputs['projectId'], defaultProject)}`,
      }),
      'gcp:organizations/getClientConfig:getClientConfig': () => ({
        project: defaultProject,
        region: defaultRegion,
        zone: `${defaultRegion}-a`,
        accessToken: 'synth-token',
        id: defaultProject,
      }),
    },
  };
}
