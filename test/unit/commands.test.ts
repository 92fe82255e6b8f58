import { describe, expect, it } from 'vitest';
import { commandFromIssueComment, isBot, parseCommentCommand } from '../../src/entry/command.js';
import { issueCommentPayload } from '../fakes/payloads.js';
import { spellCommands } from '../../src/text/comment-command.js';
import { oneSlipFrom, slipDistance } from '../../src/text/did-you-mean.js';

const botLogin = 'github-actions[bot]';

/** A real-shaped issue_comment payload (from GitHub's examples) with the given comment. */
function payload(body: string, options: { login?: string; type?: string; isPullRequest?: boolean } = {}) {
  return issueCommentPayload({
    owner: 'octo',
    repo: 'widgets',
    issue: { number: 7, title: 'Add a CHANGELOG', body: 'We need one.', isPullRequest: options.isPullRequest ?? false },
    comment: { id: 9001, body, login: options.login ?? 'maintainer', ...(options.type ? { type: options.type } : {}) },
  });
}

describe('parseCommentCommand', () => {
  it('reads /plan with the objective on the first line', () => {
    expect(parseCommentCommand('/plan add a CHANGELOG')).toEqual({ name: 'plan', rest: 'add a CHANGELOG' });
  });

  it('keeps the objective continuing on the following lines', () => {
    expect(parseCommentCommand('/plan add a CHANGELOG\n\nKeep a Changelog format.\n- list 0.1.0\n')).toEqual({
      name: 'plan',
      rest: 'add a CHANGELOG\n\nKeep a Changelog format.\n- list 0.1.0',
    });
  });

  it('takes the objective from the following lines when the first holds only the command', () => {
    expect(parseCommentCommand('/plan\nadd a CHANGELOG')).toEqual({ name: 'plan', rest: 'add a CHANGELOG' });
  });

  it('reads /plan alone as an empty objective', () => {
    expect(parseCommentCommand('/plan')).toEqual({ name: 'plan', rest: '' });
    expect(parseCommentCommand('/plan   \n  \n')).toEqual({ name: 'plan', rest: '' });
  });

  it('normalises CRLF line endings', () => {
    expect(parseCommentCommand('/plan first\r\nsecond\r\n')).toEqual({ name: 'plan', rest: 'first\nsecond' });
    expect(parseCommentCommand('/approve 0a1b2c3d\r\nthanks')).toEqual({ name: 'approve', planId: '0a1b2c3d' });
  });

  it('ignores leading whitespace and blank lines before the command', () => {
    expect(parseCommentCommand('\n  \n   /plan tidy up')).toEqual({ name: 'plan', rest: 'tidy up' });
  });

  it('is case-insensitive in the command name', () => {
    expect(parseCommentCommand('/PLAN Tidy Up')).toEqual({ name: 'plan', rest: 'Tidy Up' });
  });

  it('reads /approve with and without a plan id', () => {
    expect(parseCommentCommand('/approve')).toEqual({ name: 'approve' });
    expect(parseCommentCommand('/approve 0a1b2c3d')).toEqual({ name: 'approve', planId: '0a1b2c3d' });
    expect(parseCommentCommand('/approve 0a1b2c3d looks good')).toEqual({ name: 'approve', planId: '0a1b2c3d' });
  });

  it('keeps a malformed plan id so a refusal can quote it', () => {
    expect(parseCommentCommand('/approve nonsense')).toEqual({ name: 'approve', invalidId: 'nonsense' });
    expect(parseCommentCommand('/approve 0a1b')).toEqual({ name: 'approve', invalidId: '0a1b' });
  });

  it('ignores text that is no command and commands not on the first line', () => {
    for (const text of ['/plan: x', '/path/to/file is broken', 'please /plan this', 'hello\n/plan x', '', 'plan x']) {
      expect(parseCommentCommand(text), text).toBeUndefined();
    }
  });

  it('reads another tool’s /word as no command, and names a word one slip from a command with the one meant', () => {
    for (const text of ['/foo bar', '/lgtm', '/assign me', '/approve-all', '/planning', '/review', '/rebase', '/hold'])
      expect(parseCommentCommand(text), text).toBeUndefined();
    expect(parseCommentCommand('/plans x')).toEqual({ name: 'unknown', command: 'plans', meant: 'plan' });
    expect(parseCommentCommand('/Approved')).toEqual({ name: 'unknown', command: 'approved', meant: 'approve' });
    expect(parseCommentCommand('/aprove')).toEqual({ name: 'unknown', command: 'aprove', meant: 'approve' });
    expect(parseCommentCommand('/plna x')).toEqual({ name: 'unknown', command: 'plna', meant: 'plan' });
  });

  it('reads commands after a command-prefix only, and any word after the prefix as addressed to plangate', () => {
    const prefix = '/plangate';
    expect(parseCommentCommand('/plangate plan add a CHANGELOG', prefix)).toEqual({
      name: 'plan',
      rest: 'add a CHANGELOG',
    });
    expect(parseCommentCommand('  /PlanGate Approve 0a1b2c3d', prefix)).toEqual({
      name: 'approve',
      planId: '0a1b2c3d',
    });
    expect(parseCommentCommand('/plangate /status', prefix)).toEqual({ name: 'status' });
    expect(parseCommentCommand('/plangate\nthanks', prefix)).toEqual({ name: 'help' });
    expect(parseCommentCommand('/plangate merge', prefix)).toEqual({ name: 'unknown', command: 'merge' });
    expect(parseCommentCommand('/plangate aprove', prefix)).toEqual({
      name: 'unknown',
      command: 'aprove',
      meant: 'approve',
    });
    for (const text of [
      '/plan add a CHANGELOG',
      '/approve',
      '/plangates plan x',
      '/plangate-plan x',
      'plangate plan x',
    ])
      expect(parseCommentCommand(text, prefix), text).toBeUndefined();
  });
});

describe('spellCommands', () => {
  it('writes the commands plangate’s texts name behind the prefix, and nothing else', () => {
    const text =
      'Approve with `/approve 1a2b3c4d`, change it with `/revise <feedback>`, see `/help`; `/planning/x` and /plan stay.';
    expect(spellCommands(text, '/plangate')).toBe(
      'Approve with `/plangate approve 1a2b3c4d`, change it with `/plangate revise <feedback>`, see `/plangate help`; `/planning/x` and /plan stay.',
    );
    expect(spellCommands(text, '')).toBe(text);
  });
});

describe('oneSlipFrom', () => {
  it('takes a word for a command only one slip away: added, dropped, changed or swapped letters', () => {
    const commands = ['plan', 'approve', 'revise', 'answer', 'status', 'cancel', 'help'];
    expect(slipDistance('plna', 'plan')).toBe(1);
    expect(
      ['aprove', 'approved', 'plna', 'stauts', 'cancle', 'revies', 'answr'].map((w) => oneSlipFrom(w, commands)),
    ).toEqual(['approve', 'approve', 'plan', 'status', 'cancel', 'revise', 'answer']);
    for (const word of ['lgtm', 'assign', 'review', 'rebase', 'hold', 'retest', 'approve-all', 'planning', 'plan'])
      expect(oneSlipFrom(word, commands), word).toBeUndefined();
  });
});

describe('isBot', () => {
  it('knows bots by type and by the [bot] suffix', () => {
    expect(isBot({ login: 'renovate', type: 'Bot' })).toBe(true);
    expect(isBot({ login: 'dependabot[bot]', type: 'User' })).toBe(true);
    expect(isBot({ login: 'dependabot[bot]' })).toBe(true);
    expect(isBot({ login: 'octocat', type: 'User' })).toBe(false);
    expect(isBot({ login: 'botanist' })).toBe(false);
  });
});

describe('commandFromIssueComment', () => {
  it('turns a /plan comment into a plan command with its source', () => {
    const command = commandFromIssueComment(payload('/plan add a CHANGELOG\nwith 0.1.0'), botLogin);
    expect(command).toMatchObject({
      kind: 'plan',
      objective: 'add a CHANGELOG\nwith 0.1.0',
      thread: { number: 7, isPullRequest: false, title: 'Add a CHANGELOG', body: 'We need one.' },
      commentId: 9001,
      author: 'maintainer',
    });
    expect(command.kind === 'plan' && command.commentUrl).toContain('#issuecomment-9001');
  });

  it('detects pull request threads', () => {
    const command = commandFromIssueComment(payload('/plan fix the test', { isPullRequest: true }), botLogin);
    expect(command).toMatchObject({ kind: 'plan', thread: { number: 7, isPullRequest: true } });
  });

  it('reads /approve with an id, without one, and with a malformed one', () => {
    expect(commandFromIssueComment(payload('/approve 0a1b2c3d'), botLogin)).toMatchObject({
      kind: 'approve',
      planId: '0a1b2c3d',
    });
    const bare = commandFromIssueComment(payload('/approve'), botLogin);
    expect(bare.kind).toBe('approve');
    expect(bare.kind === 'approve' && bare.planId).toBeUndefined();
    expect(commandFromIssueComment(payload('/approve nonsense'), botLogin)).toMatchObject({
      kind: 'approve',
      planId: 'nonsense',
    });
  });

  it('ignores ordinary text', () => {
    for (const body of ['Thanks, looks good!', 'see /src/main.ts for why', '']) {
      expect(commandFromIssueComment(payload(body), botLogin)).toEqual({
        kind: 'ignore',
        reason: 'the comment’s first line is not a plangate command',
      });
    }
  });

  it('ignores a null comment body', () => {
    const event = { ...payload('x'), comment: { ...payload('x').comment, body: null } };
    expect(commandFromIssueComment(event, botLogin).kind).toBe('ignore');
  });

  it('never replays edited or deleted comments', () => {
    for (const action of ['edited', 'deleted']) {
      const event = { ...payload('/approve 0a1b2c3d'), action };
      expect(commandFromIssueComment(event, botLogin)).toEqual({
        kind: 'ignore',
        reason: `comment was ${action}, not created`,
      });
    }
  });

  it('ignores bots, by type and by [bot] suffix', () => {
    const byType = commandFromIssueComment(payload('/plan x', { login: 'helper-app', type: 'Bot' }), botLogin);
    expect(byType).toMatchObject({ kind: 'ignore' });
    expect(byType.kind === 'ignore' && byType.reason).toContain('helper-app');

    const suffixed = payload('/plan x', { login: 'helper' });
    // A [bot] login typed as a User still counts as a bot.
    const event = {
      ...suffixed,
      comment: { ...suffixed.comment, user: { ...suffixed.comment.user, login: 'helper[bot]', type: 'User' } },
    };
    expect(commandFromIssueComment(event, botLogin)).toMatchObject({ kind: 'ignore' });
  });

  it('ignores its own comments, even under a login that does not look like a bot', () => {
    const own = commandFromIssueComment(
      payload('/approve', { login: 'plangate-runner', type: 'User' }),
      'plangate-runner',
    );
    expect(own).toEqual({ kind: 'ignore', reason: 'the comment is plangate’s own' });
  });

  it('ignores payloads that are not issue comments', () => {
    expect(commandFromIssueComment({ action: 'created' }, botLogin).kind).toBe('ignore');
    expect(commandFromIssueComment(null, botLogin).kind).toBe('ignore');
  });
});
