import { readFileSync } from 'node:fs';
import {
  COMMENT_EVENTS,
  commentIgnoreReason,
  commandPrefixPattern,
  commentOfEvent,
  eventIgnoreReason,
  type CommentFacts,
} from '../text/comment-command.js';

/**
 * The cheap first look at an event: most runs of a plangate workflow are comments that are no
 * command, and deciding that must not cost loading Octokit, openai, zod and the rest. Imports only
 * node:fs and comment-command.ts. src/index.ts asks it before loading the action; main.ts asks it
 * first too, so the two can never decide differently. It only ever says "ignore" when main.ts's full
 * parse would ignore the event as well; anything it is unsure of (an unreadable or oddly shaped
 * payload, a schedule) is left `undecided` for main.ts.
 */
export type Triage = { kind: 'ignore'; reason: string } | { kind: 'undecided'; event?: ParsedEvent };

/** The event file as triage read and parsed it, handed on so main.ts does not read it again. */
export interface ParsedEvent {
  path: string;
  payload: unknown;
}

/** Reads the event file; a parameter so tests can hand in a payload without a file. */
export type ReadEventFile = (path: string) => string;

const readUtf8: ReadEventFile = (file) => readFileSync(file, 'utf8');

/**
 * The inputs the ignore decision depends on, read as settings.ts reads them (core.getInput trims;
 * `lines` drops blank and `#` lines), because @actions/core costs more to load than the whole
 * ignored run should take. A unit test holds the two readings equal. `commandPrefix` is undefined
 * when the input is not a valid prefix: gate-inputs.ts says why, so nothing is ignored on its strength.
 */
export function commandInputs(env: NodeJS.ProcessEnv): {
  botLogin: string;
  allowedBots: string[];
  commandPrefix: string | undefined;
} {
  const untrimmed = (name: string) => env[`INPUT_${name.toUpperCase()}`] ?? '';
  const raw = (name: string) => untrimmed(name).trim();
  const prefix = untrimmed('command-prefix');
  return {
    commandPrefix: prefix === '' ? '' : commandPrefixPattern.test(prefix.trim()) ? prefix.trim() : undefined,
    botLogin: raw('bot-login') || 'github-actions[bot]',
    allowedBots: raw('allowed-bots')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields commentIgnoreReason needs, when the payload has them with the types commands.ts accepts. */
function commentFacts(eventName: string, payload: unknown): CommentFacts | undefined {
  const { field, created } = commentOfEvent(eventName);
  if (!isRecord(payload) || typeof payload.action !== 'string') return undefined;
  const comment = payload[field];
  if (!isRecord(comment)) return undefined;
  const { user, body } = comment;
  if (!isRecord(user) || typeof user.login !== 'string') return undefined;
  if (user.type !== undefined && typeof user.type !== 'string') return undefined;
  if (body !== undefined && body !== null && typeof body !== 'string') return undefined;
  const action = payload.action === created ? 'created' : payload.action;
  return { action, author: { login: user.login, type: user.type }, body: body ?? '' };
}

/** Decides from the runner's environment and the event file whether the event is certainly ignored. */
export function triageEvent(env: NodeJS.ProcessEnv = process.env, readEventFile: ReadEventFile = readUtf8): Triage {
  const eventName = env.GITHUB_EVENT_NAME ?? '';
  // No event name is a broken runner environment: main.ts's settings say so.
  if (eventName === '') return { kind: 'undecided' };
  const notCarried = eventIgnoreReason(eventName);
  if (notCarried !== undefined) return { kind: 'ignore', reason: notCarried };
  if (!COMMENT_EVENTS.includes(eventName) || !env.GITHUB_EVENT_PATH) return { kind: 'undecided' };
  let payload: unknown;
  try {
    payload = JSON.parse(readEventFile(env.GITHUB_EVENT_PATH));
  } catch {
    // main.ts reports an unreadable payload as the failure it is.
    return { kind: 'undecided' };
  }
  const event = { path: env.GITHUB_EVENT_PATH, payload };
  const facts = commentFacts(eventName, payload);
  if (!facts) return { kind: 'undecided', event };
  const { botLogin, allowedBots, commandPrefix } = commandInputs(env);
  if (commandPrefix === undefined) return { kind: 'undecided', event };
  const reason = commentIgnoreReason(facts, botLogin, allowedBots, commandPrefix);
  return reason === undefined ? { kind: 'undecided', event } : { kind: 'ignore', reason };
}
