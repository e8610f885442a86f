import { digest, str, type CloudMocks } from './common';

export const GCP_PROJECT_NUMBER = '123456789012';

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
