import type { CommandName } from '../text/comment-command.js';

/**
 * What a user asked for, as the engine takes it: the command, the thread and comment it came from.
 * entry/command.ts makes these from webhook events; everything below the entry point works from them.
 */

/** The thread a command was given in: an issue or a pull request (GitHub numbers both as issues). */
export interface Thread {
  number: number;
  isPullRequest: boolean;
  title: string;
  body: string;
}

/**
 * Where a command written on a pull request's review came from: a review comment (on a line of the
 * diff) or a review's body. Absent for a comment on the thread itself. Replies still go to the
 * thread; only reactions and the edit check reach the command where it was written.
 */
export interface CommandOrigin {
  kind: 'review-comment' | 'review';
  /** When it was written, as GitHub stored it: what an approval is ordered by against plans. */
  createdAt: string;
}

export interface CommandSource {
  thread: Thread;
  /** The comment's id; a review comment's or a review's id when `origin` says so. */
  commentId: number;
  origin?: CommandOrigin;
  commentUrl: string;
  author: string;
  /** The comment text as created: a later edit of the comment is never read as a command. */
  body: string;
  /** The `command-prefix` the command was written with (`/plangate`); absent for none. Replies spell commands with it. */
  prefix?: string;
}

export type Command =
  | ({ kind: 'plan'; objective: string } & CommandSource)
  /** `overBudget`: `/approve --over-budget`, which lets a maintainer approve past `max-estimated-cost-usd`. */
  | ({ kind: 'approve'; planId?: string; overBudget?: boolean } & CommandSource)
  | ({ kind: 'revise'; feedback: string } & CommandSource)
  | ({ kind: 'answer'; text: string } & CommandSource)
  | ({ kind: 'status' } & CommandSource)
  | ({ kind: 'cancel' } & CommandSource)
  /**
   * `/help`; or a word addressed to plangate that is none of its commands: `unknown` names it and
   * `meant` the command it is one slip from (`/aprove`), answered only to those who may command
   * plangate; or `unknownOption`, a known command given an option it does not take.
   */
  | ({
      kind: 'help';
      unknown?: string;
      meant?: CommandName;
      unknownOption?: { command: CommandName; option: string };
    } & CommandSource)
  | { kind: 'maintain'; trigger: MaintenanceTrigger }
  | { kind: 'ignore'; reason: string };

/**
 * What starts maintenance: a schedule (the cron that fired), or a person dispatching the workflow
 * for one named task or an ad-hoc objective. The actor's login is only a name to look up: their
 * permission is read from the API, never taken from the payload.
 */
export type MaintenanceTrigger =
  { type: 'schedule'; cron: string } | { type: 'dispatch'; actor: string; task?: string; objective?: string };
