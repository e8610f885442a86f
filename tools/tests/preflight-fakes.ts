/**
 * Stand-ins for the clouds behind the SDKs' own hooks, for the preflight tests: Google's APIs behind
 * google-auth-library's transporter (gaxios' `adapter` option), Azure's behind the `httpClient` option of
 * the Azure SDK's pipelines with an injected credential, GitHub behind `fetch`. Each records every request's
 * method and URL, so that a test can hold the preflight to reads; nothing reaches the network.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OAuth2Client, type gaxios } from 'google-auth-library';
import { createHttpHeaders, type HttpClient, type PipelineRequest } from '@azure/core-rest-pipeline';
import type { AccessToken, TokenCredential } from '@azure/identity';
import { parse, stringify } from 'yaml';
import { tempDir, WORKSPACE } from './helpers';

export interface Answer {
  status: number;
  body?: unknown;
}

/** A cloud answering each request from routes (path regex -> answer); anything unrouted is a 404. */
export class FakeApi {
  readonly requests: Array<{ method: string; url: string }> = [];
  constructor(private routes: Map<RegExp, Answer>) {}

  answer(method: string, url: string): Answer {
    this.requests.push({ method, url });
    const target = decodeURIComponent(url);
    for (const [pattern, answer] of this.routes) if (pattern.test(target)) return answer;
    return { status: 404, body: { error: { code: 404, message: `not found: ${target}` } } };
  }

  /** Replaces the answer of the route whose pattern has this source. */
  set(source: string, answer: Answer): void {
    const key = [...this.routes.keys()].find((pattern) => pattern.source === source);
    if (!key) throw new Error(`no route ${source}`);
    this.routes.set(key, answer);
  }

  /** Answers requests matching this pattern first, before every other route. */
  prefer(pattern: RegExp, answer: Answer): void {
    this.routes = new Map([[pattern, answer], ...this.routes]);
  }

  methods(): string[] {
    return [...new Set(this.requests.map((request) => request.method))];
  }
}

/** An OAuth2 client holding a valid token, whose transporter answers from the fake. */
export function googleClient(api: FakeApi): () => Promise<OAuth2Client> {
  return async () => {
    const client = new OAuth2Client({
      transporterOptions: {
        adapter: async <T>(options: gaxios.GaxiosOptionsPrepared): Promise<gaxios.GaxiosResponse<T>> => {
          const { status, body } = api.answer(String(options.method ?? 'GET'), String(options.url));
          return Object.assign(new Response(JSON.stringify(body ?? {}), { status }), {
            config: options,
            data: (body ?? {}) as T,
          });
        },
      },
    });
    client.setCredentials({ access_token: 'ya29.fake', expiry_date: Date.now() + 3_600_000 });
    return client;
  };
}

export const GCP_ORG = 'organizations/123456789';

/** Google's answers when every prerequisite of the gcp-gcs prod stack and the bootstrap is there. */
export function googleWorld(): FakeApi {
  return new FakeApi(
    new Map<RegExp, Answer>([
      [/oauth2\.googleapis\.com\/tokeninfo/, { status: 200, body: { email: 'admin@acme.example' } }],
      [
        /cloudresourcemanager\.googleapis\.com\/v3\/projects\/[a-z0-9-]+$/,
        { status: 200, body: { name: 'projects/418230967154', state: 'ACTIVE', parent: 'folders/42' } },
      ],
      [/cloudresourcemanager\.googleapis\.com\/v3\/folders\/42$/, { status: 200, body: { parent: GCP_ORG } }],
      [
        /cloudresourcemanager\.googleapis\.com\/v3\/organizations\/123456789$/,
        { status: 200, body: { name: GCP_ORG, displayName: 'acme.example', state: 'ACTIVE' } },
      ],
      [
        /serviceusage\.googleapis\.com\/v1\/projects\/[a-z0-9-]+\/services\//,
        { status: 200, body: { state: 'ENABLED' } },
      ],
      [
        /iam\.googleapis\.com\/v1\/projects\/acme-checkpoints-ci\/serviceAccounts\/checkpoints-ci-deploy-prod@/,
        {
          status: 200,
          body: { email: 'checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com' },
        },
      ],
      [
        /storage\.googleapis\.com\/storage\/v1\/b\/acme-state$/,
        { status: 200, body: { name: 'acme-state' } },
      ],
      [
        /compute\.googleapis\.com\/compute\/v1\/projects\/ml-platform-prod-7310\/global\/networks\/ci-runners$/,
        { status: 200, body: { name: 'ci-runners' } },
      ],
      [
        /logging\.googleapis\.com\/v2\/organizations\/123456789\/sinks$/,
        {
          status: 200,
          body: {
            sinks: [
              {
                name: 'all-logs',
                destination: 'storage.googleapis.com/acme-org-logs',
                filter: '',
                includeChildren: true,
              },
            ],
          },
        },
      ],
      [
        /securitycentermanagement\.googleapis\.com\/v1\/projects\/[a-z0-9-]+\/locations\/global\/securityCenterServices\/event-threat-detection$/,
        {
          status: 200,
          body: { intendedEnablementState: 'INHERITED', effectiveEnablementState: 'ENABLED' },
        },
      ],
    ]),
  );
}

export const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';

/** Azure's answers when every prerequisite of the azure-adls prod stack and the bootstrap is there. */
export function azureWorld(): FakeApi {
  return new FakeApi(
    new Map<RegExp, Answer>([
      [
        new RegExp(`/subscriptions/${SUBSCRIPTION}\\?`),
        { status: 200, body: { subscriptionId: SUBSCRIPTION, displayName: 'ml-platform', state: 'Enabled' } },
      ],
      [/\/providers\/Microsoft\.[A-Za-z]+\?/, { status: 200, body: { registrationState: 'Registered' } }],
      [
        /\/resourcegroups\/rg-checkpoints-(dev|prod)\?/i,
        { status: 200, body: { id: '/subscriptions/x/resourceGroups/rg', location: 'eastus2' } },
      ],
      [
        /\/resources\?.*userAssignedIdentities/,
        {
          status: 200,
          body: {
            value: ['dev', 'prod', 'preview'].map((purpose) => ({
              id: `/subscriptions/${SUBSCRIPTION}/resourceGroups/ci/providers/Microsoft.ManagedIdentity/userAssignedIdentities/checkpoints-ci-${purpose === 'preview' ? 'preview' : `deploy-${purpose}`}`,
              name: `checkpoints-ci-${purpose === 'preview' ? 'preview' : `deploy-${purpose}`}`,
              type: 'Microsoft.ManagedIdentity/userAssignedIdentities',
            })),
          },
        },
      ],
      [/acmestate\.blob\.core\.windows\.net\/pulumi-state\?restype=container/, { status: 200 }],
    ]),
  );
}

/** An Entra ID access token (a JWT) naming the caller. */
function accessToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part({ upn: 'admin@acme.example', oid: 'oid-1', tid: 'tenant-1' })}.sig`;
}

/** The credential and the HTTP client the Azure SDK's pipelines use, answering from the fake. */
export function azureConnection(api: FakeApi, credential?: TokenCredential) {
  const httpClient: HttpClient = {
    sendRequest: async (request: PipelineRequest) => {
      const { status, body } = api.answer(request.method, request.url);
      return {
        status,
        request,
        headers: createHttpHeaders({ 'content-type': 'application/json' }),
        bodyAsText: body === undefined ? '' : JSON.stringify(body),
      };
    },
  };
  const token: TokenCredential = credential ?? {
    getToken: async (): Promise<AccessToken> => ({
      token: accessToken(),
      expiresOnTimestamp: Date.now() + 3_600_000,
    }),
  };
  return () => ({ credential: token, httpClient });
}

/** GitHub's "Get an environment": 200 for the environments listed, 404 for the others. */
export function github(present: string[]) {
  return jest.fn(async (url: string | URL | Request) => {
    const status = present.some((name) => String(url).endsWith(`/environments/${name}`)) ? 200 : 404;
    return { status, ok: status < 300 } as Response;
  });
}

export function output() {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: (cwd: string, env: Record<string, string> = {}) => ({
      cwd,
      env,
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      stdinIsTTY: false,
    }),
    out: () => out.join(''),
    err: () => err.join(''),
  };
}

/** Config changes by dotted path (`bootstrap:gcp.stackProjects.prod`); undefined removes the key. */
export type ConfigChanges = Record<string, unknown>;

function applied(config: Record<string, unknown>, changes: ConfigChanges): void {
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split('.');
    const last = keys.pop() ?? '';
    let node = config;
    for (const key of keys) node = (node[key] ??= {}) as Record<string, unknown>;
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
}

/**
 * A copy of the repository's Pulumi project files (root Pulumi.yaml, bootstrap/Pulumi.ci.yaml and the
 * stack's folder), each config changed as given, so a test can take a prerequisite's config away.
 * @returns the stack folder of the copy
 */
export function changedRepository(
  stack: string,
  environment: string,
  changes: { stack?: ConfigChanges; bootstrap?: ConfigChanges },
): string {
  const root = tempDir('preflight-');
  const copy = (path: string, edit?: ConfigChanges) => {
    const text = readFileSync(join(WORKSPACE, path), 'utf8');
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    if (!edit) return writeFileSync(target, text);
    const parsed = parse(text) as { config: Record<string, unknown> };
    applied(parsed.config, edit);
    writeFileSync(target, stringify(parsed));
  };
  copy('Pulumi.yaml');
  copy('bootstrap/Pulumi.ci.yaml', changes.bootstrap);
  copy(`stacks/${stack}/Pulumi.yaml`);
  copy(`stacks/${stack}/Pulumi.${environment}.yaml`, changes.stack);
  return join(root, 'stacks', stack);
}
