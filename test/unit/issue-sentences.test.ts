import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inFile, inputPlace, issueSentences, keysAt, named, pathText } from '../../src/config/issue-sentences.js';
import { parseRepoConfig, repoConfigSchema } from '../../src/config/repo-config.js';
import { httpUrlSchema, wholeNumber } from '../../src/config/input-schemas.js';
import { runPolicySchema } from '../../src/config/run-policy.js';
import { didYouMean, editDistance } from '../../src/text/did-you-mean.js';

const file = '.github/plangate.yml';

/** The message parseRepoConfig throws for `text`. */
function configError(text: string): string {
  try {
    parseRepoConfig(text, file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the config to be refused');
}

/** The sentences for `raw` read with `schema` as the input `name`. */
function inputError(name: string, schema: z.ZodType, raw: string): string {
  const parsed = schema.safeParse(raw, { reportInput: true });
  if (parsed.success) throw new Error('expected the input to be refused');
  return issueSentences(parsed.error.issues, inputPlace(name), schema);
}

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['price', 'prices', 1],
    ['objectve', 'objective', 1],
    ['kitten', 'sitting', 3],
    ['abc', '', 3],
    ['', 'abc', 3],
    ['flaw', 'lawn', 2],
  ])('%j to %j is %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe('didYouMean', () => {
  it('suggests the closest name', () => {
    expect(didYouMean('price', ['tasks', 'prices', 'mcp-servers'])).toBe('prices');
    expect(didYouMean('mcp-server', ['tasks', 'prices', 'mcp-servers'])).toBe('mcp-servers');
  });

  it('forgives case and underscores', () => {
    expect(didYouMean('plan_for_approval', ['plan-for-approval', 'plan-first', 'plan-only'])).toBe('plan-for-approval');
    expect(didYouMean('Tasks', ['tasks', 'prices'])).toBe('tasks');
  });

  it('suggests nothing for a word unlike every name', () => {
    expect(didYouMean('yolo', ['plan-for-approval', 'plan-first', 'plan-only', 'executor-only'])).toBeUndefined();
    expect(didYouMean('x', ['tasks'])).toBeUndefined();
    expect(didYouMean('anything', [])).toBeUndefined();
  });

  it('never suggests the name itself', () => {
    expect(didYouMean('tasks', ['tasks'])).toBeUndefined();
  });
});

describe('issueSentences for the config file', () => {
  it('names an unknown top-level key and the key it likely meant', () => {
    expect(configError('price:\n  gpt-x: { input: 1, output: 2 }\n')).toBe(
      'Unknown key `price` in .github/plangate.yml; did you mean `prices`?',
    );
  });

  it('names an unknown key without a guess when nothing is close', () => {
    expect(configError('colour: blue\n')).toBe('Unknown key `colour` in .github/plangate.yml.');
  });

  it('names where a nested unknown key is, and says the misspelling once', () => {
    expect(configError('tasks:\n  - name: deps\n    objectve: Update things.\n')).toBe(
      'Unknown key `objectve` in `tasks[0]` of .github/plangate.yml; did you mean `objective`?',
    );
  });

  it('lists the values an enum accepts and guesses the one meant', () => {
    expect(configError('tasks:\n  - name: deps\n    objective: x\n    policy: plan_for_approval\n')).toBe(
      '`tasks[0].policy` in .github/plangate.yml must be one of plan-for-approval, plan-first, plan-only, executor-only; did you mean `plan-for-approval`?',
    );
    expect(configError('tasks:\n  - name: deps\n    objective: x\n    policy: yolo\n')).toBe(
      '`tasks[0].policy` in .github/plangate.yml must be one of plan-for-approval, plan-first, plan-only, executor-only, not `yolo`.',
    );
  });

  it('says what type a value must be, and what it was', () => {
    expect(configError('plan-max-age-days: abc\n')).toBe(
      '`plan-max-age-days` in .github/plangate.yml must be a number, not `abc`.',
    );
    expect(configError('plan-max-age-days: 0\n')).toBe(
      '`plan-max-age-days` in .github/plangate.yml must be greater than 0, not `0`.',
    );
    expect(configError('tasks: 3\n')).toBe('`tasks` in .github/plangate.yml must be a list, not `3`.');
  });

  it('says a required key is missing', () => {
    expect(configError('tasks:\n  - name: deps\n')).toBe('`tasks[0].objective` in .github/plangate.yml is required.');
  });

  it('suggests keys inside records and unions', () => {
    expect(configError('prices:\n  gpt-x:\n    input: 1\n    outptu: 2\n')).toBe(
      'Unknown key `outptu` in `prices.gpt-x` of .github/plangate.yml; did you mean `output`?',
    );
    expect(configError('mcp-servers:\n  docs:\n    comand: serve\n')).toBe(
      '`mcp-servers.docs` in .github/plangate.yml is not a valid server: unknown key `comand` in the entry; did you mean `command`?',
    );
  });

  it('says what an MCP URL must look like', () => {
    expect(configError('mcp-servers:\n  docs:\n    url: localhost:8080\n')).toBe(
      '`mcp-servers.docs.url` in .github/plangate.yml must be an http(s) URL such as https://mcp.example.com/mcp, not `localhost:8080`.',
    );
  });

  it('shows what the file holds only as inline code, so nothing in it becomes Markdown or HTML', () => {
    const message = configError('"<!-- x --> [a](https://e.example) @mona `": 1\n');
    expect(message).toMatch(/^Unknown key `` <!\u200b-- x --> \[a\]\(https:\/\/e\.example\) @mona ` `` in /);
    expect(message).not.toContain('<!--');
  });

  it('quotes only the first line of a YAML error, not the file', () => {
    const message = configError('tasks: [\n  secret-looking line\n');
    expect(message).toMatch(/^\.github\/plangate\.yml is not valid YAML: /);
    expect(message).not.toContain('secret-looking');
  });
});

describe('issueSentences for inputs and flags', () => {
  it('names the input and the value it refused', () => {
    expect(inputError('max-iterations', wholeNumber(1, 100), 'abc')).toBe(
      'The `max-iterations` input must be a whole number from 1 to 100, not `abc`.',
    );
    expect(inputError('max-iterations', wholeNumber(1, 100), '500')).toBe(
      'The `max-iterations` input must be a whole number from 1 to 100, not `500`.',
    );
    expect(inputError('base-url', httpUrlSchema, 'api.openai.com/v1')).toBe(
      'The `base-url` input must be an http(s) URL such as https://api.openai.com/v1, not `api.openai.com/v1`.',
    );
    expect(inputError('policy', runPolicySchema, 'plan_for_approval')).toBe(
      'The `policy` input must be one of plan-for-approval, plan-first, plan-only, executor-only; did you mean `plan-for-approval`?',
    );
  });

  it('names a flag the same way', () => {
    const parsed = wholeNumber(1, 100).safeParse('0', { reportInput: true });
    expect(parsed.success).toBe(false);
    if (!parsed.success)
      expect(issueSentences(parsed.error.issues, named('--max-iterations'))).toBe(
        '--max-iterations must be a whole number from 1 to 100, not `0`.',
      );
  });

  it('joins several issues as sentences', () => {
    const schema = z.object({ a: z.string(), b: z.number() }).strict();
    const parsed = schema.safeParse({ b: 'x', c: 1 }, { reportInput: true });
    if (parsed.success) throw new Error('expected issues');
    expect(issueSentences(parsed.error.issues, inFile('f.yml'), schema)).toBe(
      '`a` in f.yml is required. `b` in f.yml must be a number, not `x`. Unknown key `c` in f.yml.',
    );
  });
});

describe('keysAt and pathText', () => {
  it('finds the keys an object accepts through lists, records, optionals and transforms', () => {
    expect(keysAt(repoConfigSchema, [])).toEqual(['tasks', 'plan-max-age-days', 'prices', 'mcp-servers']);
    expect(keysAt(repoConfigSchema, ['tasks', 0])).toContain('objective');
    expect(keysAt(repoConfigSchema, ['prices', 'any-model'])).toEqual(['input', 'cached-input', 'output']);
    expect(keysAt(repoConfigSchema, ['mcp-servers', 'docs'])).toEqual(expect.arrayContaining(['command', 'url']));
    expect(keysAt(repoConfigSchema, ['nothing'])).toEqual([]);
  });

  it('writes paths as YAML users read them', () => {
    expect(pathText(['tasks', 0, 'policy'])).toBe('tasks[0].policy');
    expect(pathText([])).toBe('');
  });
});
