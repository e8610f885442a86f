import { ofType } from '@checkpoints/synth';
import { GCP_CI_APIS, GCP_STACK_APIS } from '../src/gcp/services';
import { renderBootstrap, VALID } from './helpers';

describe('GCP APIs: a fresh project has the APIs each first deploy calls', () => {
  it('every stack project enables the stacks’ APIs, the CI project the token exchange, none disabled on destroy', async () => {
    const snapshot = await renderBootstrap();
    const services = ofType(snapshot, 'gcp:projects/service:Service');
    const enabled = (project: string) =>
      services.filter((s) => s.inputs['project'] === project).map((s) => String(s.inputs['service']));
    const gcp = VALID['bootstrap:gcp'] as { stackProjects: Record<string, string> };
    const ciProject = String(VALID['gcp:project']);
    for (const project of Object.values(gcp.stackProjects)) {
      expect(enabled(project)).toEqual(expect.arrayContaining([...GCP_STACK_APIS]));
    }
    expect(enabled(ciProject)).toEqual(expect.arrayContaining([...GCP_CI_APIS]));
    expect(services.filter((s) => s.inputs['disableOnDestroy'] !== false)).toEqual([]);
  });

  it('the deny policies wait for their project’s IAM API', async () => {
    const snapshot = await renderBootstrap();
    const iamApis = new Set(
      ofType(snapshot, 'gcp:projects/service:Service')
        .filter((s) => s.inputs['service'] === 'iam.googleapis.com')
        .map((s) => s.urn),
    );
    const denies = ofType(snapshot, 'gcp:iam/denyPolicy:DenyPolicy');
    expect(denies.length).toBeGreaterThan(0);
    for (const deny of denies) expect(deny.dependsOn.some((urn) => iamApis.has(urn))).toBe(true);
  });
});
