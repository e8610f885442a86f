/** Compatibility-decomposes text and drops the accents on its letters: 'Café' -> 'Cafe', 'ｆｕｌｌ' -> 'full'. */
export function stripAccents(text: string): string {
  // Only marks that follow another character are accents; a lone mark stays, for the cloud's own
  // replacement rule to deal with, so non-empty text never becomes empty.
  return text.normalize('NFKD').replace(/(\P{M})\p{M}+/gu, '$1');
}

/** At most `max` UTF-16 code units, never splitting a surrogate pair (an emoji) in two. */
export function truncate(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** The distinct characters of `text` matched by `pattern` (global, unicode), quoted: "'#', 'é'". */
export function quotedMatches(text: string, pattern: RegExp): string | undefined {
  const found = [...new Set(text.match(pattern) ?? [])];
  return found.length === 0 ? undefined : found.map((char) => `'${char}'`).join(', ');
}
