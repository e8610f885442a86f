import { ROOT_STACK_TYPE } from '@checkpoints/render';
import { stackRule } from '../define';

/** Shapes of credentials that must never reach a stack output in clear text. */
const CREDENTIAL_PATTERNS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'an AWS access key ID', pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/ },
  {
    what: 'an Azure storage account key or connection string',
    pattern: /AccountKey=|SharedAccessSignature=/i,
  },
  { what: 'a SAS token', pattern: /[?&]sig=[A-Za-z0-9%+/=]{20,}/ },
  { what: 'a private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/ },
  { what: 'a GCP service-account key', pattern: /"private_key(_id)?"\s*:/ },
  { what: 'a bearer token', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]{20,}/ },
];

/** Output keys that name a secret; their values must be Pulumi secrets. */
const SECRET_KEY =
  /(password|secret|accesskey|access_key|connectionstring|connection_string|privatekey|private_key|token|sas)$/i;
const MASKED = '[secret]';

function* leaves(value: unknown, path: string): Generator<{ path: string; value: unknown }> {
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      yield* leaves(inner, path ? `${path}.${key}` : key);
    }
    return;
  }
  yield { path, value };
}

export const noCredentialsInOutputs = stackRule({
  name: 'no-credentials-in-outputs',
  description: 'No stack output holds a credential: keys, connection strings, SAS tokens or private keys',
  source: 'CIS Controls v8 3.11 (encrypt sensitive data); Pulumi secrets guidance',
  validate: (args, report) => {
    const stack = args.resources.find((resource) => resource.type === ROOT_STACK_TYPE);
    if (!stack) return;
    for (const { path, value } of leaves(stack.props, '')) {
      if (typeof value !== 'string' || value === MASKED) continue;
      const match = CREDENTIAL_PATTERNS.find(({ pattern }) => pattern.test(value));
      if (match) report(`output '${path}' looks like ${match.what}`, stack.urn);
      else if (SECRET_KEY.test(path.split('.').pop() ?? '')) {
        report(`output '${path}' is named like a credential but is not a Pulumi secret`, stack.urn);
      }
    }
  },
});
