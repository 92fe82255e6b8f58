import { describe, expect, it } from 'vitest';
import { commandFromIssueComment, parseCommentCommand } from '../../src/entry/command.js';
import { issueCommentPayload } from '../fakes/payloads.js';

const botLogin = 'github-actions[bot]';

function payload(body: string, login = 'maintainer', type?: string) {
  return issueCommentPayload({
    owner: 'octo',
    repo: 'widgets',
    issue: { number: 7, title: 'Add a CHANGELOG', body: 'We need one.', isPullRequest: false },
    comment: { id: 9001, body, login, ...(type ? { type } : {}) },
  });
}

describe('the commands a maintainer would guess', () => {
  it('parses /status, /cancel and /help in any case, ignoring what follows', () => {
    expect(parseCommentCommand('/status')).toEqual({ name: 'status' });
    expect(parseCommentCommand('/CANCEL please\nwrong direction')).toEqual({ name: 'cancel' });
    expect(parseCommentCommand('  /help')).toEqual({ name: 'help' });
  });

  it('turns them into commands with their source', () => {
    expect(commandFromIssueComment(payload('/status'), botLogin)).toMatchObject({
      kind: 'status',
      commentId: 9001,
      author: 'maintainer',
      thread: { number: 7 },
    });
    expect(commandFromIssueComment(payload('/cancel'), botLogin)).toMatchObject({
      kind: 'cancel',
      author: 'maintainer',
    });
    const help = commandFromIssueComment(payload('/help'), botLogin);
    expect(help).toMatchObject({ kind: 'help', author: 'maintainer' });
    expect(help.kind === 'help' && help.unknown).toBeUndefined();
  });

  it('ignores another tool’s command, and names a near miss with the command meant', () => {
    expect(commandFromIssueComment(payload('/merge now'), botLogin)).toEqual({
      kind: 'ignore',
      reason: '/merge is not a plangate command',
    });
    expect(commandFromIssueComment(payload('/aprove'), botLogin)).toMatchObject({
      kind: 'help',
      unknown: 'aprove',
      meant: 'approve',
      commentId: 9001,
    });
    expect(commandFromIssueComment(payload('/plan x'), botLogin, [], '/plangate')).toEqual({
      kind: 'ignore',
      reason: '/plan is not a plangate command (plangate’s commands start with /plangate)',
    });
    expect(commandFromIssueComment(payload('/plangate plan x'), botLogin, [], '/plangate')).toMatchObject({
      kind: 'plan',
      objective: 'x',
      prefix: '/plangate',
    });
  });

  it('answers an option a command does not take as an unknown option, never as a plan id or text', () => {
    const unknown = (command: string, option: string) => ({ name: 'unknown-option', command, option });
    expect(parseCommentCommand('/approve --overbudget')).toEqual(unknown('approve', '--overbudget'));
    expect(parseCommentCommand('/approve 0a1b2c3d --force')).toEqual(unknown('approve', '--force'));
    expect(parseCommentCommand('/approve --over-budget --yes 0a1b2c3d')).toEqual(unknown('approve', '--yes'));
    // The dash a phone makes of `--`, and a single hyphen, are options too where no text follows.
    expect(parseCommentCommand('/approve —over-budget')).toEqual(unknown('approve', '—over-budget'));
    expect(parseCommentCommand('/approve -f')).toEqual(unknown('approve', '-f'));
    expect(parseCommentCommand('/status --verbose')).toEqual(unknown('status', '--verbose'));
    expect(parseCommentCommand('/cancel --force')).toEqual(unknown('cancel', '--force'));
    expect(parseCommentCommand('/help --all')).toEqual(unknown('help', '--all'));
    expect(parseCommentCommand('/plan --dry-run add a CHANGELOG')).toEqual(unknown('plan', '--dry-run'));
    expect(parseCommentCommand('/revise --fast shorter')).toEqual(unknown('revise', '--fast'));
    expect(parseCommentCommand('/answer --yes')).toEqual(unknown('answer', '--yes'));
    // Known options in any case and place, remarks after the id, and text that only starts with a dash still read as before.
    expect(parseCommentCommand('/approve --Over-Budget 0a1b2c3d')).toEqual({
      name: 'approve',
      planId: '0a1b2c3d',
      overBudget: true,
    });
    expect(parseCommentCommand('/approve 0a1b2c3d --over-budget')).toEqual({
      name: 'approve',
      planId: '0a1b2c3d',
      overBudget: true,
    });
    expect(parseCommentCommand('/approve 0a1b2c3d thanks --force')).toEqual({ name: 'approve', planId: '0a1b2c3d' });
    expect(parseCommentCommand('/plan -x is the flag to add')).toEqual({ name: 'plan', rest: '-x is the flag to add' });
    expect(parseCommentCommand('/answer - yes, keep it')).toEqual({ name: 'answer', rest: '- yes, keep it' });
    expect(parseCommentCommand('/plan add a --verbose flag')).toEqual({ name: 'plan', rest: 'add a --verbose flag' });
    expect(commandFromIssueComment(payload('/approve --overbudget'), botLogin)).toMatchObject({
      kind: 'help',
      unknownOption: { command: 'approve', option: '--overbudget' },
      commentId: 9001,
    });
  });

  it('still ignores bots and its own comments, whatever the command', () => {
    expect(commandFromIssueComment(payload('/status', 'helper[bot]'), botLogin).kind).toBe('ignore');
    expect(commandFromIssueComment(payload('/frobnicate', 'renovate', 'Bot'), botLogin).kind).toBe('ignore');
    expect(commandFromIssueComment(payload('/help', botLogin), botLogin).kind).toBe('ignore');
  });
});
