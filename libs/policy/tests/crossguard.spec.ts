/**
 * The pack judged the way `pulumi preview --policy-pack libs/policy` judges it: the pack program
 * (PulumiPolicy.yaml `main`, through ts-node as Pulumi's Node.js policy runtime runs TypeScript) is started
 * in a process of its own, where `new PolicyPack(...)` serves the analyzer; the test then plays the Pulumi
 * engine, speaking the analyzer's gRPC protocol to it (`Configure` with the policy config, `AnalyzeStack`
 * with the stack's resources; pulumi/proto/analyzer.proto, as shipped in @pulumi/pulumi/proto). It feeds a
 * synth render of the shipped aws-s3 prod stack and asserts the verdicts synth's engine gives the same
 * render, with values unknown at preview time among the inputs.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type * as Grpc from '@grpc/grpc-js';
import * as analyzerProto from '@pulumi/pulumi/proto/analyzer_pb';
import * as analyzerRpc from '@pulumi/pulumi/proto/analyzer_grpc_pb';
import { unknownValue } from '@pulumi/pulumi/runtime/rpc';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import type { Render, RenderedResource } from '@checkpoints/render';
import {
  baselinePolicies,
  CI_NOT_JUDGED,
  evaluatePolicies,
  loadPolicyConfig,
  policyStackOf,
  type PolicyVerdict,
} from '../src';

const ROOT = join(__dirname, '..', '..', '..');
const SYNTH = join(ROOT, 'libs', 'synth', 'bin', 'synth.js');
/** The gRPC library the analyzer stubs were generated against (one copy, so its credentials are theirs). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const grpc = require(
  require.resolve('@grpc/grpc-js', {
    paths: [dirname(require.resolve('@pulumi/pulumi/proto/analyzer_grpc_pb'))],
  }),
) as typeof Grpc;

/** How synth renders a value unknown on a preview (libs/synth UNKNOWN_MARK). */
const UNKNOWN_MARK = '[unknown]';

interface SynthRender extends Render {
  resources: (RenderedResource & { propertyDependencies: Record<string, string[]> })[];
  /** The verdicts synth wrote for the render. */
  violations: PolicyVerdict[];
}

let dir: string;
let bootstrapPath: string;
let render: SynthRender;
let pack: ChildProcess;
let client: InstanceType<typeof analyzerRpc.AnalyzerClient>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crossguard-'));
  execFileSync(process.execPath, [SYNTH, '--stack=ci', `--out=${join(dir, 'bootstrap')}`], { cwd: ROOT });
  bootstrapPath = join(dir, 'bootstrap', 'ci.json');
  execFileSync(
    process.execPath,
    [SYNTH, '--stack=prod', `--bootstrap=${bootstrapPath}`, `--out=${join(dir, 'aws-s3')}`],
    { cwd: join(ROOT, 'stacks', 'aws-s3') },
  );
  render = JSON.parse(readFileSync(join(dir, 'aws-s3', 'prod.json'), 'utf8')) as SynthRender;
  pack = spawn(process.execPath, ['-r', 'ts-node/register', 'src/pack.ts'], {
    cwd: join(ROOT, 'libs', 'policy'),
    // ts-node's compile cache goes with the test's other files.
    env: { ...process.env, TMPDIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // The analyzer writes the port it listens on as its first line (@pulumi/policy serve).
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    pack.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = /^(\d+)\n/.exec(out);
      if (line?.[1]) resolve(line[1]);
    });
    pack.once('exit', (code) => reject(new Error(`the pack exited (${code}) before serving`)));
  });
  client = new analyzerRpc.AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
}, 240_000);

afterAll(() => {
  client?.close();
  pack?.kill();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function call<Request, Response>(
  method: (
    request: Request,
    callback: (error: Grpc.ServiceError | null, response: Response) => void,
  ) => unknown,
  request: Request,
): Promise<Response> {
  return new Promise((resolve, reject) =>
    method.call(client, request, (error, response) => (error ? reject(error) : resolve(response))),
  );
}

/** What the engine sends for a rendered value: synth's unknown mark as the wire's unknown sentinel. */
function onTheWire(value: unknown): unknown {
  if (value === UNKNOWN_MARK) return unknownValue;
  if (Array.isArray(value)) return value.map(onTheWire);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, onTheWire(item)]));
  return value;
}

/** Configure: every stack rule given `bootstrapRender`, as a `--policy-pack-config` file would. */
async function configure(bootstrapRender: string | undefined): Promise<void> {
  const request = new analyzerProto.ConfigureAnalyzerRequest();
  const configs = request.getPolicyconfigMap();
  for (const policy of baselinePolicies) {
    if (!('validateStack' in policy)) continue;
    const config = new analyzerProto.PolicyConfig();
    config.setEnforcementlevel(analyzerProto.EnforcementLevel.MANDATORY);
    config.setProperties(Struct.fromJavaScript(bootstrapRender ? { bootstrapRender } : {}));
    configs.set(policy.name, config);
  }
  await call(client.configure, request);
}

/** AnalyzeStack of the render: its verdicts as synth states them, and whether any rule could not run. */
async function analyzeStack(stack: SynthRender): Promise<{ verdicts: PolicyVerdict[]; cannotRun: string[] }> {
  const request = new analyzerProto.AnalyzeStackRequest();
  request.setResourcesList(
    stack.resources.map((resource) => {
      const wire = new analyzerProto.AnalyzerResource();
      wire.setType(resource.type);
      wire.setUrn(resource.urn);
      wire.setName(resource.name);
      const props = resource.type === 'pulumi:pulumi:Stack' ? stack.outputs : resource.inputs;
      wire.setProperties(Struct.fromJavaScript(onTheWire(props) as Record<string, never>));
      const options = new analyzerProto.AnalyzerResourceOptions();
      options.setProtect(resource.protect);
      if (resource.parent) options.setParent(resource.parent);
      wire.setOptions(options);
      if (resource.parent) wire.setParent(resource.parent);
      wire.setDependenciesList(resource.dependsOn);
      return wire;
    }),
  );
  const response = await call<analyzerProto.AnalyzeStackRequest, analyzerProto.AnalyzeResponse>(
    client.analyzeStack,
    request,
  );
  const diagnostics = response.getDiagnosticsList();
  return {
    verdicts: diagnostics.map((diagnostic) => ({
      policy: diagnostic.getPolicyname(),
      level:
        diagnostic.getEnforcementlevel() === analyzerProto.EnforcementLevel.ADVISORY
          ? 'advisory'
          : 'mandatory',
      urn: diagnostic.getUrn() || null,
      // The analyzer states a violation as the policy's description, a line break, then the rule's message.
      message: diagnostic.getMessage().slice(`${diagnostic.getDescription()}\n`.length),
    })),
    cannotRun: diagnostics
      .map((diagnostic) => diagnostic.getMessage())
      .filter((message) => /can't run/.test(message)),
  };
}

/** The verdicts synth's engine gives the render, the bootstrap render at `bootstrapRender`. */
function synthVerdicts(stack: SynthRender, bootstrapRender: string | undefined): Promise<PolicyVerdict[]> {
  const config = loadPolicyConfig(baselinePolicies.map((policy) => policy.name));
  return evaluatePolicies(
    policyStackOf(stack),
    baselinePolicies,
    bootstrapRender ? { ...config, bootstrapRender } : config,
  );
}

const sorted = (verdicts: PolicyVerdict[]) =>
  verdicts.map(({ policy, level, message }) => `${level} ${policy}: ${message}`).sort();

/** The render with the inputs a first preview does not know yet: every policy document and key ID. */
function withUnknowns(stack: SynthRender): SynthRender {
  const unknownKeys = new Set(['policy', 'kmsMasterKeyId', 'assumeRolePolicy']);
  const resources = stack.resources.map((resource) => ({
    ...resource,
    inputs: Object.fromEntries(
      Object.entries(resource.inputs).map(([key, value]) => [
        key,
        unknownKeys.has(key) ? UNKNOWN_MARK : value,
      ]),
    ),
  }));
  return { ...stack, resources };
}

describe('the pack through the Pulumi analyzer (AnalyzeStack), against synth', () => {
  it("gives the shipped prod stack synth's verdicts: none, CI identities judged from the bootstrap render", async () => {
    await configure(bootstrapPath);
    const analyzed = await analyzeStack(render);
    expect(analyzed.cannotRun).toEqual([]);
    expect(sorted(analyzed.verdicts)).toEqual(sorted(await synthVerdicts(render, bootstrapPath)));
    expect(analyzed.verdicts).toEqual([]);
    expect(render.violations).toEqual([]);
  }, 240_000);

  it('fails closed on unknown inputs: the rules that read them report, as synth does, and none is skipped', async () => {
    await configure(bootstrapPath);
    const preview = withUnknowns(render);
    const analyzed = await analyzeStack(preview);
    expect(analyzed.cannotRun).toEqual([]);
    expect(sorted(analyzed.verdicts)).toEqual(sorted(await synthVerdicts(preview, bootstrapPath)));
    const failed = new Set(analyzed.verdicts.filter((v) => v.level === 'mandatory').map((v) => v.policy));
    // The access rules refuse to judge what they cannot see; the key-only check finds the policy missing.
    expect([...failed]).toEqual(
      expect.arrayContaining(['ci-no-data-access', 'aws-s3-network-perimeter', 'aws-s3-store-key-only']),
    );
    expect(analyzed.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-no-data-access',
        message: expect.stringMatching(
          /^store llm-pretrain: access not judged: inputs unknown during preview in /,
        ),
      }),
    );
  }, 240_000);

  it('without a bootstrap render, reports that CI identities were not judged (mandatory)', async () => {
    await configure(undefined);
    const analyzed = await analyzeStack(render);
    const notJudged = analyzed.verdicts.filter((verdict) => verdict.message === CI_NOT_JUDGED);
    expect(notJudged.map((verdict) => verdict.policy).sort()).toEqual(
      [
        'ci-deploy-rights',
        'ci-environment-isolation',
        'ci-no-data-access',
        'ci-no-escalation',
        'ci-preview-no-data-sessions',
        'ci-prod-no-destroy',
        'ci-cannot-change-ci',
        'ci-trust-this-repository',
        'ci-trust-pull-requests-preview-only',
        'ci-trust-own-environment',
        'ci-trust-immutable-ids',
        'ci-prod-no-blind-audit',
      ].sort(),
    );
    expect(notJudged.every((verdict) => verdict.level === 'mandatory')).toBe(true);
    expect(sorted(analyzed.verdicts)).toEqual(sorted(await synthVerdicts(render, undefined)));
  }, 240_000);
});
