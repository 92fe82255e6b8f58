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

  it('answers an unknown command with help that names it', () => {
    expect(commandFromIssueComment(payload('/merge now'), botLogin)).toMatchObject({
      kind: 'help',
      unknown: 'merge',
      commentId: 9001,
    });
  });

  it('still ignores bots and its own comments, whatever the command', () => {
    expect(commandFromIssueComment(payload('/status', 'helper[bot]'), botLogin).kind).toBe('ignore');
    expect(commandFromIssueComment(payload('/frobnicate', 'renovate', 'Bot'), botLogin).kind).toBe('ignore');
    expect(commandFromIssueComment(payload('/help', botLogin), botLogin).kind).toBe('ignore');
  });
});
