import type { z } from 'zod';
import { didYouMean } from '../text/did-you-mean.js';
import { code } from '../text/markdown.js';

/**
 * zod's issues as sentences a user can act on, naming the setting where they wrote it: "unknown key
 * `price` in .github/plangate.yml; did you mean `prices`?", "the `max-iterations` input must be a whole
 * number from 1 to 100, not `abc`". One formatter for the config file, the action's inputs and the
 * CLI's flags, so all three read alike. Every key and value the user wrote is shown as inline code
 * (markdown.ts's `code`), so the sentence can go into a comment as it is: nothing a config file holds
 * can turn into a link, a mention or HTML.
 */

/** How a sentence names the setting a path leads to. */
export interface IssuePlace {
  /** The value at `path` ('' for the whole value), as the subject of a sentence. */
  value(path: string): string;
  /** The mapping at `path` ('' for the top level) that holds an unknown key. */
  keysIn(path: string): string;
}

/** The place of a config file's keys: "`tasks[0].policy` in .github/plangate.yml". */
export function inFile(file: string): IssuePlace {
  return {
    value: (path) => (path ? `${code(path)} in ${file}` : file),
    keysIn: (path) => (path ? `${code(path)} of ${file}` : file),
  };
}

/** The place of a single value, such as an input or a flag: "the `policy` input". */
export function named(subject: string): IssuePlace {
  const at = (path: string) => (path ? `${code(path)} of ${subject}` : subject);
  return { value: at, keysIn: at };
}

/** The place of an action input's value: "the `policy` input". */
export const inputPlace = (name: string): IssuePlace => named(`the ${code(name)} input`);

type Issue = z.core.$ZodIssue;

/** A path as YAML users read it: `tasks[0].policy`. */
export function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`))
    .join('');
}

/**
 * The issues as sentences, each ending in "." or "?". `schema` is the one that was parsed, so an
 * unknown key can be matched against the keys it accepts at that place.
 */
export function issueSentences(issues: readonly Issue[], place: IssuePlace, schema?: z.core.$ZodType): string {
  const guessed = new Set<string>();
  const sentences = issues.map((issue) => sentencesOf(issue, place, schema, guessed));
  // A required key that an unknown key was guessed to be is one mistake, said once: the misspelling.
  const required = (issue: Issue) => issue.code === 'invalid_type' && issue.input === undefined;
  return sentences
    .filter((_, i) => !(required(issues[i] as Issue) && guessed.has(pathText((issues[i] as Issue).path))))
    .flat()
    .map((s) => (/[.?]$/.test(s) ? s : `${s}.`))
    .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
    .join(' ');
}

/**
 * A message written for plangate's schemas ("must be account or none") starts lower-case and
 * follows the setting's name; zod's own ("Invalid input: ...") starts upper-case and is replaced.
 */
const ownMessage = (message: string) => (/^[a-z]/.test(message) ? message : undefined);

function sentencesOf(
  issue: Issue,
  place: IssuePlace,
  schema: z.core.$ZodType | undefined,
  guessed: Set<string>,
): string[] {
  const path = pathText(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const known = schema ? keysAt(schema, issue.path) : [];
    return issue.keys.map((key) => {
      const guess = didYouMean(key, known);
      if (guess) guessed.add(pathText([...issue.path, guess]));
      return `unknown key ${code(key)} in ${place.keysIn(path)}${guess ? `; did you mean ${code(guess)}?` : ''}`;
    });
  }
  const subject = place.value(path);
  if (issue.code === 'invalid_value') {
    const choices = issue.values.filter((v): v is string => typeof v === 'string');
    const guess = typeof issue.input === 'string' ? didYouMean(issue.input, choices) : undefined;
    const rule = ownMessage(issue.message) ?? `must be one of ${issue.values.map(String).join(', ')}`;
    return [guess ? `${subject} ${rule}; did you mean ${code(guess)}?` : `${subject} ${rule}${shown(issue.input)}`];
  }
  if (issue.code === 'invalid_type' && issue.input === undefined) return [`${subject} is required`];
  return [`${subject} ${predicate(issue)}${shown(issue.input)}`];
}

/** What the value must be, for the issues that are about one value. */
function predicate(issue: Issue): string {
  const own = ownMessage(issue.message);
  if (own) return own;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${kinds[issue.expected] ?? issue.expected}`;
    case 'too_small':
      return bound(issue.origin, 'least', issue.inclusive ?? true, issue.minimum);
    case 'too_big':
      return bound(issue.origin, 'most', issue.inclusive ?? true, issue.maximum);
    case 'invalid_format':
      return issue.format === 'url' ? 'must be a URL' : `is not in the expected form (${issue.format})`;
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_union':
      return 'is in none of the accepted forms';
    default:
      return 'is not valid';
  }
}

/** zod's type names in the words of a YAML file. */
const kinds: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of keys to values',
  record: 'a mapping of keys to values',
};

function bound(origin: string, end: 'least' | 'most', inclusive: boolean, limit: number | bigint): string {
  const n = Number(limit);
  if (origin === 'string')
    return end === 'least' && n === 1 ? 'must not be empty' : `must be at ${end} ${n} characters long`;
  if (origin === 'array' || origin === 'set') return `must have at ${end} ${n} entries`;
  if (inclusive) return `must be at ${end} ${n}`;
  return `must be ${end === 'least' ? 'greater' : 'less'} than ${n}`;
}

/** ", not `abc`" for a short scalar the user wrote; nothing for an empty, long or structured one. */
function shown(input: unknown): string {
  if (typeof input !== 'string' && typeof input !== 'number' && typeof input !== 'boolean') return '';
  const text = String(input);
  return text.trim() === '' || text.length > 80 ? '' : `, not ${code(text)}`;
}

/** The parts of a zod definition the key walk reads. */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  innerType?: z.core.$ZodType;
  in?: z.core.$ZodType;
  element?: z.core.$ZodType;
  valueType?: z.core.$ZodType;
  options?: readonly z.core.$ZodType[];
}

/** The keys an object schema accepts at `path`, through optionals, pipes, lists, records and unions. */
export function keysAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const def = schema._zod.def as Def;
  const [head, ...rest] = path;
  const inner = def.innerType ?? def.in;
  if (inner) return keysAt(inner, path);
  if (def.type === 'union') return [...new Set((def.options ?? []).flatMap((o) => keysAt(o, path)))];
  if (def.type === 'object' && def.shape) {
    if (head === undefined) return Object.keys(def.shape);
    const next = def.shape[String(head)];
    return next ? keysAt(next, rest) : [];
  }
  const items = def.element ?? def.valueType;
  return head !== undefined && items ? keysAt(items, rest) : [];
}
