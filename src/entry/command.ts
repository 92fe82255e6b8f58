import { z } from 'zod';
import {
  commentIgnoreReason,
  notCommandReason,
  parseCommentCommand,
  type ParsedCommentCommand,
} from '../text/comment-command.js';
import type { Command, CommandSource } from '../run/command.js';

export type { Command, CommandSource, MaintenanceTrigger, Thread } from '../run/command.js';

// Re-exported: callers read commands from here; comment-command.ts holds them dependency-free for the entry point.
export { isBot, parseCommentCommand } from '../text/comment-command.js';

/**
 * Turns a webhook event into what the user asked for. Pure: the payload and the comment text in,
 * a Command out. Everything that is not a well-formed command from a human is an `ignore` with the
 * reason, so the caller can log why nothing happened.
 */

export const userSchema = z.object({ login: z.string(), type: z.string().optional() });

const issueCommentEventSchema = z.object({
  action: z.string(),
  issue: z.object({
    number: z.number().int().positive(),
    title: z.string(),
    body: z.string().nullable().optional(),
    pull_request: z.object({}).passthrough().nullable().optional(),
  }),
  comment: z.object({
    id: z.number().int(),
    body: z.string().nullable().optional(),
    user: userSchema,
    html_url: z.string().optional(),
  }),
  sender: userSchema.optional(),
});

export type IssueCommentEvent = z.infer<typeof issueCommentEventSchema>;

const scheduleEventSchema = z.object({ schedule: z.string().optional() });
const dispatchEventSchema = z.object({
  inputs: z.record(z.string(), z.unknown()).nullable().optional(),
  sender: userSchema,
});

/** Decides what a `schedule` or `workflow_dispatch` event asks for. */
export function commandFromMaintenanceEvent(eventName: string, payload: unknown): Command {
  if (eventName === 'schedule') {
    const parsed = scheduleEventSchema.safeParse(payload);
    return {
      kind: 'maintain',
      trigger: { type: 'schedule', cron: parsed.success ? (parsed.data.schedule ?? '') : '' },
    };
  }
  const parsed = dispatchEventSchema.safeParse(payload);
  if (!parsed.success) return { kind: 'ignore', reason: 'the workflow_dispatch payload names no sender' };
  const text = (name: string) => {
    const value = parsed.data.inputs?.[name];
    return typeof value === 'string' && value.trim() ? value.trim() : undefined;
  };
  const task = text('task');
  const objective = text('objective');
  return {
    kind: 'maintain',
    trigger: {
      type: 'dispatch',
      actor: parsed.data.sender.login,
      ...(task ? { task } : {}),
      ...(objective ? { objective } : {}),
    },
  };
}

/**
 * Decides what an `issue_comment` event asks for. Only newly created comments count: an edited
 * comment is never replayed as a command.
 */
export function commandFromIssueComment(
  payload: unknown,
  botLogin: string,
  allowedBots: readonly string[] = [],
  prefix = '',
): Command {
  const parsed = issueCommentEventSchema.safeParse(payload);
  if (!parsed.success) return { kind: 'ignore', reason: 'the event payload is not an issue comment' };
  const event = parsed.data;
  const author = event.comment.user;
  // The same decision the entry point makes before loading the action (entry/triage.ts).
  const ignored = commentIgnoreReason(
    { action: event.action, author, body: event.comment.body ?? '' },
    botLogin,
    allowedBots,
    prefix,
  );
  if (ignored !== undefined) return { kind: 'ignore', reason: ignored };
  const parsedCommand = parseCommentCommand(event.comment.body ?? '', prefix);
  if (!parsedCommand) return { kind: 'ignore', reason: notCommandReason(event.comment.body ?? '', prefix) };
  const source: CommandSource = {
    thread: {
      number: event.issue.number,
      isPullRequest: event.issue.pull_request != null,
      title: event.issue.title,
      body: event.issue.body ?? '',
    },
    commentId: event.comment.id,
    commentUrl: event.comment.html_url ?? '',
    author: author.login,
    body: event.comment.body ?? '',
    ...(prefix ? { prefix } : {}),
  };
  return commandOf(parsedCommand, source);
}

/** The command a parsed first line asks for, from the comment it was written in. */
export function commandOf(parsedCommand: ParsedCommentCommand, source: CommandSource): Command {
  if (parsedCommand.name === 'approve') {
    // A malformed id is kept as given so the refusal can quote it.
    return {
      kind: 'approve',
      planId: parsedCommand.planId ?? parsedCommand.invalidId,
      ...(parsedCommand.overBudget ? { overBudget: true } : {}),
      ...source,
    };
  }
  switch (parsedCommand.name) {
    case 'status':
    case 'cancel':
    case 'help':
      return { kind: parsedCommand.name, ...source };
    case 'unknown':
      return {
        kind: 'help',
        unknown: parsedCommand.command,
        ...(parsedCommand.meant ? { meant: parsedCommand.meant } : {}),
        ...source,
      };
    case 'unknown-option':
      return {
        kind: 'help',
        unknownOption: { command: parsedCommand.command, option: parsedCommand.option },
        ...source,
      };
  }
  const { rest } = parsedCommand;
  switch (parsedCommand.name) {
    case 'plan':
      return { kind: 'plan', objective: rest, ...source };
    case 'revise':
      return { kind: 'revise', feedback: rest, ...source };
    case 'answer':
      return { kind: 'answer', text: rest, ...source };
  }
}
