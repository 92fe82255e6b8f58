import { oneSlipFrom } from './did-you-mean.js';

/**
 * The part of reading a comment as a command that needs no validation library: who may command
 * plangate and which first lines are commands. It imports only did-you-mean.ts, which imports
 * nothing, so the entry point can decide
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

/**
 * The commands plangate knows: the one list that decides what is a command, what `/help` lists and
 * what a near miss is corrected to. The documented workflows' `if:` names the same words, and a test
 * holds them to this list.
 */
export const COMMAND_NAMES = ['plan', 'approve', 'revise', 'answer', 'status', 'cancel', 'help'] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

const isCommandName = (name: string): name is CommandName => (COMMAND_NAMES as readonly string[]).includes(name);

/**
 * What the `command-prefix` input may hold: `/` and one word (letters, digits, `-`, `_`, starting
 * with a letter), so `/plangate plan` reads as the prefix, then the command. Here, not in the input
 * schemas, so the entry point's first look and the settings reader apply one rule.
 */
export const commandPrefixPattern = /^\/[A-Za-z][A-Za-z0-9_-]{0,38}$/;

/**
 * How a command is written on this repository: `/approve`, or `/plangate approve` with the prefix
 * `/plangate`. Everything plangate tells people to type goes through here or spellCommands.
 */
export function commandText(name: string, prefix = ''): string {
  return prefix === '' ? `/${name}` : `${prefix} ${name}`;
}

/**
 * Rewrites the commands plangate's own texts name in code spans (`` `/approve 1a2b3c4d` ``) into the
 * prefixed form, so a refusal written once reads right on a repository with a prefix. Only a code
 * span that starts with one of plangate's commands changes.
 */
export function spellCommands(text: string, prefix = ''): string {
  if (prefix === '') return text;
  const names = COMMAND_NAMES.join('|');
  return text.replace(
    new RegExp(`\`/(${names})(?=[\\s\`])`, 'g'),
    (_, name: string) => `\`${commandText(name, prefix)}`,
  );
}

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

/**
 * What the first line of a comment asks for, before the event around it is looked at. `unknown` is
 * a word addressed to plangate that is none of its commands: one slip from a command (`/aprove`,
 * with `meant`), or any word after the command prefix. A `/word` that is neither belongs to another
 * tool and is no command at all.
 */
export type ParsedCommentCommand =
  | { name: 'plan' | 'revise' | 'answer'; rest: string }
  | { name: 'approve'; planId?: string; invalidId?: string; overBudget?: true }
  | { name: 'status' | 'cancel' | 'help' }
  | { name: 'unknown'; command: string; meant?: CommandName }
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

/** The comment's first line (after leading blank space), and the lines after it. */
function firstLineOf(text: string): { first: string; following: string } {
  const normalized = text.replace(/\r\n?/g, '\n').trimStart();
  const newline = normalized.indexOf('\n');
  return {
    first: (newline === -1 ? normalized : normalized.slice(0, newline)).trim(),
    following: newline === -1 ? '' : normalized.slice(newline + 1),
  };
}

/**
 * The command word and its arguments on the first line: `/word args`, or with a prefix
 * `/prefix word args` (the word's own `/` may be written too). `addressed`: the prefix was written,
 * so any word after it was meant for plangate. A bare prefix asks for `help`.
 */
function commandWord(first: string, prefix: string): { name: string; args: string; addressed: boolean } | undefined {
  if (prefix === '') {
    const match = /^\/([a-z-]+)(?:\s+(.*))?$/i.exec(first);
    return match
      ? { name: (match[1] ?? '').toLowerCase(), args: (match[2] ?? '').trim(), addressed: false }
      : undefined;
  }
  const head = first.split(/\s/, 1)[0] ?? '';
  if (head.toLowerCase() !== prefix.toLowerCase()) return undefined;
  const rest = first.slice(head.length).trim();
  if (rest === '') return { name: 'help', args: '', addressed: true };
  const match = /^\/?([a-z-]+)(?:\s+(.*))?$/i.exec(rest);
  const name = match ? (match[1] ?? '') : (rest.split(/\s/, 1)[0] ?? '');
  return { name: name.toLowerCase(), args: (match?.[2] ?? '').trim(), addressed: true };
}

/**
 * Reads the first line as a command; the objective may continue on the following lines. `prefix` is
 * the `command-prefix` input ('' for none). A `/word` that is not plangate's is undefined, like any
 * other text: other tools' commands (`/lgtm`, `/assign`) are none of plangate's business.
 */
export function parseCommentCommand(text: string, prefix = ''): ParsedCommentCommand | undefined {
  const { first, following } = firstLineOf(text);
  const word = commandWord(first, prefix);
  if (!word) return undefined;
  const { name, args, addressed } = word;
  const words = args === '' ? [] : args.split(/\s+/);
  if (!isCommandName(name)) {
    const meant = oneSlipFrom(name, COMMAND_NAMES) as CommandName | undefined;
    if (!addressed && meant === undefined) return undefined;
    return { name: 'unknown', command: name, ...(meant ? { meant } : {}) };
  }
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
  return unknownOption(name, words.slice(0, 1)) ?? { name };
}

/**
 * Why a comment's first line is no command, for the log: another tool's `/word` is named (cut to a
 * word's length), so a maintainer reading the job log sees why plangate stayed quiet.
 */
export function notCommandReason(text: string, prefix = ''): string {
  const other = /^(\/[A-Za-z0-9_-]{1,40})/.exec(firstLineOf(text).first)?.[1];
  const expected = prefix === '' ? '' : ` (plangate’s commands start with ${prefix})`;
  return other === undefined
    ? `the comment’s first line is not a plangate command${expected}`
    : `${other} is not a plangate command${expected}`;
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
 * Why a comment is not a command (not newly created, plangate's own, a bot's, no command of
 * plangate's on the first line), or undefined when it is one. An edited comment is never replayed as
 * a command. `prefix` is the `command-prefix` input.
 */
export function commentIgnoreReason(
  comment: CommentFacts,
  botLogin: string,
  allowedBots: readonly string[],
  prefix = '',
): string | undefined {
  if (comment.action !== 'created') return `comment was ${comment.action}, not created`;
  const { author } = comment;
  if (author.login === botLogin) return 'the comment is plangate’s own';
  if (isBot(author) && !allowedBots.includes(author.login)) {
    return `comments by bots (${author.login}) are not commands unless listed in allowed-bots`;
  }
  if (!parseCommentCommand(comment.body, prefix)) return notCommandReason(comment.body, prefix);
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
