/**
 * The mutation suites' harness: synth renders the shipped bootstrap and a stack once, a mutation edits a
 * copy of either render the way a reviewer's weakening edit would change it, and the whole pack judges the
 * result as synth does (the bootstrap render on its own, then the stack with the mutated bootstrap as
 * its bootstrap render). A mutation is caught when a mandatory verdict names what the mutation changed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Render, RenderedResource } from '@checkpoints/render';
import {
  baselinePolicies,
  evaluatePolicies,
  loadPolicyConfig,
  policyStackOf,
  type PolicyVerdict,
  type RenderedForPolicies,
} from '../src';

const ROOT = join(__dirname, '..', '..', '..');
const SYNTH = join(ROOT, 'libs', 'synth', 'bin', 'synth.js');

export interface SynthRender extends Render {
  resources: RenderedForPolicies[];
}

/** The shipped bootstrap render and one stack's render, as synth writes them. */
export interface Renders {
  bootstrap: SynthRender;
  stack: SynthRender;
}

/**
 * Synth of the bootstrap's `ci` stack and of `project`'s `stack` (a folder under stacks/) against it; `configFiles`
 * replaces the shipped config file of either (a test's own config, e.g. a store the shipped stacks do not have).
 */
export function synthRenders(
  project: string,
  stack: string,
  configFiles: { bootstrap?: string; stack?: string } = {},
): Renders {
  const dir = mkdtempSync(join(tmpdir(), 'mutations-'));
  const configFile = (path: string | undefined) => (path === undefined ? [] : [`--config-file=${path}`]);
  try {
    synth(['--stack=ci', ...configFile(configFiles.bootstrap), `--out=${join(dir, 'bootstrap')}`], ROOT);
    const bootstrapPath = join(dir, 'bootstrap', 'ci.json');
    synth(
      [
        `--stack=${stack}`,
        ...configFile(configFiles.stack),
        `--bootstrap=${bootstrapPath}`,
        `--out=${join(dir, project)}`,
      ],
      join(ROOT, 'stacks', project),
    );
    const read = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as SynthRender;
    return { bootstrap: read(bootstrapPath), stack: read(join(dir, project, `${stack}.json`)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One synth run: a render with violations is still a render (exit status 1, EXIT.violation in
 * libs/synth), which the suite's first test shows; any other failure is the harness's.
 */
function synth(args: string[], cwd: string): void {
  const run = spawnSync(process.execPath, [SYNTH, ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1)
    throw new Error(`synth ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
}

/** A deep copy to mutate: the shipped renders stay as synth wrote them for every other mutation. */
export function copyOf(renders: Renders): Renders {
  return JSON.parse(JSON.stringify(renders)) as Renders;
}

/** The mandatory verdicts of the pack over the bootstrap render alone and over the stack with it. */
export async function mandatoryVerdicts(renders: Renders): Promise<PolicyVerdict[]> {
  const dir = mkdtempSync(join(tmpdir(), 'mutation-'));
  try {
    const bootstrapRender = join(dir, 'ci.json');
    writeFileSync(bootstrapRender, JSON.stringify(renders.bootstrap));
    const config = { ...loadPolicyConfig(baselinePolicies.map((policy) => policy.name)), bootstrapRender };
    const verdicts = [
      ...(await evaluatePolicies(policyStackOf(renders.bootstrap), baselinePolicies, config)),
      ...(await evaluatePolicies(policyStackOf(renders.stack), baselinePolicies, config)),
    ];
    return verdicts.filter((verdict) => verdict.level === 'mandatory');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `policy: message` of each verdict, as a failing assertion shows them. */
export function verdictLines(verdicts: readonly PolicyVerdict[]): string[] {
  return verdicts.map((verdict) => `${verdict.policy}: ${verdict.message}`);
}

/** The one resource of the render with this type and name; a mutation of a resource that is not there is a broken test. */
export function resourceOf(render: SynthRender, type: string, name: string): RenderedForPolicies {
  const found = render.resources.filter((resource) => resource.type === type && resource.name === name);
  if (found.length !== 1)
    throw new Error(`${render.project}/${render.stack}: ${found.length} ${type} named ${name}`);
  return found[0]!;
}

/** A resource's policy-document input (text or object) as an object to edit, written back as text. */
export function editDocument(
  resource: RenderedResource,
  key: string,
  edit: (document: { Statement: Record<string, unknown>[] }) => void,
): void {
  const value = resource.inputs[key];
  const document = (typeof value === 'string' ? JSON.parse(value) : value) as { Statement: unknown };
  const normalised = { ...document, Statement: [document.Statement].flat() as Record<string, unknown>[] };
  edit(normalised);
  resource.inputs[key] = JSON.stringify(normalised);
}

/** A new resource of the render, a child of `parent` (or of nothing), as synth records one. */
export function addResource(
  render: SynthRender,
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  parent: string | null = null,
): RenderedForPolicies {
  const resource: RenderedForPolicies = {
    urn: `urn:pulumi:${render.stack}::${render.project}::${type}::${name}`,
    type,
    name,
    parent,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
    propertyDependencies: {},
  };
  render.resources.push(resource);
  return resource;
}
