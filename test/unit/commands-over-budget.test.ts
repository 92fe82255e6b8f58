import { describe, expect, it } from 'vitest';
import { commandFromIssueComment, parseCommentCommand } from '../../src/entry/command.js';

/** `/approve --over-budget`: the override a maintainer gives for a plan above max-estimated-cost-usd. */

describe('/approve --over-budget', () => {
  it('reads the flag before or right after the plan id, and without an id', () => {
    expect(parseCommentCommand('/approve --over-budget')).toEqual({ name: 'approve', overBudget: true });
    expect(parseCommentCommand('/approve --over-budget 0a1b2c3d')).toEqual({
      name: 'approve',
      planId: '0a1b2c3d',
      overBudget: true,
    });
    expect(parseCommentCommand('/approve 0a1b2c3d --Over-Budget thanks')).toEqual({
      name: 'approve',
      planId: '0a1b2c3d',
      overBudget: true,
    });
  });

  it('leaves plain approvals as they were and does not read the flag out of a remark', () => {
    expect(parseCommentCommand('/approve 0a1b2c3d')).toEqual({ name: 'approve', planId: '0a1b2c3d' });
    expect(parseCommentCommand('/approve 0a1b2c3d fine, no --over-budget')).toEqual({
      name: 'approve',
      planId: '0a1b2c3d',
    });
    // A mistyped flag is an unknown option, not a plan id to look for.
    expect(parseCommentCommand('/approve --overbudget')).toEqual({
      name: 'unknown-option',
      command: 'approve',
      option: '--overbudget',
    });
    expect(parseCommentCommand('/approve --over-budget nonsense')).toEqual({
      name: 'approve',
      invalidId: 'nonsense',
      overBudget: true,
    });
  });

  it('carries the flag into the approve command', () => {
    const payload = (body: string) => ({
      action: 'created',
      issue: { number: 3, title: 'T', body: 'B' },
      comment: { id: 11, body, user: { login: 'mona', type: 'User' }, html_url: 'https://github.com/o/r/issues/3#c11' },
    });
    expect(commandFromIssueComment(payload('/approve --over-budget 0a1b2c3d'), 'github-actions[bot]')).toMatchObject({
      kind: 'approve',
      planId: '0a1b2c3d',
      overBudget: true,
    });
    const plain = commandFromIssueComment(payload('/approve 0a1b2c3d'), 'github-actions[bot]');
    expect(plain.kind === 'approve' && plain.overBudget).toBeFalsy();
  });
});
