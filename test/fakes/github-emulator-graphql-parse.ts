/**
 * A parser for the executable part of GraphQL (operations, fields, arguments, variables, inline
 * fragments, named fragments), so the GitHub emulator reads a query the way GitHub does instead of
 * matching its text: whitespace, commas, comments, aliases and field order do not change the answer.
 * Directives are parsed so the emulator can refuse them by name rather than with a parse error.
 */

export interface SourceLocation {
  line: number;
  column: number;
}

export type ValueNode =
  | { kind: 'Variable'; name: string; loc: SourceLocation }
  | { kind: 'Int' | 'Float' | 'String' | 'Boolean' | 'Null' | 'Enum'; value: string; loc: SourceLocation }
  | { kind: 'List'; values: ValueNode[]; loc: SourceLocation }
  | { kind: 'Object'; fields: { name: string; value: ValueNode }[]; loc: SourceLocation };

export type TypeNode =
  { kind: 'Named'; name: string } | { kind: 'List'; of: TypeNode } | { kind: 'NonNull'; of: TypeNode };

export interface ArgumentNode {
  name: string;
  value: ValueNode;
  loc: SourceLocation;
}

export interface DirectiveNode {
  name: string;
  loc: SourceLocation;
}

export interface FieldNode {
  kind: 'Field';
  alias: string | undefined;
  name: string;
  args: ArgumentNode[];
  directives: DirectiveNode[];
  /** Undefined when the field has no braces at all, which is how leaves are selected. */
  selections: SelectionNode[] | undefined;
  loc: SourceLocation;
}

export interface InlineFragmentNode {
  kind: 'InlineFragment';
  typeCondition: string | undefined;
  directives: DirectiveNode[];
  selections: SelectionNode[];
  loc: SourceLocation;
}

export interface FragmentSpreadNode {
  kind: 'FragmentSpread';
  name: string;
  directives: DirectiveNode[];
  loc: SourceLocation;
}

export type SelectionNode = FieldNode | InlineFragmentNode | FragmentSpreadNode;

export interface VariableDefinitionNode {
  name: string;
  type: TypeNode;
  defaultValue: ValueNode | undefined;
  loc: SourceLocation;
}

export interface OperationNode {
  operation: 'query' | 'mutation' | 'subscription';
  name: string | undefined;
  variables: VariableDefinitionNode[];
  directives: DirectiveNode[];
  selections: SelectionNode[];
  loc: SourceLocation;
}

export interface FragmentDefinitionNode {
  name: string;
  typeCondition: string;
  directives: DirectiveNode[];
  selections: SelectionNode[];
  loc: SourceLocation;
}

export interface DocumentNode {
  operations: OperationNode[];
  fragments: FragmentDefinitionNode[];
}

/** A document GitHub would refuse to parse; the message follows GitHub's wording. */
export class GraphqlSyntaxError extends Error {
  override name = 'GraphqlSyntaxError';
  constructor(
    message: string,
    readonly loc: SourceLocation | undefined,
  ) {
    super(message);
  }
}

type TokenKind = 'punct' | 'name' | 'int' | 'float' | 'string' | 'eof' | 'unknown';

interface Token {
  kind: TokenKind;
  /** The token as written (punctuators, names, numbers) or the decoded text (strings). */
  value: string;
  /** The raw source text, for error messages. */
  raw: string;
  loc: SourceLocation;
}

/** The token names GitHub's parser prints in "Parse error on ..." messages. */
const PUNCT_NAMES: Readonly<Record<string, string>> = {
  '{': 'LCURLY',
  '}': 'RCURLY',
  '(': 'LPAREN',
  ')': 'RPAREN',
  '[': 'LBRACKET',
  ']': 'RBRACKET',
  ':': 'COLON',
  $: 'VAR_SIGN',
  '!': 'BANG',
  '=': 'EQUALS',
  '...': 'ELLIPSIS',
  '@': 'DIR_SIGN',
  '|': 'PIPE',
  '&': 'AMP',
};

const KIND_NAMES: Readonly<Record<TokenKind, string>> = {
  punct: 'PUNCT',
  name: 'IDENTIFIER',
  int: 'INT',
  float: 'FLOAT',
  string: 'STRING',
  eof: 'EOF',
  unknown: 'UNKNOWN_CHAR',
};

function syntaxError(token: Token): GraphqlSyntaxError {
  if (token.kind === 'eof') return new GraphqlSyntaxError('Unexpected end of document', undefined);
  const kind = token.kind === 'punct' ? (PUNCT_NAMES[token.value] ?? 'PUNCT') : KIND_NAMES[token.kind];
  return new GraphqlSyntaxError(
    `Parse error on ${JSON.stringify(token.raw)} (${kind}) at [${token.loc.line}, ${token.loc.column}]`,
    token.loc,
  );
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The spec's BlockStringValue: common indentation and blank first and last lines removed. */
function blockStringValue(raw: string): string {
  const lines = raw.split(/\r\n|[\n\r]/);
  let common: number | undefined;
  for (const line of lines.slice(1)) {
    const indent = line.length - line.replace(/^[ \t]*/, '').length;
    if (indent < line.length && (common === undefined || indent < common)) common = indent;
  }
  const dedented = lines.map((line, index) => (index === 0 || common === undefined ? line : line.slice(common)));
  while (dedented.length > 0 && /^[ \t]*$/.test(dedented[0] ?? '')) dedented.shift();
  while (dedented.length > 0 && /^[ \t]*$/.test(dedented.at(-1) ?? '')) dedented.pop();
  return dedented.join('\n');
}

// Sticky, so each match starts exactly where the lexer stands.
const NAME = /[_A-Za-z][_0-9A-Za-z]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let line = 1;
  let lineStart = 0;
  const here = (): SourceLocation => ({ line, column: pos - lineStart + 1 });
  const newline = (at: number): void => {
    line += 1;
    lineStart = at + 1;
  };

  while (pos < source.length) {
    const ch = source[pos] ?? '';
    if (ch === '\n' || (ch === '\r' && source[pos + 1] !== '\n')) {
      newline(pos);
      pos += 1;
      continue;
    }
    // Commas are insignificant in GraphQL, like whitespace; so is a byte order mark.
    if (ch === ' ' || ch === '\t' || ch === ',' || ch === '\r' || ch === '\uFEFF') {
      pos += 1;
      continue;
    }
    if (ch === '#') {
      while (pos < source.length && source[pos] !== '\n' && source[pos] !== '\r') pos += 1;
      continue;
    }
    const loc = here();
    if (source.startsWith('...', pos)) {
      tokens.push({ kind: 'punct', value: '...', raw: '...', loc });
      pos += 3;
      continue;
    }
    if ('{}()[]:$!=@|&'.includes(ch)) {
      tokens.push({ kind: 'punct', value: ch, raw: ch, loc });
      pos += 1;
      continue;
    }
    NAME.lastIndex = pos;
    const name = NAME.exec(source);
    if (name) {
      tokens.push({ kind: 'name', value: name[0], raw: name[0], loc });
      pos += name[0].length;
      continue;
    }
    NUMBER.lastIndex = pos;
    const number = NUMBER.exec(source);
    if (number) {
      const float = number[1] !== undefined || number[2] !== undefined;
      tokens.push({ kind: float ? 'float' : 'int', value: number[0], raw: number[0], loc });
      pos += number[0].length;
      continue;
    }
    if (source.startsWith('"""', pos)) {
      const start = pos;
      pos += 3;
      let raw = '';
      while (!source.startsWith('"""', pos)) {
        if (pos >= source.length) throw new GraphqlSyntaxError('Unexpected end of document', undefined);
        if (source.startsWith('\\"""', pos)) {
          raw += '"""';
          pos += 4;
          continue;
        }
        const c = source[pos] ?? '';
        if (c === '\n' || (c === '\r' && source[pos + 1] !== '\n')) newline(pos);
        raw += c;
        pos += 1;
      }
      pos += 3;
      tokens.push({ kind: 'string', value: blockStringValue(raw), raw: source.slice(start, pos), loc });
      continue;
    }
    if (ch === '"') {
      const start = pos;
      pos += 1;
      let value = '';
      for (;;) {
        const c = source[pos];
        if (c === undefined || c === '\n' || c === '\r') {
          throw syntaxError({ kind: 'unknown', value: source.slice(start, pos), raw: source.slice(start, pos), loc });
        }
        pos += 1;
        if (c === '"') break;
        if (c !== '\\') {
          value += c;
          continue;
        }
        const escape = source[pos] ?? '';
        const simple = ESCAPES[escape];
        if (simple !== undefined) {
          value += simple;
          pos += 1;
        } else if (escape === 'u' && /^[0-9A-Fa-f]{4}$/.test(source.slice(pos + 1, pos + 5))) {
          value += String.fromCharCode(Number.parseInt(source.slice(pos + 1, pos + 5), 16));
          pos += 5;
        } else {
          throw syntaxError({ kind: 'unknown', value: `\\${escape}`, raw: `\\${escape}`, loc: here() });
        }
      }
      tokens.push({ kind: 'string', value, raw: source.slice(start, pos), loc });
      continue;
    }
    throw syntaxError({ kind: 'unknown', value: ch, raw: ch, loc });
  }
  tokens.push({ kind: 'eof', value: '', raw: '', loc: here() });
  return tokens;
}

/** Parses a GraphQL document; throws GraphqlSyntaxError where GitHub would answer "Parse error". */
export function parseGraphql(source: string): DocumentNode {
  const tokens = tokenize(source);
  let index = 0;

  const peek = (): Token =>
    tokens[index] ?? tokens[tokens.length - 1] ?? { kind: 'eof', value: '', raw: '', loc: { line: 1, column: 1 } };
  const next = (): Token => {
    const token = peek();
    if (token.kind !== 'eof') index += 1;
    return token;
  };
  const isPunct = (value: string): boolean => peek().kind === 'punct' && peek().value === value;
  const skipPunct = (value: string): boolean => {
    if (!isPunct(value)) return false;
    next();
    return true;
  };
  const expectPunct = (value: string): Token => {
    if (!isPunct(value)) throw syntaxError(peek());
    return next();
  };
  const expectName = (): Token => {
    if (peek().kind !== 'name') throw syntaxError(peek());
    return next();
  };
  const expectKeyword = (word: string): void => {
    if (peek().kind !== 'name' || peek().value !== word) throw syntaxError(peek());
    next();
  };

  function parseValue(constant: boolean): ValueNode {
    const token = peek();
    if (token.kind === 'punct' && token.value === '$' && !constant) {
      next();
      return { kind: 'Variable', name: expectName().value, loc: token.loc };
    }
    if (token.kind === 'punct' && token.value === '[') {
      next();
      const values: ValueNode[] = [];
      while (!skipPunct(']')) values.push(parseValue(constant));
      return { kind: 'List', values, loc: token.loc };
    }
    if (token.kind === 'punct' && token.value === '{') {
      next();
      const fields: { name: string; value: ValueNode }[] = [];
      while (!skipPunct('}')) {
        const name = expectName().value;
        expectPunct(':');
        fields.push({ name, value: parseValue(constant) });
      }
      return { kind: 'Object', fields, loc: token.loc };
    }
    if (token.kind === 'int') return { kind: 'Int', value: next().value, loc: token.loc };
    if (token.kind === 'float') return { kind: 'Float', value: next().value, loc: token.loc };
    if (token.kind === 'string') return { kind: 'String', value: next().value, loc: token.loc };
    if (token.kind === 'name') {
      next();
      if (token.value === 'true' || token.value === 'false')
        return { kind: 'Boolean', value: token.value, loc: token.loc };
      if (token.value === 'null') return { kind: 'Null', value: 'null', loc: token.loc };
      return { kind: 'Enum', value: token.value, loc: token.loc };
    }
    throw syntaxError(token);
  }

  function parseType(): TypeNode {
    let type: TypeNode;
    if (skipPunct('[')) {
      type = { kind: 'List', of: parseType() };
      expectPunct(']');
    } else {
      type = { kind: 'Named', name: expectName().value };
    }
    return skipPunct('!') ? { kind: 'NonNull', of: type } : type;
  }

  function parseDirectives(): DirectiveNode[] {
    const directives: DirectiveNode[] = [];
    while (isPunct('@')) {
      const at = next();
      directives.push({ name: expectName().value, loc: at.loc });
      if (isPunct('(')) parseArguments(false);
    }
    return directives;
  }

  function parseArguments(constant: boolean): ArgumentNode[] {
    const args: ArgumentNode[] = [];
    expectPunct('(');
    do {
      const name = expectName();
      expectPunct(':');
      args.push({ name: name.value, value: parseValue(constant), loc: name.loc });
    } while (!skipPunct(')'));
    return args;
  }

  function parseSelectionSet(): SelectionNode[] {
    expectPunct('{');
    const selections: SelectionNode[] = [];
    do selections.push(parseSelection());
    while (!skipPunct('}'));
    return selections;
  }

  function parseSelection(): SelectionNode {
    if (isPunct('...')) {
      const dots = next();
      const token = peek();
      if (token.kind === 'name' && token.value !== 'on') {
        next();
        return { kind: 'FragmentSpread', name: token.value, directives: parseDirectives(), loc: dots.loc };
      }
      let typeCondition: string | undefined;
      if (token.kind === 'name') {
        next();
        typeCondition = expectName().value;
      }
      const directives = parseDirectives();
      return { kind: 'InlineFragment', typeCondition, directives, selections: parseSelectionSet(), loc: dots.loc };
    }
    const first = expectName();
    let alias: string | undefined;
    let name = first;
    if (skipPunct(':')) {
      alias = first.value;
      name = expectName();
    }
    const args = isPunct('(') ? parseArguments(false) : [];
    const directives = parseDirectives();
    const selections = isPunct('{') ? parseSelectionSet() : undefined;
    return { kind: 'Field', alias, name: name.value, args, directives, selections, loc: first.loc };
  }

  function parseVariableDefinitions(): VariableDefinitionNode[] {
    const variables: VariableDefinitionNode[] = [];
    if (!skipPunct('(')) return variables;
    do {
      const dollar = expectPunct('$');
      const name = expectName().value;
      expectPunct(':');
      const type = parseType();
      const defaultValue = skipPunct('=') ? parseValue(true) : undefined;
      parseDirectives();
      variables.push({ name, type, defaultValue, loc: dollar.loc });
    } while (!skipPunct(')'));
    return variables;
  }

  const document: DocumentNode = { operations: [], fragments: [] };
  do {
    const token = peek();
    if (token.kind === 'punct' && token.value === '{') {
      document.operations.push({
        operation: 'query',
        name: undefined,
        variables: [],
        directives: [],
        selections: parseSelectionSet(),
        loc: token.loc,
      });
    } else if (
      token.kind === 'name' &&
      (token.value === 'query' || token.value === 'mutation' || token.value === 'subscription')
    ) {
      next();
      const name = peek().kind === 'name' ? next().value : undefined;
      const variables = parseVariableDefinitions();
      const directives = parseDirectives();
      document.operations.push({
        operation: token.value,
        name,
        variables,
        directives,
        selections: parseSelectionSet(),
        loc: token.loc,
      });
    } else if (token.kind === 'name' && token.value === 'fragment') {
      next();
      const name = expectName().value;
      expectKeyword('on');
      const typeCondition = expectName().value;
      const directives = parseDirectives();
      document.fragments.push({ name, typeCondition, directives, selections: parseSelectionSet(), loc: token.loc });
    } else {
      throw syntaxError(token);
    }
  } while (peek().kind !== 'eof');
  return document;
}
