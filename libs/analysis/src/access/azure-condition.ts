/**
 * Azure role assignment conditions (ABAC), parsed by a grammar of the documented language and evaluated
 * with three values: a condition holds, does not hold, or depends on what the analysis cannot know before a
 * request (an attribute no request of the question sets).
 *
 * Grammar, from "Azure role assignment condition format and syntax"
 * (https://learn.microsoft.com/azure/role-based-access-control/conditions-format):
 *
 *   condition  := or
 *   or         := and (("OR" | "||") and)*
 *   and        := not (("AND" | "&&") not)*
 *   not        := ("NOT" | "!") not | primary
 *   primary    := "(" condition ")" | action | exists | comparison
 *   action     := ("ActionMatches" | "SubOperationMatches") "{" string "}"
 *   exists     := ("Exists" | "NotExists") attribute
 *   comparison := operand [quantifier ":"] operator operand
 *   operand    := attribute | string | number | boolean | guid | "{" value ("," value)* "}"
 *   attribute  := "@" ("Request" | "Resource" | "Principal" | "Environment" | "Context") "[" name "]"
 *
 * Quantifiers ForAnyOfAnyValues, ForAllOfAnyValues, ForAnyOfAllValues, ForAllOfAllValues compare every
 * value of a multi-valued attribute with a set ("Cross product comparison operators", same page).
 * Operators are matched case-insensitively ("Case sensitivity", same page); one the grammar does not know is
 * a parse error, which every caller counts as the worst case.
 */

export type ConditionValue = string | number | boolean;

export type Condition =
  | { kind: 'and' | 'or'; parts: Condition[] }
  | { kind: 'not'; part: Condition }
  | { kind: 'action'; function: 'actionmatches' | 'suboperationmatches'; pattern: string }
  | { kind: 'exists'; negated: boolean; attribute: string }
  | {
      kind: 'compare';
      left: Operand;
      quantifier: Quantifier | undefined;
      operator: string;
      right: Operand;
    };

type Operand = { attribute: string } | { values: ConditionValue[] };
type Quantifier = 'foranyofanyvalues' | 'forallofanyvalues' | 'foranyofallvalues' | 'forallofallvalues';

const QUANTIFIERS: readonly Quantifier[] = [
  'foranyofanyvalues',
  'forallofanyvalues',
  'foranyofallvalues',
  'forallofallvalues',
];

/** Every documented operator, by its positive form; a `Not` form negates it. */
const POSITIVE_OPERATORS: Readonly<Record<string, (left: ConditionValue, right: ConditionValue) => boolean>> =
  {
    stringequals: (l, r) => String(l) === String(r),
    stringequalsignorecase: (l, r) => String(l).toLowerCase() === String(r).toLowerCase(),
    stringlike: (l, r) => like(String(l), String(r), false),
    stringlikeignorecase: (l, r) => like(String(l), String(r), true),
    stringstartswith: (l, r) => String(l).startsWith(String(r)),
    stringstartswithignorecase: (l, r) => String(l).toLowerCase().startsWith(String(r).toLowerCase()),
    numericequals: (l, r) => Number(l) === Number(r),
    numericlessthan: (l, r) => Number(l) < Number(r),
    numericlessthanequals: (l, r) => Number(l) <= Number(r),
    numericgreaterthan: (l, r) => Number(l) > Number(r),
    numericgreaterthanequals: (l, r) => Number(l) >= Number(r),
    datetimeequals: (l, r) => Date.parse(String(l)) === Date.parse(String(r)),
    datetimegreaterthan: (l, r) => Date.parse(String(l)) > Date.parse(String(r)),
    datetimegreaterthanequals: (l, r) => Date.parse(String(l)) >= Date.parse(String(r)),
    datetimelessthan: (l, r) => Date.parse(String(l)) < Date.parse(String(r)),
    datetimelessthanequals: (l, r) => Date.parse(String(l)) <= Date.parse(String(r)),
    guidequals: (l, r) => String(l).toLowerCase() === String(r).toLowerCase(),
    boolequals: (l, r) => String(l).toLowerCase() === String(r).toLowerCase(),
    listcontains: (l, r) => String(l) === String(r),
  };

/** `Not` forms: StringNotEquals, GuidNotEquals, BoolNotEquals, NumericNotEquals, DateTimeNotEquals, ... */
function operatorOf(
  name: string,
): { test: (l: ConditionValue, r: ConditionValue) => boolean; negated: boolean } | undefined {
  const lower = name.toLowerCase();
  const positive = POSITIVE_OPERATORS[lower];
  if (positive) return { test: positive, negated: false };
  const base = lower.replace(/not(?=equals|like|startswith|contains)/, '');
  const negated = base !== lower ? POSITIVE_OPERATORS[base] : undefined;
  return negated ? { test: negated, negated: true } : undefined;
}

function like(value: string, pattern: string, ignoreCase: boolean): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
      .join('.*')}$`,
    ignoreCase ? 'is' : 's',
  );
  return regex.test(value);
}

export class ConditionSyntaxError extends Error {}

type Token =
  | { type: 'string'; text: string }
  | { type: 'word'; text: string }
  | { type: 'attribute'; text: string }
  | { type: 'punct'; text: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at);
    const space = /^\s+/.exec(rest);
    if (space) {
      at += space[0].length;
      continue;
    }
    if (rest[0] === "'") {
      const end = text.indexOf("'", at + 1);
      if (end === -1) throw new ConditionSyntaxError(`unterminated string at ${at}`);
      tokens.push({ type: 'string', text: text.slice(at + 1, end) });
      at = end + 1;
      continue;
    }
    const attribute = /^@(Request|Resource|Principal|Environment|Context)\[([^\]]+)\]/i.exec(rest);
    if (attribute) {
      tokens.push({ type: 'attribute', text: `@${attribute[1]}[${attribute[2]}]`.toLowerCase() });
      at += attribute[0].length;
      continue;
    }
    const operator = /^(&&|\|\||!|\(|\)|\{|\}|,|:)/.exec(rest);
    if (operator) {
      tokens.push({ type: 'punct', text: operator[0] });
      at += operator[0].length;
      continue;
    }
    const word = /^[A-Za-z0-9_.\-/]+/.exec(rest);
    if (!word) throw new ConditionSyntaxError(`unexpected '${rest[0]}' at ${at}`);
    tokens.push({ type: 'word', text: word[0] });
    at += word[0].length;
  }
  return tokens;
}

/** The condition's syntax tree; throws ConditionSyntaxError on anything the grammar does not read. */
export function parseCondition(text: string): Condition {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at];
  const isWord = (token: Token | undefined, ...words: string[]) =>
    token?.type === 'word' && words.includes(token.text.toLowerCase());
  const isPunct = (token: Token | undefined, text: string) => token?.type === 'punct' && token.text === text;
  const expect = (text: string) => {
    if (!isPunct(peek(), text)) throw new ConditionSyntaxError(`expected '${text}' at token ${at}`);
    at += 1;
  };
  const binary = (kind: 'and' | 'or', words: string[], symbol: string, next: () => Condition) => {
    const parts = [next()];
    while (isWord(peek(), ...words) || isPunct(peek(), symbol)) {
      at += 1;
      parts.push(next());
    }
    return parts.length === 1 ? (parts[0] as Condition) : { kind, parts };
  };
  const or = (): Condition => binary('or', ['or'], '||', and);
  const and = (): Condition => binary('and', ['and'], '&&', not);
  const not = (): Condition => {
    if (isWord(peek(), 'not') || isPunct(peek(), '!')) {
      at += 1;
      return { kind: 'not', part: not() };
    }
    return primary();
  };
  const value = (): ConditionValue => {
    const token = peek();
    at += 1;
    if (token?.type === 'string') return token.text;
    if (token?.type === 'word') {
      if (/^(true|false)$/i.test(token.text)) return token.text.toLowerCase() === 'true';
      if (/^-?\d+(\.\d+)?$/.test(token.text)) return Number(token.text);
      if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(token.text))
        return token.text;
    }
    throw new ConditionSyntaxError(`expected a value at token ${at - 1}`);
  };
  const operand = (): Operand => {
    const token = peek();
    if (token?.type === 'attribute') {
      at += 1;
      return { attribute: token.text };
    }
    if (isPunct(token, '{')) {
      at += 1;
      const values = [value()];
      while (isPunct(peek(), ',')) {
        at += 1;
        values.push(value());
      }
      expect('}');
      return { values };
    }
    return { values: [value()] };
  };
  const primary = (): Condition => {
    const token = peek();
    if (isPunct(token, '(')) {
      at += 1;
      const inner = or();
      expect(')');
      return inner;
    }
    if (isWord(token, 'actionmatches', 'suboperationmatches')) {
      at += 1;
      expect('{');
      const pattern = peek();
      if (pattern?.type !== 'string') throw new ConditionSyntaxError(`expected a string at token ${at}`);
      at += 1;
      expect('}');
      return {
        kind: 'action',
        function: (token as Token).text.toLowerCase() as 'actionmatches' | 'suboperationmatches',
        pattern: pattern.text,
      };
    }
    if (isWord(token, 'exists', 'notexists')) {
      at += 1;
      const attribute = peek();
      if (attribute?.type !== 'attribute')
        throw new ConditionSyntaxError(`expected an attribute at token ${at}`);
      at += 1;
      return {
        kind: 'exists',
        negated: (token as Token).text.toLowerCase() === 'notexists',
        attribute: attribute.text,
      };
    }
    const left = operand();
    let quantifier: Quantifier | undefined;
    const next = peek();
    if (next?.type === 'word' && QUANTIFIERS.includes(next.text.toLowerCase() as Quantifier)) {
      quantifier = next.text.toLowerCase() as Quantifier;
      at += 1;
      expect(':');
    }
    const operator = peek();
    if (operator?.type !== 'word' || operatorOf(operator.text) === undefined)
      throw new ConditionSyntaxError(
        `unknown operator '${operator?.text ?? 'end of condition'}' at token ${at}`,
      );
    at += 1;
    return { kind: 'compare', left, quantifier, operator: operator.text.toLowerCase(), right: operand() };
  };
  if (tokens.length === 0) throw new ConditionSyntaxError('empty condition');
  const tree = or();
  if (at !== tokens.length)
    throw new ConditionSyntaxError(`unexpected '${peek()?.text ?? ''}' at token ${at}`);
  return tree;
}

/**
 * One request as the condition sees it: its action (and sub-operation, if any) and the attribute values it
 * carries, by `@Source[name]` (lowercase). An attribute the request does not carry is an empty list; one
 * the question cannot know is absent from the map.
 */
export interface ConditionRequest {
  action: string;
  subOperation?: string;
  attributes: ReadonlyMap<string, readonly ConditionValue[]>;
}

/** True, false, or undefined: depends on an attribute the question cannot know. */
export type Verdict = boolean | undefined;

export function evaluateCondition(condition: Condition, request: ConditionRequest): Verdict {
  switch (condition.kind) {
    case 'and': {
      const verdicts = condition.parts.map((part) => evaluateCondition(part, request));
      if (verdicts.includes(false)) return false;
      return verdicts.every((v) => v === true) ? true : undefined;
    }
    case 'or': {
      const verdicts = condition.parts.map((part) => evaluateCondition(part, request));
      if (verdicts.includes(true)) return true;
      return verdicts.every((v) => v === false) ? false : undefined;
    }
    case 'not': {
      const verdict = evaluateCondition(condition.part, request);
      return verdict === undefined ? undefined : !verdict;
    }
    case 'action':
      return condition.function === 'actionmatches'
        ? like(request.action, condition.pattern, true)
        : request.subOperation !== undefined && request.subOperation === condition.pattern;
    case 'exists': {
      const values = request.attributes.get(condition.attribute);
      if (values === undefined) return undefined;
      return condition.negated ? values.length === 0 : values.length > 0;
    }
    case 'compare': {
      const valuesOf = (operand: Operand) =>
        'attribute' in operand ? request.attributes.get(operand.attribute) : operand.values;
      const left = valuesOf(condition.left);
      const right = valuesOf(condition.right);
      if (left === undefined || right === undefined) return undefined;
      const { test, negated } = operatorOf(condition.operator) as NonNullable<ReturnType<typeof operatorOf>>;
      const holds = (l: ConditionValue, r: ConditionValue) => (negated ? !test(l, r) : test(l, r));
      switch (condition.quantifier) {
        case 'forallofanyvalues':
          return left.every((l) => right.some((r) => holds(l, r)));
        case 'foranyofallvalues':
          return left.some((l) => right.every((r) => holds(l, r)));
        case 'forallofallvalues':
          return left.every((l) => right.every((r) => holds(l, r)));
        default:
          // Without a quantifier both sides are single values: the one comparison, or any of a set's.
          return negated
            ? left.some((l) => right.every((r) => holds(l, r)))
            : left.some((l) => right.some((r) => holds(l, r)));
      }
    }
  }
}

/** A condition's text parsed once; a syntax error is kept as its message. */
export function readCondition(text: string): { condition: Condition } | { error: string } {
  try {
    return { condition: parseCondition(text) };
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return { error: error.message };
    throw error;
  }
}
