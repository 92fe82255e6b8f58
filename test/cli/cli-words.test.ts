import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { httpError, loginPage, refusingUrl } from '../fakes/scripted-model.js';
import { createRepo, type CliRun, type Repo } from './cli-repo.js';

/**
 * The CLI speaks of what someone at a terminal can set: its flags and PLANGATE_* variables, never
 * the action's inputs; it says which version it is; and an endpoint that answers a web page instead
 * of JSON is named as such, with where the base URL should point.
 */

let current: Repo | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** An action input's name as the action's messages write it: in backticks, or the word "input". */
const actionWords =
  /`(planner-|executor-)?(api-key|base-url|model)`|model-retries|model-timeout(?! )|\binput\b|Re-run the job|runner/;

/** The one line the CLI printed for its failure. */
const failureLine = (run: CliRun) => run.stderr.split('\n').find((line) => line.startsWith('plangate: ')) ?? '';

describe('plangate --version', () => {
  it('prints the version of package.json and exits 0 in a checkout of another project, and help lists it', async () => {
    current = await createRepo({});
    for (const flag of ['--version', '-V']) {
      const result = await current.cli([flag]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`plangate ${manifest.version}\n`);
      expect(result.stderr).toBe('');
    }
    expect((await current.cli(['--help'])).stdout).toContain('plangate --version');
    expect(current.model.requests).toHaveLength(0);
  });
});

describe('model failures in the CLI', () => {
  it('a rejected key names PLANGATE_API_KEY', async () => {
    current = await createRepo({ planner: [httpError(401)] });
    const result = await current.cli(['plan', 'Add a farewell function'], {
      env: { PLANGATE_API_KEY: 'sk-cli-wrong-key-0123456789abcdefXYZ' },
    });
    expect(result.code).toBe(1);
    const line = failureLine(result);
    expect(line).toContain('rejected the API key (HTTP 401). Check PLANGATE_API_KEY: it must be a valid key');
    expect(line).not.toMatch(actionWords);
  });

  it('an unknown model names --planner-model, --model and --base-url', async () => {
    current = await createRepo({ planner: [httpError(404, {}, 'The model `planner` does not exist.')] });
    const result = await current.cli(['plan', 'Add a farewell function']);
    expect(result.code).toBe(1);
    const line = failureLine(result);
    expect(line).toContain(
      'Check that --planner-model (or --model, PLANGATE_PLANNER_MODEL) names a model this endpoint serves and that --base-url (or PLANGATE_BASE_URL) ends where the API starts',
    );
    expect(line).not.toMatch(actionWords);
  });

  it('a refused connection names --base-url and PLANGATE_BASE_URL', async () => {
    current = await createRepo({});
    const url = await refusingUrl();
    const result = await current.cli(['plan', '--model-retries', '0', 'Add a farewell function'], {
      env: { PLANGATE_BASE_URL: url },
    });
    expect(result.code).toBe(1);
    const line = failureLine(result);
    expect(line).toContain(
      'Check --base-url (or PLANGATE_BASE_URL): nothing accepts connections at that host and port.',
    );
    expect(line).not.toMatch(actionWords);
  });

  it('an endpoint answering a web page is named as not answering JSON, with what it said and where /v1 goes', async () => {
    current = await createRepo({ planner: [loginPage()] });
    const result = await current.cli(['plan', 'Add a farewell function']);
    expect(result.code).toBe(1);
    const line = failureLine(result);
    expect(line).toMatch(
      /^plangate: The planner model "planner" at 127\.0\.0\.1:\d+\/v1\/chat\/completions did not answer JSON: HTTP 200, text\/html, starting `Sign in · Example Corp proxy Sign in to continue/,
    );
    expect(line).toContain('Check that --base-url (or PLANGATE_BASE_URL) is the API');
    expect(line).toContain('ends in /v1');
    // The page's markup, scripts and styles are not repeated; nothing was tried again.
    expect(line).not.toMatch(/[<>]|loginRequired|font-family|malformed|Invalid input|expected object/);
    expect(line).not.toMatch(actionWords);
    expect(current.model.requests).toHaveLength(1);
  });
});
