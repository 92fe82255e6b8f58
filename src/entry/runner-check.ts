import { readFileSync } from 'node:fs';
import { eventIgnoreReason } from '../text/comment-command.js';
import { errorMessage } from '../text/error-message.js';

/**
 * The entry's check of the runner environment and the event file, made before the engine loads, so
 * that a job that cannot run fails in the time node takes to start instead of after loading
 * megabytes of dependencies. Imports no dependency. It words each problem exactly as the full
 * readers do (config/runner-environment.ts with zod, entry/read-command.ts; a unit test holds them
 * equal), so a failure reads the same whichever of them finds it.
 */

type Rule = (value: string | undefined) => string | undefined;

/** zod's words for the checks config/runner-environment.ts's schema makes. */
const missing = 'Invalid input: expected string, received undefined';
const required: Rule = (v) =>
  v === undefined ? missing : v === '' ? 'Too small: expected string to have >=1 characters' : undefined;
const matching =
  (pattern: RegExp, words: string): Rule =>
  (v) =>
    v === undefined ? missing : pattern.test(v) ? undefined : words;
/** An absent URL takes its default; a plain z.url() asks exactly URL.canParse of the trimmed value. */
const url: Rule = (v) => (v === undefined || URL.canParse(v.trim()) ? undefined : 'Invalid URL');
const optionalMatching =
  (pattern: RegExp, words: string): Rule =>
  (v) =>
    v === undefined || pattern.test(v) ? undefined : words;

/** In the schema's order, which is the order zod lists its issues in. */
const rules: ReadonlyArray<readonly [string, Rule]> = [
  ['GITHUB_EVENT_NAME', required],
  ['GITHUB_EVENT_PATH', required],
  ['GITHUB_REPOSITORY', matching(/^[^/\s]+\/[^/\s]+$/, 'must be owner/name')],
  ['GITHUB_WORKSPACE', required],
  ['GITHUB_API_URL', url],
  ['GITHUB_SERVER_URL', url],
  ['GITHUB_REPOSITORY_ID', optionalMatching(/^\d*$/, 'must be a number')],
];

/** The message readRunner fails with for `env`; undefined when the environment reads. */
export function runnerProblem(env: NodeJS.ProcessEnv): string | undefined {
  const issues: string[] = [];
  for (const [name, rule] of rules) {
    const verdict = rule(env[name]);
    if (verdict !== undefined) issues.push(`${name}: ${verdict}`);
  }
  if (issues.length === 0) return undefined;
  return `The runner environment is incomplete (${issues.join('; ')}). plangate must run inside a GitHub Actions job.`;
}

/**
 * The message readCommand fails with when the event it would read is no JSON (or no file); undefined
 * when it parses, or the event is one plangate does not read. Call after runnerProblem found none.
 */
export function payloadProblem(env: NodeJS.ProcessEnv, read: (file: string) => string = readUtf8): string | undefined {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  const eventPath = env.GITHUB_EVENT_PATH ?? '';
  if (eventIgnoreReason(eventName) !== undefined) return undefined;
  try {
    JSON.parse(read(eventPath));
    return undefined;
  } catch (error) {
    return `Cannot read the event payload at ${eventPath}: ${errorMessage(error)}`;
  }
}

const readUtf8 = (file: string) => readFileSync(file, 'utf8');
