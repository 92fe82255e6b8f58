import { readFileSync } from 'node:fs';
import { commandFromIssueComment, commandFromMaintenanceEvent, type Command } from './command.js';
import { commandFromReviewEvent } from './review-command.js';
import { failureMessage } from '../github/errors.js';
import type { ActionInputs } from '../config/settings.js';
import { eventIgnoreReason } from '../text/comment-command.js';
import type { ParsedEvent } from './triage.js';

/** Reads the event file; a parameter so tests hand in a payload without a file. */
export type ReadEventFile = (path: string) => string;

const readUtf8: ReadEventFile = (file) => readFileSync(file, 'utf8');

/**
 * The command the event carries, and the payload it came in (absent for events plangate does not
 * read), parsed once: everything after this works from the Command. `parsed` is the event file as
 * triage already parsed it, if it did; the file is read only when it did not.
 */
export function readCommand(
  inputs: Pick<ActionInputs, 'runner' | 'botLogin' | 'allowedBots'> & Partial<Pick<ActionInputs, 'commandPrefix'>>,
  parsed?: ParsedEvent,
  readEventFile: ReadEventFile = readUtf8,
): { command: Command; payload?: unknown } {
  const { eventName, eventPath } = inputs.runner;
  const notCarried = eventIgnoreReason(eventName);
  if (notCarried !== undefined) return { command: { kind: 'ignore', reason: notCarried } };
  let payload: unknown;
  try {
    payload = parsed?.path === eventPath ? parsed.payload : JSON.parse(readEventFile(eventPath));
  } catch (error) {
    throw new Error(`Cannot read the event payload at ${eventPath}: ${failureMessage(error)}`, { cause: error });
  }
  const command =
    eventName === 'issue_comment'
      ? commandFromIssueComment(payload, inputs.botLogin, inputs.allowedBots, inputs.commandPrefix ?? '')
      : eventName === 'pull_request_review_comment' || eventName === 'pull_request_review'
        ? commandFromReviewEvent(eventName, payload, inputs.botLogin, inputs.allowedBots, inputs.commandPrefix ?? '')
        : commandFromMaintenanceEvent(eventName, payload);
  return { command, payload };
}
