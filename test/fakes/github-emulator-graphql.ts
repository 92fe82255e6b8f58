import { errorReply, type Reply } from './github-emulator-routes.js';
import {
  legacyNodeId,
  stableUserId,
  type CommentRecord,
  type IssueRecord,
  type UserRecord,
} from './github-emulator-shapes.js';
import type { GitHubState } from './github-emulator-state.js';
import { pagedConnection, REVIEW_THREAD_TYPES, reviewThreadConnection } from './github-emulator-graphql-reviews.js';
import {
  GraphqlSyntaxError,
  parseGraphql,
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type InlineFragmentNode,
  type OperationNode,
  type SelectionNode,
  type SourceLocation,
  type TypeNode,
  type ValueNode,
  type VariableDefinitionNode,
} from './github-emulator-graphql-parse.js';

/** Where GitHub's GraphQL error bodies point. */
export const GRAPHQL_DOCS = 'https://docs.github.com/graphql';

/** Headers GitHub sends on GraphQL answers: the v4 media type and the graphql rate-limit bucket. */
const GRAPHQL_HEADERS = { 'x-github-media-type': 'github.v4; format=json', 'x-ratelimit-resource': 'graphql' };

/** One entry of a GraphQL `errors` array, with GitHub's keys in GitHub's order. */
export interface GraphqlError {
  type?: string;
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
  locations?: SourceLocation[];
  message: string;
}

interface FieldDef {
  /** In SDL notation: `ID!`, `Actor`, `DateTime`. */
  type: string;
  args?: Readonly<Record<string, string>>;
}

interface TypeDef {
  kind: 'OBJECT' | 'INTERFACE' | 'UNION' | 'SCALAR' | 'ENUM' | 'INPUT_OBJECT';
  /** An object's or interface's fields; an input object's fields, with their types in `type`. */
  fields?: Readonly<Record<string, FieldDef>>;
  interfaces?: readonly string[];
  /** A union's members. */
  members?: readonly string[];
}

const ACTOR_FIELDS: Readonly<Record<string, FieldDef>> = {
  login: { type: 'String!' },
  url: { type: 'URI!' },
  resourcePath: { type: 'URI!' },
  avatarUrl: { type: 'URI!', args: { size: 'Int' } },
};

const COMMENT_FIELDS: Readonly<Record<string, FieldDef>> = {
  id: { type: 'ID!' },
  author: { type: 'Actor' },
  authorAssociation: { type: 'CommentAuthorAssociation!' },
  body: { type: 'String!' },
  createdAt: { type: 'DateTime!' },
  editor: { type: 'Actor' },
  includesCreatedEdit: { type: 'Boolean!' },
  lastEditedAt: { type: 'DateTime' },
  publishedAt: { type: 'DateTime' },
  updatedAt: { type: 'DateTime!' },
};

/** What issues and pull requests share: a thread with a title, a body and comments. */
const THREAD_FIELDS: Readonly<Record<string, FieldDef>> = {
  id: { type: 'ID!' },
  number: { type: 'Int!' },
  title: { type: 'String!' },
  body: { type: 'String!' },
  url: { type: 'URI!' },
  comments: { type: 'IssueCommentConnection!', args: { first: 'Int', after: 'String' } },
};

/**
 * The slice of GitHub's GraphQL schema the emulator serves, with GitHub's names and types: `node(id:)`
 * on an issue comment with its author and editor, a repository's issue or pull request with its
 * title, body and comments (paged by cursor), and the one mutation plangate sends, marking a draft
 * pull request ready for review. Anything outside it is answered with the error GitHub gives for a
 * field or type that does not exist.
 */
const SCHEMA: Readonly<Record<string, TypeDef>> = {
  Query: {
    kind: 'OBJECT',
    fields: {
      node: { type: 'Node', args: { id: 'ID!' } },
      repository: { type: 'Repository', args: { owner: 'String!', name: 'String!' } },
    },
  },
  Mutation: {
    kind: 'OBJECT',
    fields: {
      markPullRequestReadyForReview: {
        type: 'MarkPullRequestReadyForReviewPayload',
        args: { input: 'MarkPullRequestReadyForReviewInput!' },
      },
    },
  },
  MarkPullRequestReadyForReviewInput: {
    kind: 'INPUT_OBJECT',
    fields: { clientMutationId: { type: 'String' }, pullRequestId: { type: 'ID!' } },
  },
  MarkPullRequestReadyForReviewPayload: {
    kind: 'OBJECT',
    fields: { clientMutationId: { type: 'String' }, pullRequest: { type: 'PullRequest' } },
  },
  Node: { kind: 'INTERFACE', fields: { id: { type: 'ID!' } } },
  Actor: { kind: 'INTERFACE', fields: ACTOR_FIELDS },
  Comment: { kind: 'INTERFACE', fields: COMMENT_FIELDS },
  IssueComment: {
    kind: 'OBJECT',
    interfaces: ['Node', 'Comment'],
    fields: {
      ...COMMENT_FIELDS,
      databaseId: { type: 'Int' },
      fullDatabaseId: { type: 'BigInt' },
      url: { type: 'URI!' },
      viewerDidAuthor: { type: 'Boolean!' },
    },
  },
  Repository: {
    kind: 'OBJECT',
    interfaces: ['Node'],
    fields: {
      id: { type: 'ID!' },
      name: { type: 'String!' },
      nameWithOwner: { type: 'String!' },
      issueOrPullRequest: { type: 'IssueOrPullRequest', args: { number: 'Int!' } },
      pullRequest: { type: 'PullRequest', args: { number: 'Int!' } },
    },
  },
  IssueOrPullRequest: { kind: 'UNION', members: ['Issue', 'PullRequest'] },
  Issue: { kind: 'OBJECT', interfaces: ['Node'], fields: THREAD_FIELDS },
  PullRequest: {
    kind: 'OBJECT',
    interfaces: ['Node'],
    fields: {
      ...THREAD_FIELDS,
      isDraft: { type: 'Boolean!' },
      headRefName: { type: 'String!' },
      reviewThreads: { type: 'PullRequestReviewThreadConnection!', args: { first: 'Int', after: 'String' } },
    },
  },
  ...REVIEW_THREAD_TYPES,
  IssueCommentConnection: {
    kind: 'OBJECT',
    fields: { nodes: { type: '[IssueComment]' }, pageInfo: { type: 'PageInfo!' }, totalCount: { type: 'Int!' } },
  },
  PageInfo: {
    kind: 'OBJECT',
    fields: {
      hasNextPage: { type: 'Boolean!' },
      hasPreviousPage: { type: 'Boolean!' },
      endCursor: { type: 'String' },
      startCursor: { type: 'String' },
    },
  },
  User: {
    kind: 'OBJECT',
    interfaces: ['Node', 'Actor'],
    fields: { ...ACTOR_FIELDS, id: { type: 'ID!' }, databaseId: { type: 'Int' } },
  },
  Bot: {
    kind: 'OBJECT',
    interfaces: ['Node', 'Actor'],
    fields: { ...ACTOR_FIELDS, id: { type: 'ID!' }, databaseId: { type: 'Int' } },
  },
  ID: { kind: 'SCALAR' },
  String: { kind: 'SCALAR' },
  Int: { kind: 'SCALAR' },
  Float: { kind: 'SCALAR' },
  Boolean: { kind: 'SCALAR' },
  DateTime: { kind: 'SCALAR' },
  URI: { kind: 'SCALAR' },
  BigInt: { kind: 'SCALAR' },
  CommentAuthorAssociation: { kind: 'ENUM' },
};

/** Own entries only: a query naming `constructor` or `toString` must not reach Object.prototype. */
function own<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

const namedType = (sdl: string): string => sdl.replace(/[[\]!]/g, '');

function printType(type: TypeNode): string {
  if (type.kind === 'Named') return type.name;
  return type.kind === 'List' ? `[${printType(type.of)}]` : `${printType(type.of)}!`;
}

/** Object types a value of `type` can be at run time. */
function possibleTypes(type: string): string[] {
  const def = own(SCHEMA, type);
  if (def?.kind === 'OBJECT') return [type];
  if (def?.kind === 'UNION') return [...(def.members ?? [])];
  if (def?.kind !== 'INTERFACE') return [];
  return Object.entries(SCHEMA)
    .filter(([, candidate]) => candidate.interfaces?.includes(type))
    .map(([name]) => name);
}

function isComposite(type: string): boolean {
  const kind = own(SCHEMA, type)?.kind;
  return kind === 'OBJECT' || kind === 'INTERFACE' || kind === 'UNION';
}

/** Whether a literal may stand for an argument of type `sdl`, by GraphQL's input coercion rules. */
function literalFits(value: ValueNode, sdl: string): boolean {
  if (value.kind === 'Null') return !sdl.endsWith('!');
  switch (namedType(sdl)) {
    case 'ID':
      return value.kind === 'String' || value.kind === 'Int';
    case 'Int':
      return value.kind === 'Int';
    case 'Float':
      return value.kind === 'Int' || value.kind === 'Float';
    case 'Boolean':
      return value.kind === 'Boolean';
    default:
      return value.kind === 'String';
  }
}

/** Whether a variable of `declared` type may be passed where `sdl` is expected. */
function variableFits(variable: VariableDefinitionNode, sdl: string): boolean {
  const declared = printType(variable.type);
  if (declared === sdl || declared === `${sdl}!`) return true;
  // A nullable variable with a default may fill a non-null argument.
  return (
    sdl.endsWith('!') &&
    declared === sdl.slice(0, -1) &&
    variable.defaultValue !== undefined &&
    variable.defaultValue.kind !== 'Null'
  );
}

function literalText(value: ValueNode): string {
  switch (value.kind) {
    case 'Variable':
      return `$${value.name}`;
    case 'String':
      return JSON.stringify(value.value);
    case 'List':
      return `[${value.values.map(literalText).join(', ')}]`;
    case 'Object':
      return `{${value.fields.map((f) => `${f.name}: ${literalText(f.value)}`).join(', ')}}`;
    default:
      return value.value;
  }
}

/** A validation problem as GitHub reports it: where, what rule (`code`), and in which words. */
function problem(
  message: string,
  loc: SourceLocation,
  path: string[],
  extensions: Record<string, unknown>,
): GraphqlError {
  return { path, extensions, locations: [loc], message };
}

const selectionNames = (selections: readonly SelectionNode[]): string =>
  selections
    .map((s) => (s.kind === 'Field' ? s.name : s.kind === 'FragmentSpread' ? `...${s.name}` : '...'))
    .join(', ');

/** What one operation's walk needs to know about its variables. */
interface OperationScope {
  label: string;
  declared: ReadonlyMap<string, VariableDefinitionNode>;
  used: Set<string>;
}

/**
 * Checks a document against the schema the way GitHub does before running anything: every field,
 * argument, fragment and variable must exist and fit. Returns every problem found.
 */
function validate(document: DocumentNode): GraphqlError[] {
  const errors: GraphqlError[] = [];
  const seen = new Set<string>();
  // A fragment spread twice would otherwise report its problems twice.
  const report = (error: GraphqlError): void => {
    const key = JSON.stringify([error.message, error.path]);
    if (!seen.has(key)) errors.push(error);
    seen.add(key);
  };
  const fragments = new Map(document.fragments.map((f) => [f.name, f]));
  const usedFragments = new Set<string>();

  function checkDirectives(directives: readonly { name: string; loc: SourceLocation }[], path: string[]): void {
    for (const { name, loc } of directives) {
      report(
        problem(`Directive @${name} is not served by the plangate GitHub emulator`, loc, path, {
          code: 'undefinedDirective',
          directiveName: name,
        }),
      );
    }
  }

  function checkArgument(
    field: FieldNode,
    arg: ArgumentNode,
    sdl: string,
    path: string[],
    scope: OperationScope,
  ): void {
    checkValue(arg.value, sdl, { field, name: arg.name, loc: arg.loc }, path, scope);
  }

  /** Checks a value given for an argument (or an input object's field) of type `sdl`. */
  function checkValue(
    value: ValueNode,
    sdl: string,
    at: { field: FieldNode; name: string; loc: SourceLocation; inputObject?: string },
    path: string[],
    scope: OperationScope,
  ): void {
    const input = own(SCHEMA, namedType(sdl));
    if (value.kind === 'Object' && input?.kind === 'INPUT_OBJECT') {
      checkInputObject(value, namedType(sdl), input, at.field, path, scope);
      return;
    }
    if (value.kind !== 'Variable') {
      if (literalFits(value, sdl)) return;
      const owner = at.inputObject ? `InputObject '${at.inputObject}'` : `Field '${at.field.name}'`;
      const message = `Argument '${at.name}' on ${owner} has an invalid value (${literalText(value)}). Expected type '${sdl}'.`;
      report(
        problem(message, at.loc, path, {
          code: 'argumentLiteralsIncompatible',
          typeName: at.inputObject ? 'InputObject' : 'Field',
          argumentName: at.name,
        }),
      );
      return;
    }
    const name = value.name;
    scope.used.add(name);
    const variable = scope.declared.get(name);
    if (!variable) {
      report(
        problem(`Variable $${name} is used by ${scope.label} but not declared`, value.loc, path, {
          code: 'variableNotDefined',
          variableName: name,
        }),
      );
    } else if (!variableFits(variable, sdl)) {
      const declared = printType(variable.type);
      report(
        problem(`Type mismatch on variable $${name} and argument ${at.name} (${declared} / ${sdl})`, value.loc, path, {
          code: 'variableMismatch',
          variableName: name,
          typeName: declared,
          argumentName: at.name,
          errorMessage: 'Type mismatch',
        }),
      );
    }
  }

  /** An input object written out in the document: every field it names must exist, every required one be there. */
  function checkInputObject(
    value: Extract<ValueNode, { kind: 'Object' }>,
    typeName: string,
    def: TypeDef,
    field: FieldNode,
    path: string[],
    scope: OperationScope,
  ): void {
    const fields = def.fields ?? {};
    for (const given of value.fields) {
      const inputField = own(fields, given.name);
      if (inputField) {
        checkValue(
          given.value,
          inputField.type,
          { field, name: given.name, loc: given.value.loc, inputObject: typeName },
          [...path, given.name],
          scope,
        );
        continue;
      }
      report(
        problem(`InputObject '${typeName}' doesn't accept argument '${given.name}'`, value.loc, [...path, given.name], {
          code: 'argumentNotAccepted',
          name: typeName,
          typeName: 'InputObject',
          argumentName: given.name,
        }),
      );
    }
    for (const [name, inputField] of Object.entries(fields)) {
      if (!inputField.type.endsWith('!') || value.fields.some((f) => f.name === name)) continue;
      const message = `Argument '${name}' on InputObject '${typeName}' is required. Expected type ${inputField.type}`;
      report(
        problem(message, value.loc, [...path, name], {
          code: 'missingRequiredInputObjectAttribute',
          argumentName: name,
          argumentType: inputField.type,
          inputObjectType: typeName,
        }),
      );
    }
  }

  function checkArguments(field: FieldNode, def: FieldDef, path: string[], scope: OperationScope): void {
    const accepted = def.args ?? {};
    for (const arg of field.args) {
      const sdl = own(accepted, arg.name);
      if (sdl !== undefined) {
        checkArgument(field, arg, sdl, [...path, arg.name], scope);
        continue;
      }
      report(
        problem(`Field '${field.name}' doesn't accept argument '${arg.name}'`, arg.loc, [...path, arg.name], {
          code: 'argumentNotAccepted',
          name: field.name,
          typeName: 'Field',
          argumentName: arg.name,
        }),
      );
    }
    const missing = Object.entries(accepted)
      .filter(([name, sdl]) => sdl.endsWith('!') && !field.args.some((arg) => arg.name === name))
      .map(([name]) => name);
    if (missing.length > 0) {
      const message = `Field '${field.name}' is missing required arguments: ${missing.join(', ')}`;
      report(
        problem(message, field.loc, path, {
          code: 'missingRequiredArguments',
          className: 'Field',
          name: field.name,
          arguments: missing.join(', '),
        }),
      );
    }
  }

  function checkField(
    parent: string,
    field: FieldNode,
    path: string[],
    scope: OperationScope,
    visiting: ReadonlySet<string>,
  ): void {
    const fieldPath = [...path, field.alias ?? field.name];
    const def: FieldDef | undefined =
      field.name === '__typename' ? { type: 'String!' } : own(own(SCHEMA, parent)?.fields, field.name);
    if (!def) {
      const message = `Field '${field.name}' doesn't exist on type '${parent}'`;
      report(
        problem(message, field.loc, fieldPath, { code: 'undefinedField', typeName: parent, fieldName: field.name }),
      );
      return;
    }
    checkArguments(field, def, fieldPath, scope);
    const type = namedType(def.type);
    const mismatch = { code: 'selectionMismatch', nodeName: `field '${field.name}'`, typeName: def.type };
    if (isComposite(type) && !field.selections) {
      const message = `Field '${field.name}' returns ${type} but has no selections. Did you mean '${field.name} { ... }'?`;
      report(problem(message, field.loc, fieldPath, mismatch));
    } else if (!isComposite(type) && field.selections) {
      const message = `Selections can't be made on scalars (field '${field.name}' returns ${def.type} but has selections [${selectionNames(field.selections)}])`;
      report(problem(message, field.loc, fieldPath, mismatch));
    } else if (field.selections) {
      walk(type, field.selections, fieldPath, scope, visiting);
    }
  }

  /** Checks a fragment's type condition against where it is used; the condition, or undefined when it does not fit. */
  function fragmentCondition(
    parent: string,
    selection: InlineFragmentNode | FragmentSpreadNode,
    path: string[],
    visiting: ReadonlySet<string>,
  ): string | undefined {
    if (selection.kind === 'FragmentSpread') {
      usedFragments.add(selection.name);
      const fragment = fragments.get(selection.name);
      if (!fragment) {
        report(
          problem(`Fragment ${selection.name} was used, but not defined`, selection.loc, path, {
            code: 'useAndDefineFragment',
            fragmentName: selection.name,
          }),
        );
        return undefined;
      }
      if (visiting.has(selection.name)) {
        report(
          problem(`Fragment ${selection.name} contains an infinite loop`, selection.loc, path, {
            code: 'infiniteLoop',
            fragmentName: selection.name,
          }),
        );
        return undefined;
      }
    }
    const condition =
      selection.kind === 'InlineFragment'
        ? (selection.typeCondition ?? parent)
        : (fragments.get(selection.name)?.typeCondition ?? '');
    if (!isComposite(condition)) {
      report(
        problem(`No such type ${condition}, so it can't be a fragment condition`, selection.loc, path, {
          code: 'undefinedType',
          typeName: condition,
        }),
      );
      return undefined;
    }
    if (!possibleTypes(condition).some((t) => possibleTypes(parent).includes(t))) {
      const message = `Fragment on ${condition} can't be spread inside ${parent}`;
      report(
        problem(message, selection.loc, path, {
          code: 'cannotSpreadFragment',
          typeName: condition,
          parentName: parent,
        }),
      );
      return undefined;
    }
    return condition;
  }

  function walk(
    parent: string,
    selections: readonly SelectionNode[],
    path: string[],
    scope: OperationScope,
    visiting: ReadonlySet<string>,
  ): void {
    for (const selection of selections) {
      checkDirectives(selection.directives, path);
      if (selection.kind === 'Field') {
        checkField(parent, selection, path, scope, visiting);
        continue;
      }
      const label =
        selection.kind === 'FragmentSpread'
          ? `... ${selection.name}`
          : selection.typeCondition
            ? `... on ${selection.typeCondition}`
            : '...';
      const fragmentPath = [...path, label];
      const condition = fragmentCondition(parent, selection, fragmentPath, visiting);
      if (condition === undefined) continue;
      if (selection.kind === 'InlineFragment') {
        walk(condition, selection.selections, fragmentPath, scope, visiting);
      } else {
        walk(
          condition,
          fragments.get(selection.name)?.selections ?? [],
          fragmentPath,
          scope,
          new Set([...visiting, selection.name]),
        );
      }
    }
  }

  function checkOperation(operation: OperationNode): void {
    const path = [operation.name === undefined ? operation.operation : `${operation.operation} ${operation.name}`];
    if (operation.operation === 'subscription') {
      report({
        path,
        locations: [operation.loc],
        message: `The plangate GitHub emulator serves queries and mutations only, not ${operation.operation}s`,
      });
      return;
    }
    checkDirectives(operation.directives, path);
    const declared = new Map<string, VariableDefinitionNode>();
    for (const variable of operation.variables) {
      if (declared.has(variable.name)) {
        report(
          problem(`There can only be one variable named "${variable.name}"`, variable.loc, path, {
            code: 'variableNotUnique',
            variableName: variable.name,
          }),
        );
      }
      declared.set(variable.name, variable);
      const base = namedType(printType(variable.type));
      if (own(SCHEMA, base) === undefined || isComposite(base)) {
        const message = `${base} isn't a defined input type (on $${variable.name})`;
        report(
          problem(message, variable.loc, path, {
            code: 'variableRequiresValidType',
            typeName: base,
            variableName: variable.name,
          }),
        );
      }
    }
    const scope: OperationScope = { label: operation.name ?? 'anonymous query', declared, used: new Set() };
    walk(operation.operation === 'mutation' ? 'Mutation' : 'Query', operation.selections, path, scope, new Set());
    for (const variable of operation.variables) {
      if (scope.used.has(variable.name)) continue;
      const message = `Variable $${variable.name} is declared by ${scope.label} but not used`;
      report(problem(message, variable.loc, path, { code: 'variableNotUsed', variableName: variable.name }));
    }
  }

  document.operations.forEach(checkOperation);
  for (const fragment of document.fragments) {
    if (usedFragments.has(fragment.name)) continue;
    const message = `Fragment ${fragment.name} was defined, but not used`;
    report(
      problem(message, fragment.loc, [`fragment ${fragment.name}`], {
        code: 'useAndDefineFragment',
        fragmentName: fragment.name,
      }),
    );
  }
  return errors;
}

/** Checks and converts one variable's value; a message when GitHub would refuse it. */
function coerceVariable(
  variable: VariableDefinitionNode,
  value: unknown,
): { ok: true; value: unknown } | { ok: false; explanation: string } {
  const nonNull = variable.type.kind === 'NonNull';
  if (value === null || value === undefined)
    return nonNull ? { ok: false, explanation: 'Expected value to not be null' } : { ok: true, value: null };
  const type = variable.type.kind === 'NonNull' ? variable.type.of : variable.type;
  if (type.kind !== 'Named') return { ok: true, value };
  return coerceNamed(type.name, value);
}

type Coerced = { ok: true; value: unknown } | { ok: false; explanation: string };

/** A non-null value for a named type: a scalar, or an input object field by field. */
function coerceNamed(name: string, value: unknown): Coerced {
  const def = own(SCHEMA, name);
  if (def?.kind === 'INPUT_OBJECT') return coerceInputObject(name, def, value);
  const fail = { ok: false as const, explanation: `Could not coerce value ${JSON.stringify(value)} to ${name}` };
  switch (name) {
    case 'ID':
      if (typeof value === 'string') return { ok: true, value };
      return typeof value === 'number' && Number.isInteger(value) ? { ok: true, value: String(value) } : fail;
    case 'Int':
      return typeof value === 'number' && Number.isInteger(value) ? { ok: true, value } : fail;
    case 'Float':
      return typeof value === 'number' ? { ok: true, value } : fail;
    case 'Boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail;
    default:
      return typeof value === 'string' ? { ok: true, value } : fail;
  }
}

/** An input object given as a variable: no field it does not define, every required one present. */
function coerceInputObject(name: string, def: TypeDef, value: unknown): Coerced {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, explanation: `Expected ${JSON.stringify(value)} to be a key-value object.` };
  const given = value as Record<string, unknown>;
  const fields = def.fields ?? {};
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(given))
    if (own(fields, key) === undefined) return { ok: false, explanation: `Field is not defined on ${name}` };
  for (const [key, field] of Object.entries(fields)) {
    const raw = given[key];
    if (raw === undefined || raw === null) {
      if (field.type.endsWith('!')) return { ok: false, explanation: 'Expected value to not be null' };
      continue;
    }
    const coerced = coerceNamed(namedType(field.type), raw);
    if (!coerced.ok) return coerced;
    out[key] = coerced.value;
  }
  return { ok: true, value: out };
}

function literalValue(value: ValueNode, variables: Readonly<Record<string, unknown>>): unknown {
  switch (value.kind) {
    case 'Variable':
      return variables[value.name] ?? null;
    case 'Int':
    case 'Float':
      return Number(value.value);
    case 'Boolean':
      return value.value === 'true';
    case 'Null':
      return null;
    case 'List':
      return value.values.map((v) => literalValue(v, variables));
    case 'Object':
      return Object.fromEntries(value.fields.map((f) => [f.name, literalValue(f.value, variables)]));
    default:
      return value.value;
  }
}

interface ResolveInfo {
  path: (string | number)[];
  loc: SourceLocation;
  errors: GraphqlError[];
}

/** A resolved object: its run-time type and its fields, plain values or resolvers taking arguments. */
interface GqlObject {
  __typename: string;
  [field: string]: unknown;
}

type Resolver = (args: Record<string, unknown>, info: ResolveInfo) => unknown;

function isGqlObject(value: unknown): value is GqlObject {
  return (
    typeof value === 'object' && value !== null && typeof (value as { __typename?: unknown }).__typename === 'string'
  );
}

function applies(typeCondition: string | undefined, runtimeType: string): boolean {
  return typeCondition === undefined || possibleTypes(typeCondition).includes(runtimeType);
}

/** GraphQL's CollectFields: the fields a selection asks of one object, merged by response key. */
function collectFields(
  runtimeType: string,
  selections: readonly SelectionNode[],
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  into: Map<string, FieldNode[]> = new Map(),
): Map<string, FieldNode[]> {
  for (const selection of selections) {
    if (selection.kind === 'Field') {
      const key = selection.alias ?? selection.name;
      into.set(key, [...(into.get(key) ?? []), selection]);
    } else if (selection.kind === 'InlineFragment') {
      if (applies(selection.typeCondition, runtimeType))
        collectFields(runtimeType, selection.selections, fragments, into);
    } else {
      const fragment = fragments.get(selection.name);
      if (fragment && applies(fragment.typeCondition, runtimeType))
        collectFields(runtimeType, fragment.selections, fragments, into);
    }
  }
  return into;
}

interface ExecutionContext {
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  variables: Readonly<Record<string, unknown>>;
  errors: GraphqlError[];
}

function execute(
  object: GqlObject,
  selections: readonly SelectionNode[],
  path: (string | number)[],
  ctx: ExecutionContext,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, fields] of collectFields(object.__typename, selections, ctx.fragments)) {
    const field = fields[0];
    if (!field) continue;
    if (field.name === '__typename') {
      result[key] = object.__typename;
      continue;
    }
    const raw = object[field.name];
    const args = Object.fromEntries(
      field.args.map((arg: ArgumentNode) => [arg.name, literalValue(arg.value, ctx.variables)]),
    );
    const value =
      typeof raw === 'function'
        ? (raw as Resolver)(args, { path: [...path, key], loc: field.loc, errors: ctx.errors })
        : raw;
    const selections = fields.flatMap((f) => f.selections ?? []);
    const complete = (item: unknown, at: (string | number)[]): unknown =>
      isGqlObject(item) ? execute(item, selections, at, ctx) : (item ?? null);
    result[key] = Array.isArray(value)
      ? value.map((item, i) => complete(item, [...path, key, i]))
      : complete(value, [...path, key]);
  }
  return result;
}

/** How GraphQL names an account: an app's bot without REST's `[bot]` suffix, under /apps/. */
function actorObject(state: GitHubState, user: UserRecord): GqlObject {
  const databaseId = stableUserId(user.login);
  const login = user.type === 'Bot' ? user.login.replace(/\[bot\]$/, '') : user.login;
  const resourcePath = user.type === 'Bot' ? `/apps/${encodeURIComponent(login)}` : `/${encodeURIComponent(login)}`;
  return {
    __typename: user.type,
    id: legacyNodeId(user.type, databaseId),
    databaseId,
    login,
    resourcePath,
    url: `${state.ctx.serverUrl}${resourcePath}`,
    avatarUrl: ((args: Record<string, unknown>) =>
      `${state.ctx.serverUrl}/avatars/u/${databaseId}?${typeof args.size === 'number' ? `s=${args.size}&` : ''}v=4`) satisfies Resolver,
  };
}

function commentObject(state: GitHubState, comment: CommentRecord, viewer: UserRecord): GqlObject {
  const rest = state.commentJson(comment);
  return {
    __typename: 'IssueComment',
    id: rest.node_id,
    databaseId: comment.id,
    // GitHub's BigInt is a string on the wire: comment ids have outgrown GraphQL's 32-bit Int.
    fullDatabaseId: String(comment.id),
    url: rest.html_url,
    body: comment.body,
    author: actorObject(state, comment.user),
    authorAssociation: rest.author_association,
    editor: comment.editor ? actorObject(state, comment.editor) : null,
    lastEditedAt: comment.lastEditedAt,
    includesCreatedEdit: comment.editor !== null,
    createdAt: comment.createdAt,
    publishedAt: comment.createdAt,
    updatedAt: comment.updatedAt,
    viewerDidAuthor: comment.user.login.toLowerCase() === viewer.login.toLowerCase(),
  };
}

/** Reads a legacy node id ("0<len>:<Type><id>", base64), accepting only its canonical spelling. */
function decodeNodeId(id: string): { type: string; id: number } | undefined {
  const match = /^0(\d+):([A-Za-z]+)(\d+)$/.exec(Buffer.from(id, 'base64').toString('utf8'));
  if (!match) return undefined;
  const type = match[2] ?? '';
  const number = Number(match[3]);
  return Number(match[1]) === type.length && legacyNodeId(type, number) === id ? { type, id: number } : undefined;
}

/** An issue's or pull request's comments, oldest first, one page per request as GitHub serves them. */
function commentConnection(state: GitHubState, issue: IssueRecord, viewer: UserRecord): Resolver {
  return (args, info) =>
    pagedConnection('IssueCommentConnection', 'comments', state.commentsOf(issue.number), (comment) =>
      commentObject(state, comment, viewer),
    )(args, info);
}

function threadObject(state: GitHubState, issue: IssueRecord, viewer: UserRecord): GqlObject {
  const type = issue.pull ? 'PullRequest' : 'Issue';
  return {
    __typename: type,
    id: legacyNodeId(type, issue.pull?.id ?? issue.id),
    number: issue.number,
    title: issue.title,
    // GraphQL's body is non-null: an issue without a description reads as empty.
    body: issue.body ?? '',
    url: `${state.ctx.serverUrl}/${state.ctx.owner}/${state.ctx.repo}/${issue.pull ? 'pull' : 'issues'}/${issue.number}`,
    comments: commentConnection(state, issue, viewer),
    ...(issue.pull
      ? {
          isDraft: issue.pull.draft,
          headRefName: issue.pull.head,
          reviewThreads: reviewThreadConnection(state, issue, actorObject),
        }
      : {}),
  };
}

function repositoryObject(state: GitHubState, viewer: UserRecord): GqlObject {
  const { owner, repo, repoId } = state.ctx;
  const issueOrPullRequest: Resolver = (args, info) => {
    const issue = typeof args.number === 'number' ? state.issues.get(args.number) : undefined;
    if (issue) return threadObject(state, issue, viewer);
    const message = `Could not resolve to an issue or pull request with the number of ${String(args.number)}.`;
    info.errors.push({ type: 'NOT_FOUND', path: info.path, locations: [info.loc], message });
    return null;
  };
  const pullRequest: Resolver = (args, info) => {
    const issue = typeof args.number === 'number' ? state.issues.get(args.number) : undefined;
    if (issue?.pull) return threadObject(state, issue, viewer);
    const message = `Could not resolve to a PullRequest with the number of ${String(args.number)}.`;
    info.errors.push({ type: 'NOT_FOUND', path: info.path, locations: [info.loc], message });
    return null;
  };
  return {
    __typename: 'Repository',
    id: legacyNodeId('Repository', repoId),
    name: repo,
    nameWithOwner: `${owner}/${repo}`,
    issueOrPullRequest,
    pullRequest,
  };
}

/** Issue comments resolve by node id; the one repository by owner and name. */
function queryRoot(state: GitHubState, viewer: UserRecord): GqlObject {
  const node: Resolver = (args, info) => {
    const id = String(args.id);
    const decoded = decodeNodeId(id);
    const comment = decoded?.type === 'IssueComment' ? state.commentRecords.get(decoded.id) : undefined;
    if (comment) return commentObject(state, comment, viewer);
    info.errors.push({
      type: 'NOT_FOUND',
      path: info.path,
      locations: [info.loc],
      message: `Could not resolve to a node with the global id of '${id}'.`,
    });
    return null;
  };
  const repository: Resolver = (args, info) => {
    const { owner, repo } = state.ctx;
    if (
      String(args.owner).toLowerCase() === owner.toLowerCase() &&
      String(args.name).toLowerCase() === repo.toLowerCase()
    ) {
      return repositoryObject(state, viewer);
    }
    const message = `Could not resolve to a Repository with the name '${String(args.owner)}/${String(args.name)}'.`;
    info.errors.push({ type: 'NOT_FOUND', path: info.path, locations: [info.loc], message });
    return null;
  };
  return { __typename: 'Query', node, repository };
}

/** What the token may write, as the REST routes ask it: a mutation needing a withheld permission is refused. */
export interface GraphqlAccess {
  mayWritePullRequests: () => boolean;
}

/**
 * `markPullRequestReadyForReview`: a draft pull request, named by its node id, becomes ready. A token
 * without `pull-requests: write` gets GitHub's FORBIDDEN error and a null payload.
 */
function mutationRoot(state: GitHubState, viewer: UserRecord, access: GraphqlAccess): GqlObject {
  const markPullRequestReadyForReview: Resolver = (args, info) => {
    const input = (args.input ?? {}) as Record<string, unknown>;
    const id = String(input.pullRequestId);
    if (!access.mayWritePullRequests()) {
      info.errors.push({
        type: 'FORBIDDEN',
        path: info.path,
        extensions: { saml_failure: false },
        locations: [info.loc],
        message: 'Resource not accessible by integration',
      });
      return null;
    }
    const decoded = decodeNodeId(id);
    const issue =
      decoded?.type === 'PullRequest'
        ? [...state.issues.values()].find((candidate) => candidate.pull?.id === decoded.id)
        : undefined;
    if (!issue?.pull) {
      info.errors.push({
        type: 'NOT_FOUND',
        path: info.path,
        locations: [info.loc],
        message: `Could not resolve to a node with the global id of '${id}'.`,
      });
      return null;
    }
    issue.pull.draft = false;
    issue.updatedAt = state.now();
    return {
      __typename: 'MarkPullRequestReadyForReviewPayload',
      clientMutationId: typeof input.clientMutationId === 'string' ? input.clientMutationId : null,
      pullRequest: threadObject(state, issue, viewer),
    };
  };
  return { __typename: 'Mutation', markPullRequestReadyForReview };
}

const ok = (body: unknown): Reply => ({ status: 200, body, headers: GRAPHQL_HEADERS });
const failed = (errors: GraphqlError[]): Reply => ok({ errors });

/**
 * Answers a GraphQL request as GitHub does: always 200 once authenticated, with `errors` for a
 * document it cannot parse, validate or run, and `data` (beside `errors` for nodes it cannot find)
 * otherwise.
 */
export function answerGraphql(
  state: GitHubState,
  body: unknown,
  viewer: UserRecord,
  access: GraphqlAccess = { mayWritePullRequests: () => true },
): Reply {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof request.query !== 'string')
    return failed([{ message: 'A query attribute must be specified and must be a string.' }]);
  let variables: unknown = request.variables ?? {};
  if (typeof variables === 'string') {
    try {
      variables = variables.trim() === '' ? {} : JSON.parse(variables);
    } catch {
      return failed([{ message: 'Variables are invalid JSON.' }]);
    }
  }
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) {
    return failed([{ message: 'Variables are invalid JSON.' }]);
  }

  let document: DocumentNode;
  try {
    document = parseGraphql(request.query);
  } catch (error) {
    if (!(error instanceof GraphqlSyntaxError)) throw error;
    return failed([{ message: error.message, ...(error.loc ? { locations: [error.loc] } : {}) }]);
  }

  const problems = validate(document);
  if (problems.length > 0) return failed(problems);

  const wanted =
    typeof request.operationName === 'string' && request.operationName !== '' ? request.operationName : undefined;
  const operation =
    wanted === undefined ? document.operations[0] : document.operations.find((op) => op.name === wanted);
  if (!operation) return failed([{ message: `No operation named "${wanted ?? ''}"` }]);
  if (wanted === undefined && document.operations.length > 1)
    return failed([{ message: 'An operation name is required' }]);

  const provided = variables as Record<string, unknown>;
  const values: Record<string, unknown> = {};
  const invalid: GraphqlError[] = [];
  for (const variable of operation.variables) {
    const given = Object.hasOwn(provided, variable.name)
      ? provided[variable.name]
      : variable.defaultValue
        ? literalValue(variable.defaultValue, {})
        : undefined;
    const coerced = coerceVariable(variable, given);
    if (coerced.ok) {
      values[variable.name] = coerced.value;
    } else {
      invalid.push({
        extensions: { value: given ?? null, problems: [{ path: [], explanation: coerced.explanation }] },
        locations: [variable.loc],
        message: `Variable $${variable.name} of type ${printType(variable.type)} was provided invalid value`,
      });
    }
  }
  if (invalid.length > 0) return failed(invalid);

  const ctx: ExecutionContext = {
    fragments: new Map(document.fragments.map((f) => [f.name, f])),
    variables: values,
    errors: [],
  };
  const root = operation.operation === 'mutation' ? mutationRoot(state, viewer, access) : queryRoot(state, viewer);
  const data = execute(root, operation.selections, [], ctx);
  return ok(ctx.errors.length > 0 ? { data, errors: ctx.errors } : { data });
}

/**
 * GitHub's GraphQL 401s: without a token it asks for one (GraphQL has no anonymous access), with
 * a wrong one it says the credentials are bad.
 */
export function graphqlUnauthorized(hasToken: boolean): Reply {
  return hasToken
    ? errorReply(401, 'Bad credentials', GRAPHQL_DOCS)
    : errorReply(
        401,
        'This endpoint requires you to be authenticated.',
        `${GRAPHQL_DOCS}/guides/forming-calls-with-graphql#authenticating-with-graphql`,
      );
}
