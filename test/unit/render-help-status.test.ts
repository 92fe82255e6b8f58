import { describe, expect, it } from 'vitest';
import { renderHelp, type HelpSettings } from '../../src/render/help.js';
import { renderStatus, statusWords, type StatusView } from '../../src/render/status.js';
import { renderUnknownCommand, renderUnknownOption } from '../../src/render/help.js';
import { recordStatuses } from '../../src/machine/plan-status.js';

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

  it('answers a near miss in one line with the command meant, spelled with the prefix', () => {
    expect(renderUnknownCommand('mona', 'aprove', 'approve')).toBe(
      '@mona `/aprove` is not a plangate command. Did you mean `/approve`? Nothing was done; `/help` lists the commands.',
    );
    expect(renderUnknownCommand('mona', 'merge', undefined, '/plangate')).toBe(
      '@mona `/plangate merge` is not a plangate command. Nothing was done; `/plangate help` lists the commands.',
    );
  });

  it('spells every command with the prefix', () => {
    const body = renderHelp('mona', settings, '/plangate');
    expect(body).toContain('| `/plangate plan <objective>` |');
    expect(body).toContain('| `/plangate approve --over-budget [plan-id]` |');
    expect(body).toContain('| `/plangate help` |');
    expect(body).not.toMatch(/`\/(plan|approve|revise|answer|status|cancel|help)\b/);
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

describe('renderUnknownOption', () => {
  it('names the option as an option, guesses the meant one and lists the real ones', () => {
    const body = renderUnknownOption('mona', 'approve', '--overbudget');
    expect(body).toContain(
      '@mona `/approve` has no option `--overbudget`; did you mean `--over-budget`? Nothing was done.',
    );
    expect(body).toContain(
      'The options of `/approve`:\n- `--over-budget`: approves a plan whose cost estimate is above',
    );
    expect(body).toContain('`/help` lists every command.');
    expect(body).not.toContain('there is no plan');
  });

  it('says a command takes no options, guessing nothing far off', () => {
    const body = renderUnknownOption('mona', 'status', '--verbose');
    expect(body).toBe(
      '@mona `/status` has no option `--verbose`. Nothing was done.\n\n`/status` takes no options.\n\n`/help` lists every command.',
    );
  });
});

describe('renderStatus', () => {
  const view: StatusView = {
    planId: '0a1b2c3d',
    status: 'executing',
    policy: 'plan-for-approval',
    state: 'replan',
    requestedBy: 'mona',
    approvedBy: 'hubot',
    planUrl: 'https://github.com/o/r/issues/1#issuecomment-5',
    steps: 4,
    cycles: 1,
    maxIterations: 8,
    costUsd: 0.01234,
    branch: { name: 'plangate/1-0a1b2c3d', url: 'https://github.com/o/r/tree/plangate/1-0a1b2c3d' },
    jobUrl: 'https://github.com/o/r/actions/runs/42',
  };
  const proposed: StatusView = { ...view, status: 'proposed', state: 'execute', cycles: 0 };
  delete proposed.approvedBy;
  const machineNames = /\b(execute|replan|finish|abort|proposed|executing|superseded)\b|state:/;

  it('shows where a running plan is in the user\u2019s words, with cycles, cost and every link', () => {
    const body = renderStatus('mona', view);
    expect(body).toContain('@mona plan `0a1b2c3d` is **running step 2 of 4**.');
    expect(body).toContain('- 4 steps; cycles run: 1 of at most 8');
    expect(body).toContain('cost so far: $0.0123');
    expect(body).toContain('approved by @hubot');
    expect(body).toContain('[plan comment](https://github.com/o/r/issues/1#issuecomment-5)');
    expect(body).toContain('branch [`plangate/1-0a1b2c3d`](https://github.com/o/r/tree/plangate/1-0a1b2c3d)');
    expect(body).toContain('[job](https://github.com/o/r/actions/runs/42)');
    expect(body).toContain('`/cancel` stops it');
    expect(body).not.toMatch(machineNames);
  });

  it('names every status and state without a machine name', () => {
    const states: StatusView['state'][] = ['plan', 'ask', 'execute', 'replan', 'finish', 'abort', 'done'];
    for (const status of recordStatuses) {
      for (const state of states) expect(renderStatus('mona', { ...view, status, state })).not.toMatch(machineNames);
    }
    expect(statusWords({ ...view, status: 'done', state: 'done' })).toBe('done');
    expect(statusWords({ ...view, status: 'cancelled' })).toBe('cancelled');
    expect(statusWords({ ...view, status: 'asking', state: 'ask' })).toBe('waiting for an answer');
    expect(statusWords({ ...view, state: 'finish', cycles: 4 })).toBe('finishing: the planner writes the summary');
    expect(statusWords({ ...view, state: 'execute', cycles: 3 })).toBe('running step 4 of 4');
  });

  it('offers the approval for a proposed plan that a plain /approve would run, and says an unknown price plainly', () => {
    const body = renderStatus('mona', { ...proposed, costUsd: null });
    expect(body).toContain('@mona plan `0a1b2c3d` is **waiting for approval**.');
    expect(body).toContain('To run it, a maintainer replies `/approve 0a1b2c3d`');
    expect(body).toContain('unknown price');
    expect(body).not.toContain('approved by');
    expect(renderStatus('mona', { ...proposed, distinctApprover: true })).toContain(
      'To run it, a maintainer other than @mona replies `/approve 0a1b2c3d`',
    );
  });

  it('never offers an approval that would be refused: a blocked plan gets the reason and the fix instead', () => {
    const hold = {
      held: 'checks' as const,
      reason: 'plan `0a1b2c3d` has 1 blocking finding:\n- step 1: ".github/workflows/ci.yml" is protected',
      fix: 'To fix: adjust `protected-paths` and ask for the plan again with `/revise <feedback>`.',
    };
    const body = renderStatus('mona', { ...proposed, hold });
    expect(body).toContain('@mona plan `0a1b2c3d` is **blocked by checks**.');
    expect(body).toContain(`A plain \`/approve\` would be refused: ${hold.reason}\n\n${hold.fix}`);
    expect(body).not.toContain('To run it');
    const overBudget = renderStatus('mona', {
      ...proposed,
      hold: { held: 'cost', reason: 'over', fix: 'approve it anyway with `/approve --over-budget 0a1b2c3d`' },
    });
    expect(overBudget).toContain('is **over the cost ceiling**');
    expect(overBudget).not.toContain('`/approve 0a1b2c3d`');
    const advice = renderStatus('mona', { ...proposed, policy: 'plan-only' });
    expect(advice).toContain('is **advice only (the `plan-only` policy never runs it)**');
    expect(advice).not.toContain('/approve');
  });

  it('links the pull request and the note of a plan that is over', () => {
    const body = renderStatus('mona', {
      ...view,
      status: 'superseded',
      note: 'plan `ffffffff`',
      pullRequest: { number: 9, url: 'https://github.com/o/r/pull/9' },
    });
    expect(body).toContain('is **replaced by a newer plan** (plan `ffffffff`).');
    expect(body).toContain('pull request [#9](https://github.com/o/r/pull/9)');
  });
});
