/**
 * A deliberately tiny evaluator of GitHub Actions expressions, for proving the README's workflow
 * files without a runner. It knows exactly the forms the README uses (string literals, context paths,
 * `startsWith`, `contains`, `==`, `!=`, `!`, `&&`, `||`, parentheses) and throws on anything else, so
 * a README change to a form it does not model breaks the test instead of being judged wrongly.
 * Semantics follow GitHub's documentation: case-insensitive string comparison and functions, loose
 * equality across types by numeric coercion, and `&&` / `||` returning an operand rather than a boolean.
 */

export type ExpressionValue = string | number | boolean | null | object;

export type ExpressionNode =
  | { kind: 'string'; value: string }
  | { kind: 'path'; segments: string[] }
  | { kind: 'call'; name: 'startswith' | 'contains'; args: [ExpressionNode, ExpressionNode] }
  | { kind: 'not'; operand: ExpressionNode }
  | { kind: 'binary'; op: '==' | '!=' | '&&' | '||'; left: ExpressionNode; right: ExpressionNode };

/** Thrown for any expression form the evaluator does not model. */
export class UnsupportedExpressionError extends Error {
  override name = 'UnsupportedExpressionError';
}

type Token =
  | { type: 'string'; value: string }
  | { type: 'ident'; value: string }
  | { type: 'punct'; value: '(' | ')' | ',' | '.' | '==' | '!=' | '&&' | '||' | '!' };

// Property names in contexts may hold hyphens (`steps.app-token.outputs.app-slug`).
const IDENT = /^[A-Za-z_][A-Za-z0-9_-]*/;
const PUNCT = ['==', '!=', '&&', '||', '(', ')', ',', '.', '!'] as const;
// Literals GitHub has but the README does not use: refusing them keeps the model honest.
const UNSUPPORTED_WORDS = new Set(['true', 'false', 'null']);

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    if (rest.startsWith("'")) {
      let value = '';
      let j = 1;
      for (;;) {
        if (j >= rest.length) throw new UnsupportedExpressionError(`unterminated string literal in: ${source}`);
        if (rest[j] === "'") {
          if (rest[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += rest[j];
        j += 1;
      }
      tokens.push({ type: 'string', value });
      i += j + 1;
      continue;
    }
    const punct = PUNCT.find((p) => rest.startsWith(p));
    if (punct) {
      tokens.push({ type: 'punct', value: punct });
      i += punct.length;
      continue;
    }
    const ident = IDENT.exec(rest);
    if (ident) {
      if (UNSUPPORTED_WORDS.has(ident[0].toLowerCase())) {
        throw new UnsupportedExpressionError(`the literal ${ident[0]} is not modelled, in: ${source}`);
      }
      tokens.push({ type: 'ident', value: ident[0] });
      i += ident[0].length;
      continue;
    }
    throw new UnsupportedExpressionError(`unsupported syntax at "${rest.slice(0, 12)}" in: ${source}`);
  }
  return tokens;
}

/** Parses one expression (without the `${{ }}` wrapper). */
export function parseExpression(source: string): ExpressionNode {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isPunct = (value: string): boolean => {
    const token = peek();
    return token?.type === 'punct' && token.value === value;
  };
  const expect = (value: string): void => {
    if (!isPunct(value)) throw new UnsupportedExpressionError(`expected "${value}" at token ${pos} in: ${source}`);
    pos += 1;
  };

  const primary = (): ExpressionNode => {
    const token = peek();
    if (!token) throw new UnsupportedExpressionError(`unexpected end of: ${source}`);
    if (token.type === 'string') {
      pos += 1;
      return { kind: 'string', value: token.value };
    }
    if (token.type === 'punct' && token.value === '(') {
      pos += 1;
      const inner = or();
      expect(')');
      return inner;
    }
    if (token.type === 'ident') {
      pos += 1;
      if (isPunct('(')) {
        const name = token.value.toLowerCase();
        if (name !== 'startswith' && name !== 'contains') {
          throw new UnsupportedExpressionError(`the function ${token.value}() is not modelled, in: ${source}`);
        }
        pos += 1;
        const first = or();
        expect(',');
        const second = or();
        expect(')');
        return { kind: 'call', name, args: [first, second] };
      }
      const segments = [token.value];
      while (isPunct('.')) {
        pos += 1;
        const next = peek();
        if (next?.type !== 'ident') throw new UnsupportedExpressionError(`a property name must follow "." in: ${source}`);
        segments.push(next.value);
        pos += 1;
      }
      return { kind: 'path', segments };
    }
    throw new UnsupportedExpressionError(`unexpected "${token.value}" in: ${source}`);
  };
  const unary = (): ExpressionNode => {
    if (isPunct('!')) {
      pos += 1;
      return { kind: 'not', operand: unary() };
    }
    return primary();
  };
  const equality = (): ExpressionNode => {
    let left = unary();
    while (isPunct('==') || isPunct('!=')) {
      const op = (peek() as { value: '==' | '!=' }).value;
      pos += 1;
      left = { kind: 'binary', op, left, right: unary() };
    }
    return left;
  };
  const and = (): ExpressionNode => {
    let left = equality();
    while (isPunct('&&')) {
      pos += 1;
      left = { kind: 'binary', op: '&&', left, right: equality() };
    }
    return left;
  };
  const or = (): ExpressionNode => {
    let left = and();
    while (isPunct('||')) {
      pos += 1;
      left = { kind: 'binary', op: '||', left, right: and() };
    }
    return left;
  };

  const tree = or();
  if (pos !== tokens.length) throw new UnsupportedExpressionError(`unexpected "${tokens[pos]?.value}" in: ${source}`);
  return tree;
}

/** Looks a context path up; it decides which contexts exist and throws for the others. */
export type ResolvePath = (segments: readonly string[]) => ExpressionValue;

export function truthy(value: ExpressionValue): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0 && !Number.isNaN(value);
  if (typeof value === 'string') return value !== '';
  return true;
}

/** GitHub's string form of a value, as interpolation and the string functions use it. */
export function asString(value: ExpressionValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new UnsupportedExpressionError('an object or array used as a string is not modelled');
}

function asNumber(value: ExpressionValue): number {
  if (value === null) return 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return value.trim() === '' ? 0 : Number(value);
  return Number.NaN;
}

function looselyEqual(left: ExpressionValue, right: ExpressionValue): boolean {
  if (typeof left === 'string' && typeof right === 'string') return left.toLowerCase() === right.toLowerCase();
  if (left === null || right === null) return left === right || asNumber(left) === asNumber(right);
  if (typeof left === 'object' || typeof right === 'object') return left === right;
  if (typeof left === typeof right) return left === right;
  const a = asNumber(left);
  const b = asNumber(right);
  return !Number.isNaN(a) && a === b;
}

export function evaluate(node: ExpressionNode, resolve: ResolvePath): ExpressionValue {
  switch (node.kind) {
    case 'string':
      return node.value;
    case 'path':
      return resolve(node.segments);
    case 'not':
      return !truthy(evaluate(node.operand, resolve));
    case 'call': {
      const [first, second] = node.args.map((arg) => evaluate(arg, resolve)) as [ExpressionValue, ExpressionValue];
      if (node.name === 'contains' && Array.isArray(first)) {
        return (first as ExpressionValue[]).some((item) => looselyEqual(item, second));
      }
      const haystack = asString(first).toLowerCase();
      const needle = asString(second).toLowerCase();
      return node.name === 'startswith' ? haystack.startsWith(needle) : haystack.includes(needle);
    }
    case 'binary': {
      const left = evaluate(node.left, resolve);
      if (node.op === '&&') return truthy(left) ? evaluate(node.right, resolve) : left;
      if (node.op === '||') return truthy(left) ? left : evaluate(node.right, resolve);
      const equal = looselyEqual(left, evaluate(node.right, resolve));
      return node.op === '==' ? equal : !equal;
    }
  }
}

/** The `${{ … }}` pieces of a string, in order, with the literal text around them. */
export function splitTemplate(text: string): Array<{ literal: string } | { expression: string }> {
  const parts: Array<{ literal: string } | { expression: string }> = [];
  let rest = text;
  for (;;) {
    const open = rest.indexOf('${{');
    if (open < 0) break;
    const close = rest.indexOf('}}', open + 3);
    if (close < 0) throw new UnsupportedExpressionError(`unterminated \${{ in: ${text}`);
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    parts.push({ expression: rest.slice(open + 3, close).trim() });
    rest = rest.slice(close + 2);
  }
  if (rest !== '') parts.push({ literal: rest });
  return parts;
}

/** Replaces every `${{ expr }}` in `text` with its value, as the runner does for `with:` and `group:`. */
export function interpolate(text: string, resolve: ResolvePath): string {
  return splitTemplate(text)
    .map((part) => ('literal' in part ? part.literal : asString(evaluate(parseExpression(part.expression), resolve))))
    .join('');
}

/**
 * A job's `if:`: GitHub takes it as an expression with or without the `${{ }}` wrapper. Text mixed
 * with `${{ }}` is not modelled.
 */
export function evaluateCondition(condition: string, resolve: ResolvePath): boolean {
  const parts = splitTemplate(condition.trim());
  if (parts.length === 1 && parts[0] !== undefined && 'expression' in parts[0]) {
    return truthy(evaluate(parseExpression(parts[0].expression), resolve));
  }
  if (parts.some((part) => 'expression' in part)) throw new UnsupportedExpressionError(`an if: mixing text and \${{ }} is not modelled: ${condition}`);
  return truthy(evaluate(parseExpression(condition), resolve));
}

/**
 * A resolver over plain data for the named contexts: a missing property is null, as on GitHub, but a
 * context that is not named is an error, so `secrets.X` in a job's `if:` cannot pass unnoticed.
 */
export function contextResolver(contexts: Readonly<Record<string, unknown>>): ResolvePath {
  return (segments) => {
    const [root, ...rest] = segments;
    if (root === undefined || !Object.hasOwn(contexts, root)) {
      throw new UnsupportedExpressionError(`the context "${root ?? ''}" is not available here (known: ${Object.keys(contexts).join(', ')})`);
    }
    let value: unknown = contexts[root];
    for (const key of rest) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
      // GitHub matches property names case-insensitively.
      const found = Object.keys(value).find((k) => k.toLowerCase() === key.toLowerCase());
      value = found === undefined ? null : (value as Record<string, unknown>)[found];
    }
    if (value === undefined) return null;
    return value as ExpressionValue;
  };
}
