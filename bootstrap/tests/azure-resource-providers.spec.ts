/**
 * The Azure resource provider registration's dynamic provider, run against a recording stand-in `az` first on
 * PATH (POSIX sh): the commands it runs on create, update and delete, and what it reports when az fails.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { registrationProvider } from '../src/azure/resource-providers';

const SUBSCRIPTION = '11111111-2222-4333-8444-555555555555';
const INPUTS = { subscriptionId: SUBSCRIPTION, namespace: 'Microsoft.Storage' };
const TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.eyJvaWQiOiJhZG1pbiJ9.c2lnbmF0dXJl';

const dir = mkdtempSync(join(tmpdir(), 'fake-az-'));
const log = join(dir, 'calls.log');
const original = { PATH: process.env['PATH'] };

/**
 * `az account show`: the subscription $FAKE_AZ_ACCOUNT (default the one asked), Enabled, or exits
 * $FAKE_AZ_ACCOUNT_EXIT with az's not-logged-in words; `az provider register`: exits $FAKE_AZ_REGISTER_EXIT
 * (default 0) with $FAKE_AZ_STDERR on stderr. Each call's argv is one line of the log, fields split by \x1f.
 */
beforeAll(() => {
  mkdirSync(join(dir, 'bin'));
  const script = [
    '#!/bin/sh',
    `{ printf '%s\\037' "$@"; printf '\\n'; } >> '${log}'`,
    'case "$1 $2" in',
    '  "account show")',
    '    if [ -n "$FAKE_AZ_ACCOUNT_EXIT" ]; then echo "ERROR: Please run \'az login\' to setup account." >&2; exit "$FAKE_AZ_ACCOUNT_EXIT"; fi',
    `    printf '{"id":"%s","state":"Enabled","user":{"name":"admin@acme.example"}}\\n' "\${FAKE_AZ_ACCOUNT:-$4}"; exit 0 ;;`,
    '  "provider register")',
    '    [ -n "$FAKE_AZ_STDERR" ] && printf "%s\\n" "$FAKE_AZ_STDERR" >&2',
    '    exit "${FAKE_AZ_REGISTER_EXIT:-0}" ;;',
    'esac',
    'echo "unexpected az call" >&2; exit 64',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'bin', 'az'), script);
  chmodSync(join(dir, 'bin', 'az'), 0o755);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeEach(() => {
  rmSync(log, { force: true });
  process.env['PATH'] = [join(dir, 'bin'), '/usr/bin', '/bin'].join(delimiter);
});

afterEach(() => {
  process.env['PATH'] = original.PATH;
  for (const key of Object.keys(process.env)) if (key.startsWith('FAKE_AZ_')) delete process.env[key];
});

/** The az commands run so far, each as its argv. */
function commands(): string[][] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\x1f').slice(0, -1));
}

const ACCOUNT_SHOW = ['account', 'show', '--subscription', SUBSCRIPTION, '--output', 'json'];
const REGISTER = [
  'provider',
  'register',
  '--namespace',
  'Microsoft.Storage',
  '--subscription',
  SUBSCRIPTION,
  '--wait',
];

/** The error a call of the provider fails with; fails the test when it succeeds. */
async function failureOf(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the call succeeded');
}

describe('Azure resource provider registration (dynamic provider)', () => {
  it('on create, checks the login against the subscription, then registers and waits', async () => {
    const created = await registrationProvider.create(INPUTS);
    expect(commands()).toEqual([ACCOUNT_SHOW, REGISTER]);
    expect(created).toEqual({
      id: `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Storage`,
      outs: INPUTS,
    });
  });

  it('the same inputs change nothing; another namespace or subscription is another registration', async () => {
    const diff = registrationProvider.diff;
    if (!diff) throw new Error('no diff');
    expect(await diff('id', INPUTS, { ...INPUTS })).toEqual(expect.objectContaining({ changes: false }));
    expect(await diff('id', INPUTS, { ...INPUTS, namespace: 'Microsoft.KeyVault' })).toEqual(
      expect.objectContaining({ changes: true, replaces: ['namespace'] }),
    );
    expect(commands()).toEqual([]);
  });

  it('an update registers again, with the same commands and outputs each time', async () => {
    const update = registrationProvider.update;
    if (!update) throw new Error('no update');
    const id = `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Storage`;
    const first = await update(id, INPUTS, INPUTS);
    const second = await update(id, INPUTS, INPUTS);
    expect(first).toEqual({ outs: INPUTS });
    expect(second).toEqual(first);
    expect(commands()).toEqual([ACCOUNT_SHOW, REGISTER, ACCOUNT_SHOW, REGISTER]);
  });

  it('delete runs nothing: a registration is never undone', async () => {
    const remove = registrationProvider.delete;
    if (!remove) throw new Error('no delete');
    await remove(`/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Storage`, INPUTS);
    expect(commands()).toEqual([]);
  });

  it('not logged in: fails naming the namespace, the subscription and az output, and registers nothing', async () => {
    process.env['FAKE_AZ_ACCOUNT_EXIT'] = '1';
    const message = await failureOf(() => registrationProvider.create(INPUTS));
    expect(message).toContain(
      `cannot register resource provider Microsoft.Storage in subscription ${SUBSCRIPTION}: az account show --subscription ${SUBSCRIPTION} --output json exited 1: ERROR: Please run 'az login' to setup account.`,
    );
    expect(message).toContain(`az account set --subscription ${SUBSCRIPTION}`);
    expect(commands()).toEqual([ACCOUNT_SHOW]);
  });

  it('logged in to another subscription: fails naming both, and registers nothing', async () => {
    process.env['FAKE_AZ_ACCOUNT'] = '99999999-8888-4777-8666-555555555555';
    const message = await failureOf(() => registrationProvider.create(INPUTS));
    expect(message).toContain(
      `az account show answered subscription 99999999-8888-4777-8666-555555555555 in state Enabled, not ${SUBSCRIPTION} Enabled`,
    );
    expect(commands()).toEqual([ACCOUNT_SHOW]);
  });

  it('a failed registration names the namespace and what az said, without the credential az printed', async () => {
    process.env['FAKE_AZ_REGISTER_EXIT'] = '1';
    process.env['FAKE_AZ_STDERR'] =
      `ERROR: (AuthorizationFailed) no Microsoft.Storage/register/action for Authorization: Bearer ${TOKEN} client_secret=s3cr3t-value`;
    const message = await failureOf(() => registrationProvider.create(INPUTS));
    expect(message).toContain('cannot register resource provider Microsoft.Storage in subscription');
    expect(message).toContain('exited 1: ERROR: (AuthorizationFailed) no Microsoft.Storage/register/action');
    expect(message).not.toContain(TOKEN.split('.')[1]);
    expect(message).not.toContain('s3cr3t-value');
  });

  it('no az on PATH: says so, naming the namespace', async () => {
    process.env['PATH'] = join(dir, 'empty');
    const message = await failureOf(() => registrationProvider.create(INPUTS));
    expect(message).toContain(
      `cannot register resource provider Microsoft.Storage in subscription ${SUBSCRIPTION}: az account show`,
    );
    expect(message).toContain('no az on PATH; install the Azure CLI and az login');
  });
});
