import { describe, expect, it } from 'vitest';
import { renderHelp, type HelpSettings } from '../../src/render/help.js';
import { renderStatus, type StatusView } from '../../src/render/status.js';

const settings: HelpSettings = {
  policy: 'plan-for-approval',
  triggerPermission: 'write',
  approvePermission: 'maintain',
  allowedCommands: ['npm test', 'npm run lint'],
  protectedPaths: ['.github/workflows/**'],
  allowBlockedPlans: false,
};

describe('renderHelp', () => {
  it('lists every command with who may use it here, and the repository settings', () => {
    const body = renderHelp('mona', settings);
    expect(body.startsWith('@mona ')).toBe(true);
    for (const command of ['/plan', '/approve', '/revise', '/answer', '/status', '/cancel', '/help'])
      expect(body).toContain(`\`${command}`);
    expect(body).toContain(
      '| `/approve [plan-id]` | Runs the live plan; with an id, only if it is still the live one. | `maintain` or higher |',
    );
    expect(body).toContain('policy: `plan-for-approval`');
    expect(body).toContain('allowed commands (2): `npm test`, `npm run lint`');
    expect(body).toContain('protected paths: `.github/workflows/**`');
    expect(body).not.toContain('unknown command');
  });

  it('shows --over-budget with the role it needs, and the plan-check settings', () => {
    const body = renderHelp('mona', settings);
    expect(body).toContain(
      '| `/approve --over-budget [plan-id]` | Runs a plan whose cost estimate is above `max-estimated-cost-usd`. | `maintain` or higher |',
    );
    expect(body).toContain('- estimated cost ceiling: none');
    expect(body).toContain('- plans with blocking check findings: must be revised first');
    const configured = renderHelp('mona', { ...settings, maxEstimatedCostUsd: 2.5, allowBlockedPlans: true });
    expect(configured).toContain('- estimated cost ceiling: $2.5 per plan');
    expect(configured).toContain('- plans with blocking check findings: may be approved');
  });

  it('names an unknown command', () => {
    expect(renderHelp('mona', settings, 'merge')).toContain('@mona unknown command `/merge`.');
  });

  it('says when no command is allowed and cuts a long list', () => {
    expect(renderHelp('mona', { ...settings, allowedCommands: [], protectedPaths: [] })).toContain(
      'allowed commands: none',
    );
    const many = Array.from({ length: 25 }, (_, i) => `tool-${i}`);
    const body = renderHelp('mona', { ...settings, allowedCommands: many });
    expect(body).toContain('allowed commands (25): ');
    expect(body).toContain('`tool-19` and 5 more');
    expect(body).not.toContain('`tool-20`');
  });

  it('cannot be broken out of by a pattern', () => {
    const body = renderHelp('mona', { ...settings, allowedCommands: ['echo <!-- x'] });
    expect(body).not.toContain('<!--');
  });
});

describe('renderStatus', () => {
  const view: StatusView = {
    planId: '0a1b2c3d',
    status: 'executing',
    state: 'replan',
    requestedBy: 'mona',
    approvedBy: 'hubot',
    planUrl: 'https://github.com/o/r/issues/1#issuecomment-5',
    steps: 2,
    cycles: 1,
    maxIterations: 8,
    costUsd: 0.01234,
    branch: { name: 'plangate/1-0a1b2c3d', url: 'https://github.com/o/r/tree/plangate/1-0a1b2c3d' },
    jobUrl: 'https://github.com/o/r/actions/runs/42',
  };

  it('shows status, cycles, cost and every link', () => {
    const body = renderStatus('mona', view);
    expect(body).toContain('@mona plan `0a1b2c3d` is **executing**.');
    expect(body).toContain('cycles: 1 of at most 8');
    expect(body).toContain('cost so far: $0.0123');
    expect(body).toContain('approved by @hubot');
    expect(body).toContain('[plan comment](https://github.com/o/r/issues/1#issuecomment-5)');
    expect(body).toContain('branch [`plangate/1-0a1b2c3d`](https://github.com/o/r/tree/plangate/1-0a1b2c3d)');
    expect(body).toContain('[job](https://github.com/o/r/actions/runs/42)');
    expect(body).toContain('`/cancel` stops it');
  });

  it('says how to go on with a proposed plan and an unknown price plainly', () => {
    const body = renderStatus('mona', {
      ...view,
      status: 'proposed',
      approvedBy: undefined,
      costUsd: null,
      cycles: 0,
    } as StatusView);
    expect(body).toContain('`/approve 0a1b2c3d`');
    expect(body).toContain('unknown price');
    expect(body).not.toContain('approved by');
  });

  it('links the pull request and the note of a plan that is over', () => {
    const body = renderStatus('mona', {
      ...view,
      status: 'superseded',
      note: 'superseded by plan `ffffffff`',
      pullRequest: { number: 9, url: 'https://github.com/o/r/pull/9' },
    });
    expect(body).toContain('is **superseded** (superseded by plan `ffffffff`).');
    expect(body).toContain('pull request [#9](https://github.com/o/r/pull/9)');
  });
});
