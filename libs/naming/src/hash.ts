import { createHash } from 'node:crypto';

/**
 * Short, stable fingerprint of `parts`: the first `length` hex digits of SHA-256 over the parts, each
 * prefixed with its UTF-8 byte length (`15:checkpoints-aws4:prod12:llm-pretrain`), so that no two
 * different lists of parts hash the same input ('a-b' + 'c' is not 'a' + 'b-c').
 *
 * Stable forever: every globally unique name carries this hash, so changing the encoding, the algorithm,
 * the alphabet or the default length renames, and therefore replaces, every bucket, account and key
 * already deployed. Hex rather than base36 because hex has no 'g' and so can never spell the 'goog'
 * that GCS rejects in bucket names.
 */
export function stableHash(parts: readonly string[], length = 6): string {
  if (!Number.isInteger(length) || length < 1 || length > 64) {
    throw new RangeError(`stableHash length must be an integer from 1 to 64; got ${length}`);
  }
  const sha = createHash('sha256');
  for (const part of parts) {
    sha.update(`${Buffer.byteLength(part, 'utf8')}:${part}`, 'utf8');
  }
  return sha.digest('hex').slice(0, length);
}
