import { Evaluator, Lexer, Parser, data, type Expr } from '@actions/expressions';
import {
  Binary,
  ContextAccess,
  FunctionCall,
  Grouping,
  IndexAccess,
  Literal,
  Logical,
  Unary,
} from '@actions/expressions/ast';
import { truthy } from '@actions/expressions/result';

/**
 * GitHub Actions expressions for proving the README's workflow files without a runner, evaluated by
 * GitHub's own expression engine (`@actions/expressions`, the parser and evaluator of GitHub's
 * Actions language services), so a test judges `if:` and `concurrency` exactly as the runner's
 * language does: case-insensitive comparison, loose equality, `&&`/`||` returning an operand,
 * `fromJSON`, `format` and the rest. What stays here is only what the package leaves to its caller:
 * splitting text around `${{ }}`, turning plain data into its values, and naming which contexts exist
 * where (a context not given is a parse error, so `secrets.X` in a job's `if:` cannot pass unnoticed).
 *
 * Status functions (`success()`, `always()`, ...) are not in the package: a job `if:` using one fails
 * to parse here, loudly, rather than being judged without the job's status.
 */

/** Plain data per context name (`github`, `secrets`, ...), as JSON would hold it. */
export type Contexts = Readonly<Record<string, unknown>>;

/** Plain JSON-like data as the evaluator's values (objects are case-insensitive dictionaries). */
export function toExpressionData(value: unknown): data.ExpressionData {
  return JSON.parse(JSON.stringify(value ?? null), data.reviver) as data.ExpressionData;
}

/** Parses one expression (without the `${{ }}` wrapper) in which only `contexts` may be named. */
export function parseExpression(source: string, contexts: readonly string[]): Expr {
  const { tokens } = new Lexer(source).lex();
  return new Parser(tokens, [...contexts], []).parse();
}

/** Evaluates one expression (without `${{ }}`) against the given contexts. */
export function evaluate(source: string, contexts: Contexts): data.ExpressionData {
  const expr = parseExpression(source, Object.keys(contexts));
  const dictionary = new data.Dictionary(
    ...Object.entries(contexts).map(([key, value]) => ({ key, value: toExpressionData(value) })),
  );
  return new Evaluator(expr, dictionary).evaluate();
}

/** The `${{ }}` pieces of a string, in order, with the literal text around them. */
export function splitTemplate(text: string): Array<{ literal: string } | { expression: string }> {
  const parts: Array<{ literal: string } | { expression: string }> = [];
  let rest = text;
  for (;;) {
    const open = rest.indexOf('${{');
    if (open < 0) break;
    const close = rest.indexOf('}}', open + 3);
    if (close < 0) throw new Error(`unterminated \${{ in: ${text}`);
    if (open > 0) parts.push({ literal: rest.slice(0, open) });
    parts.push({ expression: rest.slice(open + 3, close).trim() });
    rest = rest.slice(close + 2);
  }
  if (rest !== '') parts.push({ literal: rest });
  return parts;
}

/** Replaces every `${{ expr }}` in `text` with its value as a string, as the runner does for `with:` and `group:`. */
export function interpolate(text: string, contexts: Contexts): string {
  return splitTemplate(text)
    .map((part) => ('literal' in part ? part.literal : evaluate(part.expression, contexts).coerceString()))
    .join('');
}

/**
 * A job's `if:`: GitHub takes it as an expression with or without the `${{ }}` wrapper. Text mixed
 * with `${{ }}` is refused here (on GitHub it is a non-empty string, so always true: a mistake).
 */
export function evaluateCondition(condition: string, contexts: Contexts): boolean {
  const parts = splitTemplate(condition.trim());
  const [only] = parts;
  if (parts.length === 1 && only !== undefined && 'expression' in only)
    return truthy(evaluate(only.expression, contexts));
  if (parts.some((part) => 'expression' in part))
    throw new Error(`an if: mixing text and \${{ }} is always true on GitHub: ${condition}`);
  return truthy(evaluate(condition, contexts));
}

/**
 * The context path a bare property access names (`steps.app-token.outputs.token` gives
 * ['steps', 'app-token', 'outputs', 'token']), or undefined for anything else.
 */
export function contextPath(expr: Expr): string[] | undefined {
  if (expr instanceof ContextAccess) return [expr.name.lexeme];
  if (expr instanceof IndexAccess && expr.index instanceof Literal && expr.index.literal.kind === data.Kind.String) {
    const base = contextPath(expr.expr);
    return base && [...base, expr.index.literal.coerceString()];
  }
  return undefined;
}

/** Every context path an expression reads, each as long as it is written (`github.event.issue.number`). */
export function contextPaths(expr: Expr): string[][] {
  const whole = contextPath(expr);
  if (whole) return [whole];
  // A computed index (`x[y]`) or `.*`: the object is read as a whole, and the index is an expression.
  if (expr instanceof IndexAccess) return [...contextPaths(expr.expr), ...contextPaths(expr.index)];
  if (expr instanceof FunctionCall || expr instanceof Logical) return expr.args.flatMap(contextPaths);
  if (expr instanceof Binary) return [...contextPaths(expr.left), ...contextPaths(expr.right)];
  if (expr instanceof Unary) return contextPaths(expr.expr);
  if (expr instanceof Grouping) return contextPaths(expr.group);
  return [];
}

/** Looks one context path up; it decides which values exist and throws for the others. */
export type ResolvePath = (segments: readonly string[]) => unknown;

/**
 * The contexts a text's expressions read, built path by path from `resolve`, for values that are not
 * plain data in a test (secrets, step outputs): only the paths the text names are ever asked for.
 */
export function resolvedContexts(
  text: string,
  allowed: readonly string[],
  resolve: ResolvePath,
): Record<string, unknown> {
  const contexts: Record<string, unknown> = {};
  for (const part of splitTemplate(text)) {
    if (!('expression' in part)) continue;
    for (const segments of contextPaths(parseExpression(part.expression, allowed))) {
      const [root, ...rest] = segments;
      if (root === undefined) continue;
      if (rest.length === 0) {
        contexts[root] = resolve(segments);
        continue;
      }
      let node = (contexts[root] ??= {}) as Record<string, unknown>;
      for (const key of rest.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[rest.at(-1) as string] = resolve(segments);
    }
  }
  return contexts;
}
