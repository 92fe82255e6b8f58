import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Plan } from '../../src/machine/fields.js';
import type { Snapshot } from '../../src/machine/types.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';
import { decodeRunRecord, encodeRunRecord, type RunRecord } from '../../src/record/run-record.js';
import { formatElapsed, renderProgressComment, renderStepsNow, stepsDone } from '../../src/render/progress-comment.js';
import { renderPullRequestBody } from '../../src/render/pull-request.js';
import type { RunView } from '../../src/render/run-view.js';
import { makeRecord, makeRunView } from './record-fixture.js';

const start = Date.UTC(2026, 0, 5, 9, 0, 0);
/** A clock that reads what the test says, never the wall clock. */
const clockAt = (ms: number) => () => ms;

function snapshotWith(history: HistoryEntry[], extra: Partial<Snapshot> = {}): Snapshot {
  const planned = makeRecord().snapshot;
  return { ...planned, ...extra, context: { ...planned.context, history }, iteration: history.length };
}

function view(snapshot: Snapshot, extra: Partial<RunView> = {}): RunView {
  return makeRunView(snapshot, {
    runUrl: 'http://127.0.0.1/o/r/actions/runs/1',
    usage: summarizeUsage(
      addTurn(emptyUsage(), 'executor', 'gpt-4.1-mini', {
        promptTokens: 10_000,
        cachedTokens: 8_000,
        completionTokens: 500,
      }),
    ),
    ...extra,
  });
}

const statusLine = (body: string) => body.split('\n')[2] ?? '';
const count = (text: string, part: string) => text.split(part).length - 1;

describe('formatElapsed', () => {
  it.each([
    [0, '0 s'],
    [999, '0 s'],
    [59_999, '59 s'],
    [60_000, '1 min 0 s'],
    [12 * 60_000 + 5_000, '12 min 5 s'],
    [3_599_999, '59 min 59 s'],
    [3_600_000, '1 h 0 min'],
    [2 * 3_600_000 + 7 * 60_000 + 30_000, '2 h 7 min'],
  ])('%i ms reads as %s', (ms, text) => {
    expect(formatElapsed(ms)).toBe(text);
  });

  it('reads a negative or unknown span as 0 s rather than nonsense', () => {
    expect(formatElapsed(-5_000)).toBe('0 s');
    expect(formatElapsed(Number.NaN)).toBe('0 s');
  });
});

describe('progress comment: elapsed time and links', () => {
  it('shows the elapsed time from the injected clock next to the cost so far', () => {
    const body = renderProgressComment(view(snapshotWith([])), {
      startedAt: start,
      now: clockAt(start + 12 * 60_000 + 5_000),
    });
    expect(statusLine(body)).toContain('elapsed: 12 min 5 s · cost so far: $');
  });

  it('reads the clock at each render, so each update shows the time then', () => {
    let now = start + 30_000;
    const live = { startedAt: start, now: () => now };
    expect(renderProgressComment(view(snapshotWith([])), live)).toContain('elapsed: 30 s');
    now = start + 3 * 60_000;
    expect(renderProgressComment(view(snapshotWith([])), live)).toContain('elapsed: 3 min 0 s');
  });

  it('leaves the elapsed time out when no clock or start is given', () => {
    expect(renderProgressComment(view(snapshotWith([])))).not.toContain('elapsed:');
    expect(renderProgressComment(view(snapshotWith([])), { now: clockAt(start) })).not.toContain('elapsed:');
    expect(renderProgressComment(view(snapshotWith([])), { startedAt: start })).not.toContain('elapsed:');
  });

  it('links the job, the branch and the pull request', () => {
    const body = renderProgressComment(view(snapshotWith([]), { pullRequestUrl: 'http://127.0.0.1/o/r/pull/9' }), {
      branchUrl: 'http://127.0.0.1/o/r/tree/plangate/7-0a1b2c3d',
    });
    const line = statusLine(body);
    expect(line).toContain('[job](http://127.0.0.1/o/r/actions/runs/1)');
    expect(line).toContain('branch [`plangate/7-0a1b2c3d`](http://127.0.0.1/o/r/tree/plangate/7-0a1b2c3d)');
    expect(line).toContain('[pull request](http://127.0.0.1/o/r/pull/9)');
  });

  it('links the review threads the run was asked to address, on one short line', () => {
    const thread = (n: number) => ({
      url: `https://github.example/o/r/pull/9#discussion_r${n}`,
      path: 'src/a.js',
      line: n,
      author: 'rev',
      outdated: false,
    });
    const body = renderProgressComment(view(snapshotWith([]), { reviewThreads: [thread(1), thread(2)] }));
    expect(body).toContain(
      '**Review threads to address:** [`src/a.js:1`](https://github.example/o/r/pull/9#discussion_r1) · [`src/a.js:2`](https://github.example/o/r/pull/9#discussion_r2)',
    );
    const many = renderProgressComment(
      view(snapshotWith([]), { reviewThreads: Array.from({ length: 12 }, (_, i) => thread(i + 1)) }),
    );
    expect(count(many, '#discussion_r')).toBe(10);
    expect(many).toContain(' · and 2 more');
    expect(renderProgressComment(view(snapshotWith([])))).not.toContain('Review threads');
  });

  it('names the branch without a link when its URL is unknown', () => {
    const line = statusLine(renderProgressComment(view(snapshotWith([]))));
    expect(line).toContain('branch `plangate/7-0a1b2c3d`');
    expect(line).not.toContain('](http://127.0.0.1/o/r/tree');
  });
});

describe('progress comment: the header says how the run ended', () => {
  const cycle = (outcome: HistoryEntry['outcome']): HistoryEntry => ({ directive: 'do it', result: 'did it', outcome });

  it.each([
    ['running', {}, '### 🚀 Executing plan `0a1b2c3d`'],
    ['finished', { ended: { outcome: 'done' as const } }, '### ✅ Plan `0a1b2c3d` finished'],
    [
      'aborted',
      { ended: { outcome: 'aborted' as const, reason: 'cancelled by @bob' } },
      '### ⛔ Plan `0a1b2c3d` aborted',
    ],
    ['interrupted', { interrupted: 'the run was interrupted: push refused' }, '### ⚠️ Plan `0a1b2c3d` interrupted'],
  ])('%s', (_name, extra, header) => {
    const body = renderProgressComment(view(snapshotWith([cycle('replan')]), extra), {
      startedAt: start,
      now: clockAt(start + 90_000),
    });
    expect(body.split('\n')[0]).toBe(header);
    expect(body).toContain('elapsed: 1 min 30 s');
  });

  it('keeps an ended header over an interruption note', () => {
    const body = renderProgressComment(
      view(snapshotWith([cycle('done')]), {
        ended: { outcome: 'done' },
        interrupted: 'the pull request could not be opened',
      }),
    );
    expect(body.split('\n')[0]).toBe('### ✅ Plan `0a1b2c3d` finished');
  });
});

describe('progress comment: changes kept out of the commits', () => {
  const keptOut = [
    { path: '.github/workflows/evil.yml', change: 'added' as const, reason: 'protected by .github/workflows/**' },
    { path: 'vendor/<!-- x --> @octo`cat', change: 'added' as const, reason: 'a nested git repository' },
    { path: 'run.sh', change: 'mode' as const, reason: 'protected by *.sh' },
  ];

  it('lists each path with its change and reason in code spans, and leaves the section out when empty', () => {
    const body = renderProgressComment(view(snapshotWith([]), { keptOut }));
    const section = body.slice(body.indexOf('**Kept out of the commits**'), body.indexOf('**Plan**'));
    expect(section).toBe(
      [
        '**Kept out of the commits**',
        '',
        '- `.github/workflows/evil.yml` added: `protected by .github/workflows/**`',
        '- ``vendor/<!\u200b-- x --> @octo`cat`` added: `a nested git repository`',
        '- `run.sh` mode changed: `protected by *.sh`',
        '',
        '',
      ].join('\n'),
    );
    expect(body).not.toContain('<!-- x');
    expect(renderProgressComment(view(snapshotWith([])))).not.toContain('Kept out');
    expect(renderProgressComment(view(snapshotWith([]), { keptOut: [] }))).not.toContain('Kept out');
  });

  it('lists at most 50 and counts the rest', () => {
    const many = Array.from({ length: 73 }, (_, i) => ({
      path: `.GIT/f${String(i).padStart(2, '0')}`,
      change: 'added' as const,
      reason: 'a .git path',
    }));
    const body = renderProgressComment(view(snapshotWith([]), { keptOut: many }));
    expect(count(body, '- `.GIT/f')).toBe(50);
    expect(body).toContain('- `.GIT/f49` added: `a .git path`\n- and 23 more\n');
  });

  it('is kept in the checkpoint, so a resumed run still reports it; an unknown change is no checkpoint', () => {
    const base: RunRecord = { v: 1, planId: '0a1b2c3d', snapshot: snapshotWith([]), usage: emptyUsage(), runId: '1' };
    expect(decodeRunRecord(`progress\n${encodeRunRecord({ ...base, keptOut })}`)?.keptOut).toEqual(keptOut);
    const forged = { ...base, keptOut: [{ path: 'x', change: 'renamed', reason: 'y' }] } as unknown as RunRecord;
    expect(decodeRunRecord(`progress\n${encodeRunRecord(forged)}`)).toBeUndefined();
  });

  it('keeps a change held back for a credential marked as such through the checkpoint', () => {
    const base: RunRecord = { v: 1, planId: '0a1b2c3d', snapshot: snapshotWith([]), usage: emptyUsage(), runId: '1' };
    const held = {
      path: 'src/aws.js',
      change: 'added' as const,
      reason: 'holds a credential (aws/AWSAccessKeyID on line 2)',
      credential: true as const,
    };
    const both = [...keptOut, held];
    expect(decodeRunRecord(`progress\n${encodeRunRecord({ ...base, keptOut: both })}`)?.keptOut).toEqual(both);
  });
});

describe('run record: start time', () => {
  const base: RunRecord = { v: 1, planId: '0a1b2c3d', snapshot: snapshotWith([]), usage: emptyUsage(), runId: '1' };

  it('keeps the start time through the checkpoint, so a resumed run counts from its first start', () => {
    const decoded = decodeRunRecord(`progress\n${encodeRunRecord({ ...base, startedAt: start })}`);
    expect(decoded?.startedAt).toBe(start);
  });

  it('still reads a checkpoint written before start times were kept', () => {
    const decoded = decodeRunRecord(`progress\n${encodeRunRecord(base)}`);
    expect(decoded).toBeDefined();
    expect(decoded?.startedAt).toBeUndefined();
  });
});

describe('progress comment: steps run together', () => {
  /** Step 1, then 2, 3 and 4 together, then 5. */
  const graphPlan: Plan = {
    steps: [
      { title: 'Add the flag', files: ['src/flag.ts'] },
      { title: 'Document it', files: ['docs/flag.md'], after: [1] },
      { title: 'Test it', files: ['test/flag.test.ts'], after: [1] },
      { title: 'Note it', files: ['CHANGELOG.md'], after: [1] },
      { title: 'Release it', files: ['package.json'], after: [2, 3, 4] },
    ],
  };
  const stepEntry = (step: number, outcome: HistoryEntry['outcome'], together?: number[]): HistoryEntry => ({
    directive: `Carry out step ${step}`,
    result: 'finished',
    outcome,
    step,
    ...(together ? { together } : {}),
  });
  const graphSnapshot = (history: HistoryEntry[]): Snapshot => {
    const planned = snapshotWith(history);
    return { ...planned, state: 'execute', context: { ...planned.context, plan: graphPlan } };
  };
  const ticked = (body: string) => [...body.matchAll(/^- \[x\] \*\*(\d+)\./gm)].map((m) => Number(m[1]));

  it('says which steps run now, which are done and which wait, under the status line', () => {
    const steps = { running: [2, 3, 4], done: [1], waiting: [5] };
    const body = renderProgressComment(view(graphSnapshot([stepEntry(1, 'done')]), { steps }));
    const lines = body.split('\n');
    expect(lines.slice(3, 5)).toEqual(['', 'Steps running now: 2, 3, 4 · done: 1 · waiting: 5']);
    expect(renderStepsNow({ running: [2, 3], done: [], waiting: [] })).toBe('Steps running now: 2, 3');
    expect(renderStepsNow({ running: [], done: [1, 2, 3, 4], waiting: [5] })).toBe(
      'Steps running now: none · done: 1, 2, 3, 4 · waiting: 5',
    );
  });

  it('leaves the line out when the host gives no steps, and once the run has ended', () => {
    const steps = { running: [2], done: [1], waiting: [] };
    expect(renderProgressComment(view(graphSnapshot([])))).not.toContain('Steps running now');
    const ended = view(graphSnapshot([stepEntry(1, 'done')]), { steps, ended: { outcome: 'aborted', reason: 'x' } });
    expect(renderProgressComment(ended)).not.toContain('Steps running now');
  });

  it('ticks exactly the steps the cycles finished, each once, however they are ordered', () => {
    const history = [
      stepEntry(1, 'done'),
      stepEntry(2, 'done', [2, 3, 4]),
      stepEntry(3, 'replan', [2, 3, 4]),
      stepEntry(4, 'done', [2, 3, 4]),
      stepEntry(4, 'done'),
    ];
    const running = view(graphSnapshot(history));
    expect(stepsDone(running)).toEqual(new Set([1, 2, 4]));
    expect(ticked(renderProgressComment(running))).toEqual([1, 2, 4]);
    expect(ticked(renderPullRequestBody(running))).toEqual([1, 2, 4]);
    // A finished run ticks them all, as before.
    expect(stepsDone(view(graphSnapshot(history), { ended: { outcome: 'done' } }))).toBe(5);
  });

  it('lists each cycle with its step and the steps that ran with it', () => {
    const body = renderProgressComment(view(graphSnapshot([stepEntry(1, 'done'), stepEntry(2, 'done', [2, 3])])));
    expect(body).toContain(
      '**Cycles**\n\n1. step 1 · done: Carry out step 1\n2. step 2 (ran with step 3) · done: Carry out step 2',
    );
  });

  it('ticks steps in order, one per finished cycle, for cycles that name no step', () => {
    const plain = (outcome: HistoryEntry['outcome']): HistoryEntry => ({ directive: 'd', result: 'r', outcome });
    const running = view(graphSnapshot([plain('replan'), plain('abort'), plain('replan')]));
    expect(stepsDone(running)).toBe(2);
    expect(ticked(renderProgressComment(running))).toEqual([1, 2]);
  });
});
