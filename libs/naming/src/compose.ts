/** How one family of cloud names is spelled: what free text is reduced to and what joins the pieces. */
export interface Spelling {
  /** Reduces free text to characters every name of the family accepts; '' when nothing usable is left. */
  sanitise(text: string): string;
  separator: string;
}

/** Lowercase letters and digits joined by single hyphens: valid for every kind except storage accounts. */
export const dashed: Spelling = {
  sanitise: (text) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, ''),
  separator: '-',
};

/** Lowercase letters and digits only, for Azure storage accounts. */
export const compact: Spelling = {
  sanitise: (text) => text.toLowerCase().replace(/[^a-z0-9]/g, ''),
  separator: '',
};

export interface NameParts {
  project: string;
  /** What narrows the project down, least specific first: `[stack]` or `[stack, store]`. */
  qualifiers: readonly string[];
  /** Never shortened: the purpose, then the hash that keeps the name unique. */
  suffix: readonly string[];
  maxLength: number;
}

/** `project-qualifiers-suffix`, with the readable part shortened (never the suffix) to fit `maxLength`. */
export function composeName(spelling: Spelling, parts: NameParts): string {
  const { separator } = spelling;
  const suffixLength = parts.suffix.reduce((total, part) => total + separator.length + part.length, 0);
  const readable = fitReadable(spelling, parts.project, parts.qualifiers, parts.maxLength - suffixLength);
  return joinNonEmpty([readable, ...parts.suffix], separator);
}

function fitReadable(spelling: Spelling, project: string, qualifiers: readonly string[], budget: number) {
  const { sanitise, separator } = spelling;
  const qualifierSegments = qualifiers.map(sanitise);
  const full = joinNonEmpty([sanitise(project), ...qualifierSegments], separator);
  if (full.length <= budget) {
    return full;
  }
  const segments = [sanitise(withoutPlatformPrefix(project)), ...qualifierSegments].filter((s) => s !== '');
  return truncateSegments(segments, budget, separator);
}

// Every project of this platform is called checkpoints-<cloud>, so that prefix tells the least and is the
// first thing given up when a name is too long.
function withoutPlatformPrefix(project: string): string {
  return project.replace(/^checkpoints[-_.]+/i, '');
}

// Gives up the least specific segment first (project, then stack), whole: a cut word such as `pro` for
// `prod` reads as something else. Only the store name, which is what people look for, is ever shortened.
function truncateSegments(segments: readonly string[], budget: number, separator: string): string {
  const [first, ...rest] = segments;
  if (first === undefined) {
    return '';
  }
  if (rest.length === 0) {
    return withoutTrailingHyphens(first.slice(0, budget));
  }
  const restJoined = rest.join(separator);
  if (first.length + separator.length + restJoined.length > budget) {
    return truncateSegments(rest, budget, separator);
  }
  return joinNonEmpty([first, restJoined], separator);
}

function withoutTrailingHyphens(text: string): string {
  return text.replace(/-+$/, '');
}

function joinNonEmpty(parts: readonly string[], separator: string): string {
  return parts.filter((part) => part !== '').join(separator);
}
