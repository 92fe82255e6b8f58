import { z } from 'zod';

/**
 * Turns a webhook event into what the user asked for. Pure: the payload and the comment text in,
 * a Command out. Everything that is not a well-formed command from a human is an `ignore` with the
 * reason, so the caller can log why nothing happened.
 */

const userSchema = z.object({ login: z.string(), type: z.string().optional() });

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

/** The thread a command was given in: an issue or a pull request (GitHub numbers both as issues). */
export interface Thread {
  number: number;
  isPullRequest: boolean;
  title: string;
  body: string;
}

export interface CommandSource {
  thread: Thread;
  commentId: number;
  commentUrl: string;
  author: string;
  /** The comment text as created: a later edit of the comment is never read as a command. */
  body: string;
}

export type Command =
  | ({ kind: 'plan'; objective: string } & CommandSource)
  | ({ kind: 'approve'; planId?: string } & CommandSource)
  | ({ kind: 'revise'; feedback: string } & CommandSource)
  | ({ kind: 'answer'; text: string } & CommandSource)
  | ({ kind: 'status' } & CommandSource)
  | ({ kind: 'cancel' } & CommandSource)
  /** `/help`, or any other `/word` a maintainer guessed: `unknown` names it so the reply can say so. */
  | ({ kind: 'help'; unknown?: string } & CommandSource)
  | { kind: 'maintain'; trigger: MaintenanceTrigger }
  | { kind: 'ignore'; reason: string };

/**
 * What starts maintenance: a schedule (the cron that fired), or a person dispatching the workflow
 * for one named task or an ad-hoc objective. The actor's login is only a name to look up: their
 * permission is read from the API, never taken from the payload.
 */
export type MaintenanceTrigger =
  | { type: 'schedule'; cron: string }
  | { type: 'dispatch'; actor: string; task?: string; objective?: string };

const scheduleEventSchema = z.object({ schedule: z.string().optional() });
const dispatchEventSchema = z.object({
  inputs: z.record(z.string(), z.unknown()).nullable().optional(),
  sender: userSchema,
});

/** Decides what a `schedule` or `workflow_dispatch` event asks for. */
export function commandFromMaintenanceEvent(eventName: string, payload: unknown): Command {
  if (eventName === 'schedule') {
    const parsed = scheduleEventSchema.safeParse(payload);
    return { kind: 'maintain', trigger: { type: 'schedule', cron: parsed.success ? (parsed.data.schedule ?? '') : '' } };
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
    trigger: { type: 'dispatch', actor: parsed.data.sender.login, ...(task ? { task } : {}), ...(objective ? { objective } : {}) },
  };
}

const planIdPattern = /^[0-9a-f]{6,40}$/;

/** True for GitHub Apps and bot accounts: their comments never command plangate unless allowed later. */
export function isBot(user: { login: string; type?: string | undefined }): boolean {
  return user.type === 'Bot' || user.login.endsWith('[bot]');
}

/**
 * Reads the first line as a command; the objective may continue on the following lines. A `/word`
 * plangate does not know is returned as `unknown`, so a guess gets the command list instead of silence.
 */
export function parseCommentCommand(
  text: string,
):
  | { name: 'plan' | 'revise' | 'answer'; rest: string }
  | { name: 'approve'; planId?: string; invalidId?: string }
  | { name: 'status' | 'cancel' | 'help' }
  | { name: 'unknown'; command: string }
  | undefined {
  const normalized = text.replace(/\r\n?/g, '\n').trimStart();
  const newline = normalized.indexOf('\n');
  const first = (newline === -1 ? normalized : normalized.slice(0, newline)).trim();
  const following = newline === -1 ? '' : normalized.slice(newline + 1);
  const match = /^\/([a-z-]+)(?:\s+(.*))?$/i.exec(first);
  if (!match) return undefined;
  const name = (match[1] ?? '').toLowerCase();
  const args = (match[2] ?? '').trim();
  if (name === 'plan' || name === 'revise' || name === 'answer') {
    return { name, rest: [args, following].filter((s) => s.trim() !== '').join('\n').trim() };
  }
  if (name === 'approve') {
    if (args === '') return { name: 'approve' };
    const id = args.split(/\s+/)[0] ?? '';
    return planIdPattern.test(id) ? { name: 'approve', planId: id } : { name: 'approve', invalidId: id };
  }
  if (name === 'status' || name === 'cancel' || name === 'help') return { name };
  return { name: 'unknown', command: name };
}

/**
 * Decides what an `issue_comment` event asks for. Only newly created comments count: an edited
 * comment is never replayed as a command.
 */
export function commandFromIssueComment(payload: unknown, botLogin: string, allowedBots: readonly string[] = []): Command {
  const parsed = issueCommentEventSchema.safeParse(payload);
  if (!parsed.success) return { kind: 'ignore', reason: 'the event payload is not an issue comment' };
  const event = parsed.data;
  if (event.action !== 'created') return { kind: 'ignore', reason: `comment was ${event.action}, not created` };
  const author = event.comment.user;
  if (author.login === botLogin) return { kind: 'ignore', reason: 'the comment is plangate’s own' };
  if (isBot(author) && !allowedBots.includes(author.login)) {
    return { kind: 'ignore', reason: `comments by bots (${author.login}) are not commands unless listed in allowed-bots` };
  }
  const parsedCommand = parseCommentCommand(event.comment.body ?? '');
  if (!parsedCommand) return { kind: 'ignore', reason: 'the comment’s first line is not a plangate command' };
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
  };
  if (parsedCommand.name === 'approve') {
    // A malformed id is kept as given so the refusal can quote it.
    return { kind: 'approve', planId: parsedCommand.planId ?? parsedCommand.invalidId, ...source };
  }
  switch (parsedCommand.name) {
    case 'status':
    case 'cancel':
    case 'help':
      return { kind: parsedCommand.name, ...source };
    case 'unknown':
      return { kind: 'help', unknown: parsedCommand.command, ...source };
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
