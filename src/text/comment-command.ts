/**
 * The part of reading a comment as a command that needs no validation library: who may command
 * plangate and which first lines are commands. Kept free of imports so the entry point can decide
 * that an event is ignored without loading the rest of the action (see src/entry/triage.ts); entry/command.ts
 * builds the full Command on top of the same functions, so both decide alike.
 */

/** The events that can carry a plangate command; every other event is ignored. */
export const COMMAND_EVENTS: readonly string[] = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
  'schedule',
  'workflow_dispatch',
];

/** The events whose text is a comment that may start with a command: a thread comment, a review comment, a review. */
export const COMMENT_EVENTS: readonly string[] = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
];

/** Why an event of this name is ignored, or undefined when it can carry a command. */
export function eventIgnoreReason(eventName: string): string | undefined {
  return COMMAND_EVENTS.includes(eventName) ? undefined : `the ${eventName} event carries no plangate command`;
}

const planIdPattern = /^[0-9a-f]{6,40}$/;

/** True for GitHub Apps and bot accounts: their comments never command plangate unless allowed later. */
export function isBot(user: { login: string; type?: string | undefined }): boolean {
  return user.type === 'Bot' || user.login.endsWith('[bot]');
}

/** The commands plangate knows. */
export type CommandName = 'plan' | 'revise' | 'answer' | 'approve' | 'status' | 'cancel' | 'help';

/**
 * The options each command takes, as typed. A word written like an option that its command does not
 * list is answered as an unknown option: never read as a plan id, an objective or a remark.
 */
export const commandOptions: Readonly<Record<CommandName, readonly string[]>> = {
  plan: [],
  revise: [],
  answer: [],
  approve: ['--over-budget'],
  status: [],
  cancel: [],
  help: [],
};

/** What the first line of a comment asks for, before the event around it is looked at. */
export type ParsedCommentCommand =
  | { name: 'plan' | 'revise' | 'answer'; rest: string }
  | { name: 'approve'; planId?: string; invalidId?: string; overBudget?: true }
  | { name: 'status' | 'cancel' | 'help' }
  | { name: 'unknown'; command: string }
  | { name: 'unknown-option'; command: CommandName; option: string };

/**
 * A word written as an option: one or two hyphens, or the dash a phone makes of two, then a letter.
 * Where free text follows the command, only the unmistakable forms count: a lone `-x` may start a sentence.
 */
const optionWord = /^(?:-{1,2}|[—–])\p{L}/u;
const textOptionWord = /^(?:--|[—–])\p{L}/u;

/** The first of `words` written as an option that `command` does not take. */
function unknownOption(command: CommandName, words: readonly string[], pattern = optionWord) {
  const option = words.find((w) => pattern.test(w) && !commandOptions[command].includes(w.toLowerCase()));
  return option === undefined ? undefined : { name: 'unknown-option' as const, command, option };
}

/**
 * Reads the first line as a command; the objective may continue on the following lines. A `/word`
 * plangate does not know is returned as `unknown`, so a guess gets the command list instead of silence.
 */
export function parseCommentCommand(text: string): ParsedCommentCommand | undefined {
  const normalized = text.replace(/\r\n?/g, '\n').trimStart();
  const newline = normalized.indexOf('\n');
  const first = (newline === -1 ? normalized : normalized.slice(0, newline)).trim();
  const following = newline === -1 ? '' : normalized.slice(newline + 1);
  const match = /^\/([a-z-]+)(?:\s+(.*))?$/i.exec(first);
  if (!match) return undefined;
  const name = (match[1] ?? '').toLowerCase();
  const args = (match[2] ?? '').trim();
  const words = args === '' ? [] : args.split(/\s+/);
  if (name === 'plan' || name === 'revise' || name === 'answer') {
    // These take no option; a leading `--word` is one all the same, not the start of the text.
    const wrong = unknownOption(name, words.slice(0, 1), textOptionWord);
    if (wrong) return wrong;
    return {
      name,
      rest: [args, following]
        .filter((s) => s.trim() !== '')
        .join('\n')
        .trim(),
    };
  }
  if (name === 'approve') {
    // Options stand before or right after the id; later words are the approver's remarks.
    const wrong = unknownOption(name, words.slice(0, 2));
    if (wrong) return wrong;
    const flagAt = words.slice(0, 2).findIndex((w) => w.toLowerCase() === '--over-budget');
    const flag = flagAt === -1 ? {} : { overBudget: true as const };
    const id = (flagAt === -1 ? words : words.filter((_, i) => i !== flagAt))[0];
    if (id === undefined) return { name: 'approve', ...flag };
    return planIdPattern.test(id)
      ? { name: 'approve', planId: id, ...flag }
      : { name: 'approve', invalidId: id, ...flag };
  }
  if (name === 'status' || name === 'cancel' || name === 'help')
    return unknownOption(name, words.slice(0, 1)) ?? { name };
  return { name: 'unknown', command: name };
}

/**
 * The fields of a comment event that decide whether it is a command at all. `action` is the
 * comment's: a submitted review counts as `created`, as a new comment does.
 */
export interface CommentFacts {
  action: string;
  author: { login: string; type?: string | undefined };
  body: string;
}

/**
 * Why a comment is not a command (not newly created, plangate's own, a bot's, no command on the
 * first line), or undefined when it is one. An edited comment is never replayed as a command.
 */
export function commentIgnoreReason(
  comment: CommentFacts,
  botLogin: string,
  allowedBots: readonly string[],
): string | undefined {
  if (comment.action !== 'created') return `comment was ${comment.action}, not created`;
  const { author } = comment;
  if (author.login === botLogin) return 'the comment is plangate’s own';
  if (isBot(author) && !allowedBots.includes(author.login)) {
    return `comments by bots (${author.login}) are not commands unless listed in allowed-bots`;
  }
  if (!parseCommentCommand(comment.body)) return 'the comment’s first line is not a plangate command';
  return undefined;
}

/**
 * Where a comment event keeps the comment: `comment` (thread and review comments) or `review` (a
 * review's body), and the action that means "newly written" (`submitted` for a review).
 */
export function commentOfEvent(eventName: string): { field: 'comment' | 'review'; created: string } {
  return eventName === 'pull_request_review'
    ? { field: 'review', created: 'submitted' }
    : { field: 'comment', created: 'created' };
}
