import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Plan } from '../../src/machine/fields.js';
import type { Snapshot } from '../../src/machine/types.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';
import { historyChunkLimit, renderCycle, renderHistory, renderHistoryChunks } from '../../src/render/history.js';
import { githubBodyLimit } from '../../src/text/limits.js';
import { renderPlan, renderPlanWithin } from '../../src/render/plan-comment.js';
import { pullRequestHistoryFits, renderPullRequestBody } from '../../src/render/pull-request.js';
import type { RunView } from '../../src/render/run-view.js';
import { renderSummaryDetails } from '../../src/render/summary-details.js';
import { expectPostable, makeRecord, makeRunView, planComment } from './record-fixture.js';
import { noise } from '../helpers/noise.js';

const count = (text: string, part: string) => text.split(part).length - 1;

/** A long but ordinary plan: the kind a planner writes for a sweeping refactor. */
function longPlan(
  steps: number,
  detail = (i: number) =>
    `Move the helpers of module ${i} into src/lib/module-${i}.ts and update every import of them.`,
): Plan {
  return {
    steps: Array.from({ length: steps }, (_, i) => ({
      title: `Refactor module ${i + 1}`,
      detail: detail(i),
      files: [`src/module-${i + 1}.ts`, `src/lib/module-${i + 1}.ts`],
      verify: 'npm test',
    })),
    assumptions: ['The test suite covers every module.'],
    risks: ['Circular imports may surface.'],
  };
}

const cycle = (i: number, result = `Moved the helpers of module ${i}; tests pass.`): HistoryEntry => ({
  directive: `Carry out step ${i}: move the helpers of module ${i}.`,
  result,
  outcome: 'replan',
});

function view(plan: Plan, history: HistoryEntry[], extra: Partial<RunView> = {}): RunView {
  const planned = makeRecord({ plan }).snapshot;
  const snapshot: Snapshot = {
    ...planned,
    state: 'done',
    context: { ...planned.context, history, summary: 'Refactored what the run reached.' },
  };
  return makeRunView(snapshot, {
    usage: summarizeUsage(
      addTurn(emptyUsage(), 'executor', 'gpt-4.1', { promptTokens: 1000, cachedTokens: 0, completionTokens: 100 }),
    ),
    ended: { outcome: 'aborted', reason: 'reached max-cost-usd ($5; spent $5.02)' },
    ...extra,
  });
}

/** The number a steps notice names, e.g. "Only the first 37 of 400 steps". */
const shownCount = (body: string) => Number(/Only the first (\d+) of \d+ steps/.exec(body)?.[1] ?? NaN);

describe('history chunks', () => {
  it('has nothing to post for an empty history', () => {
    expect(renderHistoryChunks([], '0a1b2c3d')).toEqual([]);
  });

  it('puts a short history in one part with every cycle whole', () => {
    const history = [cycle(1), cycle(2, noise(9_000))];
    const chunks = renderHistoryChunks(history, '0a1b2c3d');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.startsWith('### History of plan `0a1b2c3d`, part 1 of 1\n\n#### Cycle 1: next step')).toBe(true);
    // Whole here, unlike in the pull request body, which clips each result.
    expect(chunks[0]).toContain(noise(9_000));
    expect(renderHistory(history)).not.toContain(noise(9_000));
    expect(chunks[0]?.endsWith('<!-- plangate:history 0a1b2c3d part 1 -->')).toBe(true);
  });

  it('splits a long history between cycles, never inside one, each part under the limit', () => {
    const history = Array.from({ length: 100 }, (_, i) => cycle(i + 1, noise(3_000 + 97 * i, i + 1)));
    const chunks = renderHistoryChunks(history, '0a1b2c3d');
    expect(chunks.length).toBeGreaterThan(5);
    chunks.forEach((chunk, i) => {
      expect(chunk.length).toBeLessThanOrEqual(historyChunkLimit);
      expect(chunk.startsWith(`### History of plan \`0a1b2c3d\`, part ${i + 1} of ${chunks.length}\n\n`)).toBe(true);
      expect(chunk).not.toContain('were cut here');
    });
    // Every cycle appears exactly once, whole, and in order across the parts.
    const all = chunks.join('\n');
    history.forEach((entry, i) => {
      expect(count(all, `#### Cycle ${i + 1}: next step\n`)).toBe(1);
      expect(all).toContain(renderCycle(entry, i));
    });
    const order = history.map((_, i) => all.indexOf(`#### Cycle ${i + 1}: next step\n`));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Parts are filled: moving the next part's first cycle back would have broken the limit.
    for (let i = 0; i + 1 < chunks.length; i++) {
      const next = Number(/#### Cycle (\d+):/.exec(chunks[i + 1] ?? '')?.[1]);
      expect(
        (chunks[i]?.length ?? 0) + 2 + renderCycle(history[next - 1] as HistoryEntry, next - 1).length,
      ).toBeGreaterThan(historyChunkLimit);
    }
  });

  it('cuts only a cycle too large for any part, saying how much and where the full text is', () => {
    const huge = {
      directive: `Rewrite the parser.\n${noise(5_000, 7)}`,
      result: noise(150_000, 8),
      outcome: 'replan' as const,
    };
    const history = [cycle(1), huge, cycle(3)];
    const chunks = renderHistoryChunks(history, '0a1b2c3d');
    expect(chunks.every((c) => c.length <= historyChunkLimit)).toBe(true);
    const cut = chunks.find((c) => c.includes('#### Cycle 2:')) ?? '';
    const notice =
      /> (\d{1,3}(?:,\d{3})*) characters of cycle 2 were cut here to fit GitHub's size limit; the full text is in the job summary\./.exec(
        cut,
      );
    expect(notice).not.toBeNull();
    // What was kept plus what the notice reports is the whole cycle: the notice is exact.
    const omitted = Number(notice?.[1]?.replace(/,/g, ''));
    const reported = Array.from(cut.matchAll(/ … \[(\d+) more characters\]/g), (m) => Number(m[1]));
    expect(reported.reduce((a, b) => a + b, 0)).toBe(omitted);
    // The short directive is kept whole; the result gives way, and both fences still close.
    expect(cut).toContain(huge.directive);
    expect(count(cut, '```text\n')).toBe(2);
    expect(cut.split('\n').filter((line) => line === '```')).toHaveLength(2);
    // The neighbours are untouched.
    expect(chunks.join('\n')).toContain(renderCycle(cycle(1), 0));
    expect(chunks.join('\n')).toContain(renderCycle(cycle(3), 2));
  });

  it('holds every limit it is given, even with fences and comment openers that grow when rendered', () => {
    const tricky = (i: number) => ({
      directive: `\`\`\`\`\`\n${'<!-- '.repeat(200)}${noise(2_000, i)}`,
      result: `${'<!--'.repeat(500)}${noise(20_000, i + 50)}`,
      outcome: 'abort' as const,
    });
    const history = Array.from({ length: 12 }, (_, i) => tricky(i + 1));
    for (const limit of [1_500, 4_000, 9_999, 25_000, 60_000]) {
      const chunks = renderHistoryChunks(history, 'ffffffff', limit);
      for (const chunk of chunks) expect(chunk.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
      expect(count(chunks.join('\n'), '#### Cycle '), `limit ${limit}`).toBe(12);
    }
  });

  it('refuses a limit that cannot hold a heading', () => {
    expect(() => renderHistoryChunks([cycle(1)], '0a1b2c3d', 50)).toThrow(/cannot hold/);
  });
});

describe('plan within a size', () => {
  const notice = (shown: number, total: number) => `Only the first ${shown} of ${total} steps are shown here.`;

  it('returns the whole plan when it fits', () => {
    const plan = longPlan(3);
    expect(renderPlanWithin(plan, 100_000, notice)).toBe(renderPlan(plan));
  });

  it('drops whole steps from the end and names how many it shows', () => {
    const plan = longPlan(400);
    const text = renderPlanWithin(plan, 10_000, notice, 2);
    expect(text.length).toBeLessThanOrEqual(10_000);
    const shown = shownCount(text);
    expect(shown).toBeGreaterThan(10);
    expect(count(text, '- [')).toBe(shown);
    expect(count(text, '- [x]')).toBe(2);
    expect(text).toContain(`**${shown}. Refactor module ${shown}**`);
    expect(text).not.toContain(`**${shown + 1}. `);
    expect(text).toContain('**Risks**');
  });
});

describe('plan comment with a 400-step plan', () => {
  it('stays under the limit with its record intact, showing the steps that fit and saying how many', () => {
    const record = makeRecord({ plan: longPlan(400) });
    const body = planComment(record);
    expectPostable(body, record);
    const shown = shownCount(body);
    expect(shown).toBeGreaterThan(50);
    expect(shown).toBeLessThan(400);
    expect(body).toContain(`Only the first ${shown} of 400 steps are shown here`);
    expect(body).toContain(
      'approving it approves them all; the job summary of the run that posted it lists every one.',
    );
    expect(count(body, '- [ ] **')).toBe(shown);
    // Cut between steps, never with a mid-body cut.
    expect(body).not.toContain('characters were cut here');
    // The status and the approve command survive beside the record.
    expect(body).toContain(`    /approve ${record.planId}`);
  });

  it('gives the visible plan up to a record too large for half a body, instead of refusing to post', () => {
    const record = makeRecord({ plan: longPlan(400, (i) => noise(90, i + 1)) });
    const marker = /<!-- plangate:record v1 [A-Za-z0-9_-]+ -->$/.exec(planComment(record))?.[0] ?? '';
    expect(marker.length).toBeGreaterThan(githubBodyLimit / 2);
    const body = planComment(record);
    expectPostable(body, record);
    const shown = shownCount(body);
    expect(shown).toBeGreaterThan(0);
    expect(count(body, '- [ ] **')).toBe(shown);
  });

  it('still refuses a record that cannot fit in a body at all', () => {
    const record = makeRecord({ plan: longPlan(400, (i) => noise(400, i + 1)) });
    expect(() => planComment(record)).toThrow(/too large to post/);
  });
});

describe('pull request body with a long story', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => cycle(i + 1, noise(2_500, i + 1)));

  it('stays under the limit with a 400-step plan and 100 cycles, pointing to the full history', () => {
    const v = view(longPlan(400), hundred);
    expect(pullRequestHistoryFits(v)).toBe(false);
    const body = renderPullRequestBody(v, { fullHistoryIn: 'comments' });
    expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(body).toContain('> [!NOTE]\n> The full history is in the comments below (100 cycles); in short:');
    // The short history still names every cycle, and nothing was cut mid-body.
    expect(body).toContain('1. next step: Carry out step 1');
    expect(body).toContain('100. next step: Carry out step 100');
    expect(body).not.toContain('characters were cut here');
    const shown = shownCount(body);
    expect(shown).toBeGreaterThan(10);
    expect(body).toContain(`Only the first ${shown} of 400 steps are shown here`);
    for (const heading of ['## Objective', '## Plan', '## Summary', '## History', '## Usage'])
      expect(count(body, `\n${heading}\n`)).toBe(1);
    expect(body).toContain('Refactored what the run reached.');
    expect(body).toContain('> The run aborted: reached max-cost-usd ($5; spent $5.02).');
    expect(body.endsWith('<!-- plangate:pr 0a1b2c3d -->')).toBe(true);
  });

  it('points to the job summary by default, linking the run', () => {
    const body = renderPullRequestBody(view(longPlan(3), hundred));
    expect(body).toContain(
      '> The full history is in the [job summary](http://127.0.0.1/run/1) (100 cycles); in short:',
    );
    expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
    // A short plan is never cut to make room for a history that has left anyway.
    expect(body).toContain(renderPlan(longPlan(3), 3));
  });

  it('keeps a history that fits, cutting a long plan first', () => {
    const history = hundred.slice(0, 5);
    const v = view(longPlan(400), history);
    expect(pullRequestHistoryFits(v)).toBe(true);
    const body = renderPullRequestBody(v);
    expect(body.length).toBeLessThanOrEqual(githubBodyLimit);
    expect(body).toContain(renderHistory(history));
    expect(body).not.toContain('The full history is in');
    expect(shownCount(body)).toBeGreaterThan(50);
  });

  it('reads as before when everything fits', () => {
    const v = view(longPlan(3), hundred.slice(0, 2));
    expect(pullRequestHistoryFits(v)).toBe(true);
    const body = renderPullRequestBody(v);
    // Two finished cycles tick two steps.
    expect(body).toContain(`## Plan\n\n${renderPlan(longPlan(3), 2)}\n\n## Summary`);
    expect(body).toContain(`## History\n\n${renderHistory(hundred.slice(0, 2))}\n\n## Usage`);
    expect(body).not.toContain('[!NOTE]');
  });
});

describe('job summary details', () => {
  it('carries every step and every cycle unclipped', () => {
    const plan = longPlan(400);
    const history = [cycle(1, noise(50_000, 3)), cycle(2)];
    const details = renderSummaryDetails({ plan, history });
    expect(details).toContain(renderPlan(plan));
    expect(details).toContain(noise(50_000, 3));
    expect(details).toContain('#### Cycle 2: next step');
  });

  it('stays within its byte budget, dropping whole cycles from the end and saying so', () => {
    // Three bytes a character: the budget is in bytes, as GitHub counts it.
    const history = Array.from({ length: 10 }, (_, i) => cycle(i + 1, '€'.repeat(10_000)));
    const details = renderSummaryDetails({ plan: longPlan(2), history }, 100_000);
    expect(Buffer.byteLength(details, 'utf8')).toBeLessThanOrEqual(100_000);
    const kept = count(details, '#### Cycle ');
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(10);
    expect(details).toContain(
      `> Only the first ${kept} of 10 cycles fit in the job summary, which GitHub caps at 1 MiB.`,
    );
    expect(details).toContain('**2. Refactor module 2**');
  });
});
