import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/machine/fields.js';
import type { Snapshot } from '../../src/machine/types.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';
import { decodeRunRecord, encodeRunRecord, type RunRecord } from '../../src/record/run-record.js';
import { formatElapsed, renderProgressComment } from '../../src/render/progress-comment.js';
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
