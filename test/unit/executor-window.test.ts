import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WorkshopFacts } from '../../src/agents/context-text.js';
import { drive } from '../../src/agents/drive.js';
import { executorMessage, executorSystemPrompt } from '../../src/agents/executor.js';
import { EXECUTOR_WINDOW_CYCLES, ExecutorSessions } from '../../src/agents/executor-window.js';
import { RunState } from '../../src/agents/run-state.js';
import { Session } from '../../src/agents/session.js';
import { createTeam } from '../../src/agents/team.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import type { Snapshot } from '../../src/machine/types.js';
import { createChatClient } from '../../src/models/chat-client.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { cacheEfficiency, groupSessions, prefixOf } from '../fakes/prefix-efficiency.js';
import { countTokens, reportableCachedTokens, serializePrompt } from '../fakes/prompt-cache.js';
import { startScriptedModel, toolCall, type RecordedRequest, type Reply } from '../fakes/scripted-model.js';
import { coreLog, resetCoreLog } from '../helpers/core-mock.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';

/**
 * The executor's session window: a session carries over for EXECUTOR_WINDOW_CYCLES cycles, then the
 * next cycle opens a compacted session, whose opening keeps the frozen prefix and the first opening's
 * bytes and replaces the earlier cycles' transcripts with their recorded results.
 */

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

const facts: WorkshopFacts = { executorTools: ['edit_file', 'read_file', 'update_context', 'write_file'] };
const stepsPlan = (n: number): Plan => ({
  steps: Array.from({ length: n }, (_, i) => ({ title: `Write notes/${i + 1}.md`, files: [`notes/${i + 1}.md`] })),
});
const directive = (k: number) => `Write notes/${k}.md with one line: note ${k}.`;
const result = (k: number) => `Wrote notes/${k}.md (1 line).`;

/** A snapshot in execute after `done` cycles, each recorded in the history. */
function executing(done: number, plan: Plan = stepsPlan(5)): Snapshot {
  const snapshot = initialSnapshot('Write five notes', defaultPolicy);
  return {
    ...snapshot,
    state: 'execute',
    iteration: done,
    context: {
      ...snapshot.context,
      plan,
      directive: directive(done + 1),
      history: Array.from({ length: done }, (_, i) => ({
        directive: directive(i + 1),
        result: result(i + 1),
        outcome: 'replan' as const,
      })),
    },
  };
}

describe('ExecutorSessions', () => {
  it('carries one session over for the window, then opens a new one, and tells what each was shown', () => {
    const opened: Session[] = [];
    const sessions = new ExecutorSessions(() => {
      opened.push(new Session('executor', executorSystemPrompt, []));
      return opened.at(-1) as Session;
    });
    const a = stepsPlan(2);
    const b = stepsPlan(3);
    const turns = [a, a, b, b, a].map((plan) => sessions.next(plan));
    expect(EXECUTOR_WINDOW_CYCLES).toBe(3);
    expect(turns.map((t) => t.fresh)).toEqual([true, false, false, true, false]);
    expect(turns.map((t) => opened.indexOf(t.session))).toEqual([0, 0, 0, 1, 1]);
    // A new session has been shown nothing; a continuing one the plan of its previous cycle.
    expect(turns.map((t) => t.shown)).toEqual([undefined, a, a, undefined, b]);
  });

  it('takes its window as a parameter', () => {
    const sessions = new ExecutorSessions(() => new Session('executor', executorSystemPrompt, []), 1);
    expect([1, 2, 3].map(() => sessions.next(undefined).fresh)).toEqual([true, true, true]);
  });
});

describe('executor messages in a window', () => {
  it('shows a continuing session the plan only when a replan changed it', () => {
    const plan = stepsPlan(5);
    const same = executorMessage(executing(1, plan), facts, false, { began: plan, shown: plan });
    expect(same).toBe(`## Directive (cycle 2)\n\n${directive(2)}\n\n${lastLine(same)}`);
    const revised = stepsPlan(6);
    const changed = executorMessage(executing(1, revised), facts, false, { began: plan, shown: plan });
    expect(changed.startsWith('## Revised plan (in force now)')).toBe(true);
    expect(changed).toContain('6. Write notes/6.md');
    expect(changed.indexOf('## Directive (cycle 2)')).toBeGreaterThan(changed.indexOf('6. Write notes/6.md'));
  });

  it('opens a compacted session like the first one, with the recorded results after the plan', () => {
    const plan = stepsPlan(5);
    const first = executorMessage(executing(0, plan), facts, true, { began: plan });
    const compacted = executorMessage(executing(3, plan), facts, true, { began: plan });
    expect(first).not.toContain('## History');
    const history = compacted.indexOf('\n\n## History');
    expect(history).toBeGreaterThan(compacted.indexOf('5. Write notes/5.md'));
    // Byte for byte the first opening up to its directive, so the provider serves it from the cache.
    expect(compacted.slice(0, history)).toBe(first.slice(0, first.indexOf('\n\n## Directive')));
    for (let k = 1; k <= 3; k++) {
      expect(compacted).toContain(
        `### Cycle ${k} (outcome: replan)\n\nDirective:\n${directive(k)}\n\nResult:\n${result(k)}`,
      );
    }
    expect(compacted.indexOf('## Directive (cycle 4)')).toBeGreaterThan(compacted.indexOf(result(3)));
    expect(compacted).not.toContain('## Revised plan');
    // A revision made before the compaction follows the history, as in the planner's messages.
    const revised = executorMessage(executing(3, stepsPlan(6)), facts, true, { began: plan });
    expect(revised.slice(0, history)).toBe(compacted.slice(0, history));
    expect(revised.indexOf('## Revised plan (in force now)')).toBeGreaterThan(revised.indexOf(result(3)));
  });
});

const lastLine = (text: string) => text.split('\n').at(-1);

describe('a run longer than the window, on the wire', () => {
  let workspace: string;
  beforeEach(() => {
    resetCoreLog();
    workspace = makeRepo({ 'README.md': '# notes\n' });
  });
  afterEach(() => removeDir(workspace));

  it('compacts the executor after three cycles: append-only sessions, one prefix, the cycles as results', async () => {
    const cycles = 5;
    const stage = (fields: Record<string, unknown>): Reply => toolCall('update_context', fields);
    const planner: Reply[] = [stage({ plan: stepsPlan(cycles), directive: directive(1) })];
    const executor: Reply[] = [];
    for (let k = 1; k <= cycles; k++) {
      executor.push(
        toolCall('write_file', { path: `notes/${k}.md`, content: `note ${k}\n` }),
        stage({ result: result(k), outcome: k < cycles ? 'replan' : 'done' }),
      );
      planner.push(k < cycles ? stage({ directive: directive(k + 1) }) : stage({ summary: 'Five notes.' }));
    }
    const server = await startScriptedModel({ script: { planner, executor }, apiKey: 'sk-window' });
    try {
      const endpoint = (model: string) => ({ model, baseURL: server.url, apiKey: 'sk-window' });
      const run = new RunState(plannerExecutorMachine, initialSnapshot('Write five notes', defaultPolicy));
      const team = createTeam({
        run,
        planner: createChatClient('planner', endpoint('planner'), { maxRetries: 0 }),
        executor: createChatClient('executor', endpoint('executor'), { maxRetries: 0 }),
        sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
        allowedCommands: [],
        protectedPaths: ['.github/workflows/**'],
        commandTimeoutMs: 60_000,
        stallLimit: 8,
        onUsage: () => undefined,
      });
      const final = await drive(run, team);
      expect(final.state).toBe('done');
      expect(final.context.history).toHaveLength(cycles);
      expect(server.remaining()).toEqual({ planner: 0, executor: 0 });

      const roleOf = (r: RecordedRequest): Role => (r.model === 'planner' ? 'planner' : 'executor');
      const sessions = groupSessions(server.requests, roleOf).filter((s) => s.role === 'executor');
      // Three cycles of two requests, then two cycles in the compacted session.
      expect(sessions.map((s) => s.requests.length)).toEqual([6, 4]);
      const executorRequests = sessions.flatMap((s) => s.requests);
      expect(new Set(executorRequests.map(prefixOf)).size).toBe(1);
      for (const session of sessions) {
        session.requests.forEach((after, i) => {
          const before = session.requests[i - 1];
          if (before) expect(after.messages.slice(0, before.messages.length)).toEqual(before.messages);
        });
      }
      const [first, compacted] = sessions.map((s) => s.requests[0] as RecordedRequest) as [
        RecordedRequest,
        RecordedRequest,
      ];
      expect(compacted.messages).toHaveLength(2);
      const opening = String(compacted.messages[1]?.content);
      for (let k = 1; k <= 3; k++) expect(opening).toContain(`Result:\n${result(k)}`);
      expect(opening).not.toContain(result(4));
      expect(opening).toContain(`## Directive (cycle 4)\n\n${directive(4)}`);
      // It repeats the first opening up to its history, so the provider serves that from its cache.
      const firstText = String(first.messages[1]?.content);
      const shared = firstText.slice(0, firstText.indexOf('\n\n## Directive'));
      expect(opening.startsWith(shared)).toBe(true);
      const frozen = countTokens(serializePrompt(compacted.tools, compacted.messages.slice(0, 1)));
      const sharedTokens = frozen + Math.floor(`message:{"content":${JSON.stringify(shared).slice(0, -1)}`.length / 4);
      expect(compacted.usage?.prompt_tokens_details.cached_tokens).toBeGreaterThanOrEqual(
        reportableCachedTokens(sharedTokens),
      );
      // The layout leaves nothing achievable uncached, and the run's own checks see no broken prefix.
      const efficiency = cacheEfficiency(groupSessions(server.requests, roleOf));
      expect(efficiency.reported).toBe(efficiency.achievable);
      expect(coreLog.warnings.filter((w) => w.includes('prefix broken'))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
