import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/machine/fields.js';
import type { Snapshot } from '../../src/machine/types.js';
import type { ServerFailure } from '../../src/mcp/hub.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';
import { renderHistory } from '../../src/render/history.js';
import { githubBodyLimit } from '../../src/text/limits.js';
import { renderProgressComment } from '../../src/render/progress-comment.js';
import { renderServerFailures } from '../../src/render/server-failures.js';
import { pullRequestHistoryFits, renderPullRequestBody } from '../../src/render/pull-request.js';
import type { RunView } from '../../src/render/run-view.js';
import { makeRecord, makeRunView } from './record-fixture.js';
import { noise } from '../helpers/noise.js';

/**
 * MCP servers that did not start for an execution: the progress comment and the pull request name
 * each in one short line, as the plan comment does for planning, and the body's sizing counts them.
 */

const broken: ServerFailure = {
  server: 'broken',
  reason: 'the command "plangate-no-such-mcp-server-command" was not found',
};
const docs: ServerFailure = {
  server: 'docs',
  reason: "the environment variable DOCS_API_KEY is not set; set it in the workflow step's env:",
};

function view(history: HistoryEntry[] = [], extra: Partial<RunView> = {}): RunView {
  const planned = makeRecord().snapshot;
  const snapshot: Snapshot = {
    ...planned,
    state: 'done',
    context: { ...planned.context, history, summary: 'Did the work.' },
    iteration: history.length,
  };
  return makeRunView(snapshot, {
    usage: summarizeUsage(
      addTurn(emptyUsage(), 'executor', 'gpt-4.1-mini', { promptTokens: 1000, cachedTokens: 0, completionTokens: 100 }),
    ),
    ended: { outcome: 'done' },
    ...extra,
  });
}

/** A history of about `chars` characters of results, in cycles small enough not to be clipped. */
function historyOf(chars: number): HistoryEntry[] {
  const history: HistoryEntry[] = [];
  for (let left = chars, i = 1; left > 0; i++) {
    const length = Math.min(5_000, left);
    history.push({ directive: `Carry out step ${i}.`, result: noise(length, i), outcome: 'replan' });
    left -= length;
  }
  return history;
}

describe('renderServerFailures', () => {
  it('is empty when every server started', () => {
    expect(renderServerFailures([], 'this run')).toBe('');
  });

  it('names one server in one line under a warning', () => {
    expect(renderServerFailures([broken], 'this run')).toBe(
      [
        '> [!WARNING]',
        '> An MCP server did not start, so this run went on without it:',
        '> - `broken`: `the command "plangate-no-such-mcp-server-command" was not found`',
      ].join('\n'),
    );
  });

  it('speaks of several servers in the plural, one line each', () => {
    const lines = renderServerFailures([broken, docs], 'this run').split('\n');
    expect(lines[1]).toBe('> MCP servers did not start, so this run went on without them:');
    expect(lines.slice(2)).toEqual([
      '> - `broken`: `the command "plangate-no-such-mcp-server-command" was not found`',
      "> - `docs`: `the environment variable DOCS_API_KEY is not set; set it in the workflow step's env:`",
    ]);
  });

  it('names at most ten and counts the rest', () => {
    const many = Array.from({ length: 12 }, (_, i) => ({
      server: `s${String(i).padStart(2, '0')}`,
      reason: 'no answer in time',
    }));
    const lines = renderServerFailures(many, 'this run').split('\n');
    expect(lines.filter((l) => l.startsWith('> - `s'))).toHaveLength(10);
    expect(lines.at(-1)).toBe('> - and 2 more (see the job log)');
  });

  it("keeps a server's words inside a code span, on one line and clipped", () => {
    const text = renderServerFailures(
      [{ server: 'chatty', reason: `@octocat <!-- hide --> \`x\`\nsecond line ${'y'.repeat(1_000)}` }],
      'this run',
    );
    const line = text.split('\n')[2] ?? '';
    expect(text.split('\n')).toHaveLength(3);
    // No raw comment opener, and the mention sits inside the span, where GitHub does not link it.
    expect(line).not.toContain('<!--');
    expect(line).toMatch(
      /^> - `chatty`: ``@octocat <!\u200b-- hide --> `x` second line y+ … \[\d+ more characters\]``$/,
    );
    expect(line.length).toBeLessThan(440);
  });
});

describe('progress comment', () => {
  it('shows the failed servers right under the facts line', () => {
    const body = renderProgressComment(view([], { ended: undefined }), { serverFailures: [broken] });
    const lines = body.split('\n');
    expect(lines[0]).toBe('### 🚀 Executing plan `0a1b2c3d`');
    expect(lines.slice(3, 7)).toEqual([
      '',
      '> [!WARNING]',
      '> An MCP server did not start, so this run went on without it:',
      '> - `broken`: `the command "plangate-no-such-mcp-server-command" was not found`',
    ]);
  });

  it('shows no warning when every server started, or none is configured', () => {
    expect(renderProgressComment(view(), { serverFailures: [] })).not.toContain('[!WARNING]');
    expect(renderProgressComment(view())).not.toContain('did not start');
  });
});

describe('pull request body', () => {
  it('names the failed servers before the objective', () => {
    const body = renderPullRequestBody(view(historyOf(100)), { serverFailures: [broken, docs] });
    const warning = body.indexOf('> MCP servers did not start, so this run went on without them:');
    expect(warning).toBeGreaterThan(body.indexOf('approved by @alice'));
    expect(warning).toBeLessThan(body.indexOf('## Objective'));
    expect(body).toContain('> - `docs`: `the environment variable DOCS_API_KEY is not set');
    expect(renderPullRequestBody(view(historyOf(100)))).not.toContain('did not start');
  });

  it('counts the warning when it decides whether the history fits', () => {
    const failures = Array.from({ length: 10 }, (_, i) => ({ server: `server-${i}`, reason: noise(400, i + 1) }));
    const fits = (chars: number, sizing = {}) => pullRequestHistoryFits(view(historyOf(chars)), sizing);
    // The longest history that fits beside the warning, found by bisection.
    let low = 0;
    let high = 200_000;
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (fits(middle, { serverFailures: failures })) low = middle;
      else high = middle;
    }
    expect(low).toBeGreaterThan(10_000);
    const history = historyOf(low);
    const body = renderPullRequestBody(view(history), { serverFailures: failures });
    expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(body).toContain(renderHistory(history));
    expect(body).toContain('> - `server-9`: `');
    expect(body).not.toContain('characters were cut here');
    // One character more leaves the body; without the warning it would still have fit.
    expect(fits(low + 1, { serverFailures: failures })).toBe(false);
    expect(fits(low + 1)).toBe(true);
    const moved = renderPullRequestBody(view(historyOf(low + 1)), {
      serverFailures: failures,
      fullHistoryIn: 'comments',
    });
    expect(moved.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(moved).toContain('The full history is in the comments below');
    expect(moved).toContain('> MCP servers did not start');
  });
});
