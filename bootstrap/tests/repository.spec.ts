/**
 * The bootstrap stack agrees with the rest of the repository: the workflows log in with identities that
 * trust their jobs' token subjects, and the ci stack grants deploy rights where the stacks deploy.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ENVIRONMENTS, type Environment } from '@checkpoints/config';
import { ofType, readProject, readStackConfig, render, stackConfigFile } from '@checkpoints/synth';
import type { Repository } from '../src/config';
import {
  deploySubjects,
  DRIFT_ENVIRONMENT,
  driftSubject,
  previewSubjects,
  pullRequestSubject,
} from '../src/github';
import { outputNames } from '../src/outputs';
import { bootstrapStack } from '../src/program';

const ROOT = join(__dirname, '..', '..');
const WORKFLOWS = join(ROOT, '.github', 'workflows');
const REPOSITORY: Repository = {
  owner: 'acme',
  name: 'checkpoint-storage',
  fullName: 'acme/checkpoint-storage',
};

function readYaml(path: string): unknown {
  return parse(readFileSync(path, 'utf8')) as unknown;
}

interface Job {
  environment?: string | { name: string };
  permissions?: Record<string, string>;
  steps?: { with?: Record<string, unknown> }[];
}

interface Workflow {
  on: Record<string, unknown> | string | string[];
  jobs: Record<string, Job>;
}

function readWorkflow(file: string): Workflow {
  return readYaml(join(WORKFLOWS, file)) as Workflow;
}

/** The jobs that ask GitHub for an OIDC token, by job ID. */
function federatedJobs(workflow: Workflow): [string, Job][] {
  return Object.entries(workflow.jobs).filter(([, job]) => job.permissions?.['id-token'] === 'write');
}

function environmentOf(job: Job): string | undefined {
  return typeof job.environment === 'object' ? job.environment.name : job.environment;
}

/** The repository variables a job reads (`vars.NAME`) in its steps' inputs. */
function variablesOf(job: Job): string[] {
  const text = JSON.stringify((job.steps ?? []).map((step) => step.with ?? {}));
  return [...new Set([...text.matchAll(/\bvars\.([A-Z0-9_]+)/g)].map((match) => match[1] ?? ''))].sort();
}

const PREVIEW_VARIABLES: readonly string[] = [
  outputNames.awsPreviewRole,
  outputNames.gcpPreviewServiceAccount,
  outputNames.azurePreviewClientId,
];
const deployVariables = (environment: Environment): string[] => [
  outputNames.awsDeployRole(environment),
  outputNames.gcpDeployServiceAccount(environment),
  outputNames.azureDeployClientId(environment),
];

/** The `sub` GitHub gives a job's token: its environment's, else that of the one event the workflow runs on. */
function subjectOf(workflow: Workflow, job: Job): string {
  const environment = environmentOf(job);
  if (environment !== undefined) return `repo:${REPOSITORY.fullName}:environment:${environment}`;
  const events = typeof workflow.on === 'string' ? [workflow.on] : Object.keys(workflow.on);
  if (events.length === 1 && events[0] === 'pull_request') return pullRequestSubject(REPOSITORY);
  throw new Error(`a job without an environment on ${events.join(', ')}: no CI identity trusts its token`);
}

/** The subjects each CI identity trusts, by the variables that name it. */
function trustedSubjects(variables: readonly string[]): string[][] {
  const trusted: string[][] = [];
  if (variables.some((variable) => PREVIEW_VARIABLES.includes(variable))) {
    trusted.push(previewSubjects(REPOSITORY).map(({ subject }) => subject));
  }
  for (const environment of ENVIRONMENTS) {
    if (variables.some((variable) => deployVariables(environment).includes(variable))) {
      trusted.push(deploySubjects(REPOSITORY, environment).map(({ subject }) => subject));
    }
  }
  return trusted;
}

describe('the drift environment', () => {
  const drift = readWorkflow('drift.yml');

  it('is where every drift.yml job that logs in runs, with the read-only preview identities', () => {
    const jobs = federatedJobs(drift);
    expect(jobs.length).toBeGreaterThan(0);
    for (const [id, job] of jobs) {
      expect([id, environmentOf(job)]).toEqual([id, DRIFT_ENVIRONMENT]);
      const variables = variablesOf(job);
      expect([id, PREVIEW_VARIABLES.filter((variable) => !variables.includes(variable))]).toEqual([id, []]);
      expect([id, ENVIRONMENTS.flatMap(deployVariables).filter((v) => variables.includes(v))]).toEqual([
        id,
        [],
      ]);
    }
  });

  it('gives its jobs the subject the preview identities trust, and no deploy environment is called drift', () => {
    expect(driftSubject(REPOSITORY)).toBe('repo:acme/checkpoint-storage:environment:drift');
    expect(previewSubjects(REPOSITORY).map(({ subject }) => subject)).toEqual([
      'repo:acme/checkpoint-storage:pull_request',
      'repo:acme/checkpoint-storage:environment:drift',
    ]);
    // A deploy environment of that name would hand the drift jobs deploy rights.
    expect(ENVIRONMENTS).not.toContain(DRIFT_ENVIRONMENT);
  });
});

describe('every workflow job that logs in', () => {
  it.each(['pr.yml', 'deploy.yml', 'drift.yml'])(
    '%s: each identity it logs in with trusts the job’s token subject',
    (file) => {
      const workflow = readWorkflow(file);
      const jobs = federatedJobs(workflow);
      expect(jobs.length).toBeGreaterThan(0);
      for (const [id, job] of jobs) {
        const subject = subjectOf(workflow, job);
        const trusted = trustedSubjects(variablesOf(job));
        expect([id, trusted.length > 0]).toEqual([id, true]);
        for (const subjects of trusted)
          expect([id, subjects]).toEqual([id, expect.arrayContaining([subject])]);
      }
    },
  );
});

describe("the ci stack grants CI on the stacks' projects", () => {
  const project = readProject(ROOT);
  const ciFile = stackConfigFile(project, 'ci');
  const ci = (readYaml(ciFile) as { config: Record<string, unknown> }).config;
  const environments = ci['bootstrap:environments'] as Environment[];
  const { stackProjects } = ci['bootstrap:gcp'] as { stackProjects: Record<string, string> };

  it('grants each GCP deploy account its stack’s project, and preview every stack project, never the CI project', async () => {
    const stack = readStackConfig(ciFile, project);
    const snapshot = await render(() => bootstrapStack(), {
      project: project.name,
      stack: 'ci',
      config: stack.config,
      secretKeys: stack.secretKeys,
    });
    const grants = ofType(snapshot, 'gcp:projects/iAMMember:IAMMember').map((grant) => [
      String(grant.inputs['member']).replace(/^serviceAccount:(.+)@.*$/, '$1'),
      grant.inputs['project'],
    ]);
    const projectsOf = (account: string) =>
      [
        ...new Set(grants.filter(([member]) => member === account).map(([, gcpProject]) => gcpProject)),
      ].sort();
    expect(projectsOf('checkpoints-ci-preview')).toEqual(
      environments.map((env) => stackProjects[env]).sort(),
    );
    for (const env of environments) {
      expect(projectsOf(`checkpoints-ci-deploy-${env}`)).toEqual([stackProjects[env]]);
    }
    expect(grants.filter(([, gcpProject]) => gcpProject === ci['gcp:project'])).toEqual([]);
  });
});
