import { SECRET_MARK, UNKNOWN_MARK } from '@checkpoints/render';

/** Pulumi's wire signatures (sdk/nodejs/runtime/rpc.ts). */
const SIG_KEY = '4dabf18193072939515e22adb298388d';
const SECRET_SIG = '1b47061264138c4ac30d75fd1eb44270';
const RESOURCE_SIG = '5cf8f73096256a8f31e491e813e4eb8e';
const OUTPUT_SIG = 'd0e6a833031e9bbcd3f4e8bde6ca49a4';
const UNKNOWN_VALUE = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

/** Turns serialized properties into plain JSON: secrets masked, resource references as their URN. */
export function plain(value: unknown): unknown {
  if (value === UNKNOWN_VALUE) return UNKNOWN_MARK;
  if (Array.isArray(value)) return value.map(plain);
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const sig = record[SIG_KEY];
  if (sig === SECRET_SIG) return SECRET_MARK;
  if (sig === RESOURCE_SIG) return record['urn'];
  if (sig === OUTPUT_SIG) {
    if (record['secret'] === true) return SECRET_MARK;
    return 'value' in record ? plain(record['value']) : UNKNOWN_MARK;
  }
  return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, plain(inner)]));
}
