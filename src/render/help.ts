import type { RepoRole } from '../config/permissions.js';
import type { RunPolicy } from '../config/run-policy.js';
import { fitBody } from '../text/limits.js';
import { code } from '../text/markdown.js';
import { overBudgetRole } from '../checks/approval-gate.js';
import { commandOptions, commandText, spellCommands, type CommandName } from '../text/comment-command.js';
import { didYouMean } from '../text/did-you-mean.js';

/** The repository settings `/help` shows: what a maintainer needs to know before their first command. */
export interface HelpSettings {
  policy: RunPolicy;
  triggerPermission: RepoRole;
  approvePermission: RepoRole;
  allowedCommands: readonly string[];
  protectedPaths: readonly string[];
  /** A plan whose estimated execution cost is higher needs `/approve --over-budget`; undefined: no ceiling. */
  maxEstimatedCostUsd?: number;
  /** Plans with blocking check findings may be approved all the same. */
  allowBlockedPlans: boolean;
}

/** Long pattern lists are cut here: the reply is a summary, the workflow file holds the rest. */
const maxListed = 20;

const listed = (patterns: readonly string[]) => {
  const shown = patterns.slice(0, maxListed).map(code).join(', ');
  return patterns.length > maxListed ? `${shown} and ${patterns.length - maxListed} more` : shown;
};

/**
 * The reply to `/help`: the commands, with who may use them here, and the settings a maintainer
 * needs to know before their first command. `prefix` is the `command-prefix` input.
 */
export function renderHelp(author: string, settings: HelpSettings, prefix = ''): string {
  const trigger = code(settings.triggerPermission);
  const approve = code(settings.approvePermission);
  const commands = settings.allowedCommands;
  const lines = [
    `@${author} plangate’s commands on this repository:`,
    '',
    '| Command | What it does | Who may use it |',
    '| --- | --- | --- |',
    `| \`/plan <objective>\` | The planner posts a plan for the objective (or the issue itself). | ${trigger} or higher |`,
    `| \`/approve [plan-id]\` | Runs the live plan; with an id, only if it is still the live one. | ${approve} or higher |`,
    `| \`/approve --over-budget [plan-id]\` | Runs a plan whose cost estimate is above \`max-estimated-cost-usd\`. | ${code(overBudgetRole)} or higher |`,
    `| \`/revise <feedback>\` | The planner plans again from the live plan and the feedback. | ${trigger} or higher |`,
    `| \`/answer <text>\` | Answers the planner’s question. | the requester or ${trigger} or higher |`,
    `| \`/status\` | Where the live plan stands: status, cycles, cost, links. | ${code('read')} or higher |`,
    `| \`/cancel\` | Withdraws the live plan; a running execution stops before its next cycle and keeps its work. | ${trigger} or higher |`,
    `| \`/help\` | This list. | ${code('read')} or higher |`,
    '',
    'Settings:',
    `- policy: ${code(settings.policy)}`,
    `- trigger permission: ${trigger}; approve permission: ${approve}`,
    commands.length === 0
      ? '- allowed commands: none (the executor can read and write files but run no command)'
      : `- allowed commands (${commands.length}): ${listed(commands)}`,
    settings.protectedPaths.length === 0
      ? '- protected paths: none'
      : `- protected paths: ${listed(settings.protectedPaths)}`,
    settings.maxEstimatedCostUsd === undefined
      ? '- estimated cost ceiling: none'
      : `- estimated cost ceiling: $${settings.maxEstimatedCostUsd} per plan`,
    settings.allowBlockedPlans
      ? '- plans with blocking check findings: may be approved'
      : '- plans with blocking check findings: must be revised first',
    '',
    'The command goes on the first line of a new comment.',
  ];
  return fitBody(spellCommands(lines.join('\n'), prefix));
}

/**
 * The reply to a word addressed to plangate that is none of its commands: one line, with the
 * command it is one slip from when there is one. Nothing was done, and `help` lists the rest.
 */
export function renderUnknownCommand(author: string, unknown: string, meant?: CommandName, prefix = ''): string {
  const typed = code(commandText(unknown, prefix));
  const guess = meant ? ` Did you mean ${code(commandText(meant, prefix))}?` : '';
  return `@${author} ${typed} is not a plangate command.${guess} Nothing was done; ${code(commandText('help', prefix))} lists the commands.`;
}

/** What each option does, for the reply to one a command does not take. */
const optionMeaning: Readonly<Record<string, string>> = {
  '--over-budget': `approves a plan whose cost estimate is above \`max-estimated-cost-usd\` (${code(overBudgetRole)} permission or higher): \`/approve --over-budget [plan-id]\``,
};

/**
 * The reply to a command given an option it does not take (`/approve --overbudget`): the option is
 * named as an option, with the likeliest meant one and the command's real options, and nothing was
 * done, so a typo never reads as a missing plan or starts anything.
 */
export function renderUnknownOption(author: string, command: CommandName, option: string, prefix = ''): string {
  const valid = commandOptions[command];
  const meant = didYouMean(option, valid);
  const head = `@${author} \`/${command}\` has no option ${code(option)}${meant ? `; did you mean ${code(meant)}?` : '.'} Nothing was done.`;
  const list =
    valid.length === 0
      ? `\`/${command}\` takes no options.`
      : [`The options of \`/${command}\`:`, ...valid.map((o) => `- ${code(o)}: ${optionMeaning[o] ?? ''}`)].join('\n');
  return fitBody(spellCommands([head, '', list, '', '`/help` lists every command.'].join('\n'), prefix));
}
