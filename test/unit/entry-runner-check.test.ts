import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readRunner } from '../../src/config/runner-environment.js';
import { reportEarlyFailure } from '../../src/entry/early-failure.js';
import { readCommand } from '../../src/entry/read-command.js';
import { payloadProblem, runnerProblem } from '../../src/entry/runner-check.js';

/**
 * The entry's first check of the runner environment and the event file, made without zod or
 * @actions/core, must fail exactly where the full readers fail and with their words.
 */

const complete: NodeJS.ProcessEnv = {
  GITHUB_EVENT_NAME: 'issue_comment',
  GITHUB_EVENT_PATH: '/tmp/event.json',
  GITHUB_REPOSITORY: 'octo/widgets',
  GITHUB_WORKSPACE: '/tmp/workspace',
  GITHUB_API_URL: 'https://api.github.com',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_RUN_ID: '42',
  GITHUB_REPOSITORY_ID: '700123456',
};

const without = (...names: string[]) =>
  Object.fromEntries(Object.entries(complete).filter(([name]) => !names.includes(name))) as NodeJS.ProcessEnv;

/** What readRunner throws for `env`, or undefined when it reads it. */
function fullReaderSays(env: NodeJS.ProcessEnv): string | undefined {
  try {
    readRunner(env);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

const environments: Array<[string, NodeJS.ProcessEnv]> = [
  ['complete', complete],
  ['only the required ones', without('GITHUB_API_URL', 'GITHUB_SERVER_URL', 'GITHUB_RUN_ID', 'GITHUB_REPOSITORY_ID')],
  ['no event path', without('GITHUB_EVENT_PATH')],
  ['no repository', without('GITHUB_REPOSITORY')],
  ['nothing at all', {}],
  ['empty values', { ...complete, GITHUB_EVENT_NAME: '', GITHUB_WORKSPACE: '', GITHUB_REPOSITORY: '' }],
  ['a repository without owner', { ...complete, GITHUB_REPOSITORY: 'widgets' }],
  ['a repository with a space', { ...complete, GITHUB_REPOSITORY: 'octo/wid gets' }],
  ['URLs that do not parse', { ...complete, GITHUB_API_URL: 'api.github.com', GITHUB_SERVER_URL: '' }],
  ['a URL with spaces around it', { ...complete, GITHUB_API_URL: '  https://ghe.example/api/v3 ' }],
  ['a repository id that is no number', { ...complete, GITHUB_REPOSITORY_ID: 'R_kgDO' }],
  ['an empty repository id', { ...complete, GITHUB_REPOSITORY_ID: '' }],
];

describe('runnerProblem', () => {
  it.for(environments)('says what readRunner says: %s', ([, env]) => {
    expect(runnerProblem(env)).toBe(fullReaderSays(env));
  });

  it('names every broken variable, as a user reads it today', () => {
    expect(runnerProblem(without('GITHUB_EVENT_PATH', 'GITHUB_REPOSITORY'))).toBe(
      'The runner environment is incomplete (GITHUB_EVENT_PATH: Invalid input: expected string, received undefined; ' +
        'GITHUB_REPOSITORY: Invalid input: expected string, received undefined). plangate must run inside a GitHub Actions job.',
    );
  });
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'plangate-runner-check-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** What readCommand throws for the event file, or undefined when it reads it. */
function readCommandSays(env: NodeJS.ProcessEnv): string | undefined {
  try {
    readCommand({ runner: readRunner(env), botLogin: 'github-actions[bot]', allowedBots: [] });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('payloadProblem', () => {
  it('says what readCommand says of a file that is no JSON, a missing file and a good one', () => {
    const files = { bad: 'not json\n', good: JSON.stringify({ schedule: '0 6 * * 1' }) };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, `${name}.json`), text);
    for (const file of ['bad.json', 'missing.json', 'good.json']) {
      const env = { ...complete, GITHUB_EVENT_NAME: 'schedule', GITHUB_EVENT_PATH: path.join(dir, file) };
      expect(payloadProblem(env), file).toBe(readCommandSays(env));
    }
    expect(payloadProblem({ ...complete, GITHUB_EVENT_PATH: path.join(dir, 'bad.json') })).toMatch(
      /^Cannot read the event payload at .*bad\.json: .*is not valid JSON/s,
    );
  });

  it('reads no file for an event plangate does not carry', () => {
    const unread = () => {
      throw new Error('the event file was read');
    };
    expect(payloadProblem({ ...complete, GITHUB_EVENT_NAME: 'push' }, unread)).toBeUndefined();
  });
});

describe('reportEarlyFailure', () => {
  it('masks the secret inputs, sets outcome, fails the step and writes the summary', () => {
    const output = path.join(dir, 'output');
    const summary = path.join(dir, 'summary.md');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const env = {
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      'INPUT_API-KEY': ' canary-early-failure-input ',
      'INPUT_GITHUB-TOKEN': '',
    };
    let printed = '';
    const before = process.exitCode;
    try {
      const message = 'Cannot read the event payload at event.json: canary-early-failure-input <b>\n50%';
      expect(reportEarlyFailure({ message, redactInputs: true }, env, (text) => (printed += text))).toBe(true);
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = before;
    }
    expect(printed).toBe(
      '::add-mask::canary-early-failure-input\n::error::Cannot read the event payload at event.json: *** <b>%0A50%25\n',
    );
    expect(readFileSync(output, 'utf8')).toBe('outcome=failed\n');
    expect(readFileSync(summary, 'utf8')).toBe(
      '### plangate could not run\n\nCannot read the event payload at event.json: *** &lt;b&gt;\n50%\n\n',
    );
  });

  it('leaves the report to main.ts when the output or summary file is missing', () => {
    const output = path.join(dir, 'output');
    const write = () => {
      throw new Error('printed');
    };
    const problem = { message: 'broken', redactInputs: false };
    expect(reportEarlyFailure(problem, {}, write)).toBe(false);
    expect(reportEarlyFailure(problem, { GITHUB_OUTPUT: output }, write)).toBe(false);
    writeFileSync(output, '');
    const missingSummary = { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: path.join(dir, 'nope.md') };
    expect(reportEarlyFailure(problem, missingSummary, write)).toBe(false);
    expect(readFileSync(output, 'utf8')).toBe('');
  });
});
