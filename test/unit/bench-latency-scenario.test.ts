import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { directive } from '../../bench/scenarios.js';
import {
  LATENCY_STEPS,
  executorReply,
  latencyPlan,
  plannerReply,
  sessionPoint,
  stepOf,
} from '../../bench/latency-scenario.js';
import { executorMessage, stepMessage } from '../../src/agents/executor.js';
import { plannerMessage } from '../../src/agents/planner.js';
import type { HistoryEntry } from '../../src/machine/fields.js';
import { defaultPolicy } from '../../src/machine/planner-executor.js';
import { stepDirective } from '../../src/run/step-batch.js';
import { startSnapshot } from '../../src/machine/start-snapshot.js';
import type { StateName } from '../../src/machine/types.js';
import type { CompletionReply, RecordedRequest, Reply } from '../fakes/scripted-model.js';

// The latency scenario's scripted model answers each request from what it holds, so sessions that
// run at the same time are answered right in whatever order their requests arrive. Its messages
// here are the agents' own (src/agents), built from the scenario's plan.

const facts = { executorTools: ['read_file', 'write_file', 'run_command', 'update_context'] };
const objective = 'Add the step helpers described in this issue.';
const wrote = (k: number) => `Wrote src/step-${k}.js with twelve helpers; node --check exits 0.`;
const historyOf = (steps: number[]): HistoryEntry[] =>
  steps.map((k) => ({ directive: directive(k), result: wrote(k), outcome: 'done', step: k }));

function snapshot(state: StateName, ordered: boolean, history: HistoryEntry[], next?: number) {
  return startSnapshot(
    state,
    {
      objective,
      plan: latencyPlan(ordered),
      history,
      ...(next === undefined ? {} : { directive: directive(next) }),
    },
    defaultPolicy,
  );
}

const system: ChatCompletionMessageParam = { role: 'system', content: 'You are the executor of plangate.' };
const user = (content: string): ChatCompletionMessageParam => ({ role: 'user', content });

let index = 0;
function request(model: string, messages: ChatCompletionMessageParam[]): RecordedRequest {
  return {
    index: ++index,
    model,
    messages,
    tools: [],
    body: {},
    headers: {},
    authMatched: null,
    status: null,
    usage: null,
    receivedAtMs: 0,
    answeredAtMs: null,
  };
}

/** A session's transcript after the model took `reply`: its tool call and the call's result. */
function take(messages: ChatCompletionMessageParam[], reply: Reply): ChatCompletionMessageParam[] {
  const call = (reply as CompletionReply).toolCalls?.[0];
  return [
    ...messages,
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${index}`, type: 'function', function: { name: call?.name ?? '', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: `c${index}`, content: 'ok' },
  ];
}

const callOf = (reply: Reply) => (reply as CompletionReply).toolCalls?.[0];

describe('the latency scenario: the executor', () => {
  it('answers three step sessions that run at once, whatever order their requests come in', () => {
    // Each step's own session, as the host opens it for a batch (src/run/step-batch.ts).
    const plan = latencyPlan(true);
    const opening = (k: number) => [
      system,
      user(
        stepMessage(snapshot('execute', true, historyOf([1])), facts, plan, {
          step: k,
          together: [2, 3, 4],
          directive: stepDirective(plan.steps[k - 1] ?? { title: '' }, k),
        }),
      ),
    ];
    const sessions = new Map([2, 3, 4].map((k) => [k, opening(k)]));
    const calls = new Map<number, string[]>([2, 3, 4].map((k) => [k, []]));
    // Four turns each, interleaved in an order no queue would foresee.
    for (const k of [4, 2, 2, 3, 4, 4, 3, 2, 3, 3, 2, 4]) {
      const messages = sessions.get(k) ?? [];
      const reply = executorReply(request('executor', messages));
      const call = callOf(reply);
      calls.get(k)?.push(`${call?.name} ${JSON.stringify(call?.arguments)}`);
      sessions.set(k, take(messages, reply));
    }
    for (const k of [2, 3, 4]) {
      const made = calls.get(k) ?? [];
      expect(made.map((c) => c.split(' ')[0])).toEqual(['read_file', 'write_file', 'run_command', 'update_context']);
      expect(made[0]).toContain('src/step-1.js');
      expect(made[1]).toContain(`src/step-${k}.js`);
      expect(made[2]).toContain(`node --check src/step-${k}.js`);
      // Each step reports its own step done, and names no other step's file.
      expect(made[3]).toContain(`"outcome":"done"`);
      expect(made.join(' ')).not.toMatch(new RegExp(`src/step-[${[2, 3, 4].filter((m) => m !== k).join('')}]\\.js`));
    }
  });

  it('in a session carried over from step to step, works on the step of the newest directive and hands back while steps remain', () => {
    let messages = [system, user(executorMessage(snapshot('execute', false, [], 1), facts, true))];
    for (let turn = 0; turn < 4; turn++) messages = take(messages, executorReply(request('executor', messages)));
    messages = [...messages, user(executorMessage(snapshot('execute', false, historyOf([1]), 2), facts, false))];
    expect(sessionPoint(messages).turns).toBe(0);
    expect(callOf(executorReply(request('executor', messages)))?.arguments).toEqual({ path: 'src/step-1.js' });
    for (let turn = 0; turn < 3; turn++) messages = take(messages, executorReply(request('executor', messages)));
    expect(callOf(executorReply(request('executor', messages)))?.arguments).toEqual({
      result: wrote(2),
      outcome: 'replan',
    });
  });

  it('judges a cycle of a run that goes one directive at a time as its instructions ask: done only with the last step', () => {
    for (const ordered of [true, false]) {
      for (let k = 1; k <= LATENCY_STEPS; k++) {
        let messages = [system, user(executorMessage(snapshot('execute', ordered, historyOf([]), k), facts, true))];
        for (let turn = 0; turn < 3; turn++) messages = take(messages, executorReply(request('executor', messages)));
        const outcome = (callOf(executorReply(request('executor', messages)))?.arguments as { outcome: string })
          .outcome;
        expect(outcome).toBe(k === LATENCY_STEPS ? 'done' : 'replan');
      }
    }
  });

  it('judges a step run alone in its own session done, the first step of an ordered plan too', () => {
    const plan = latencyPlan(true);
    let messages = [
      system,
      user(
        stepMessage(snapshot('execute', true, []), facts, plan, { step: 1, together: [1], directive: directive(1) }),
      ),
    ];
    for (let turn = 0; turn < 3; turn++) messages = take(messages, executorReply(request('executor', messages)));
    expect(callOf(executorReply(request('executor', messages)))?.arguments).toEqual({
      result: wrote(1),
      outcome: 'done',
    });
  });

  it('takes the step from the directive, which comes after the plan that names every step, or from the heading of its own session', () => {
    const text = executorMessage(snapshot('execute', true, historyOf([1, 2]), 3), facts, true);
    expect(text).toContain('src/step-5.js');
    expect(stepOf(text)).toBe(3);
    const plan = latencyPlan(true);
    const own = stepMessage(snapshot('execute', true, historyOf([1])), facts, plan, {
      step: 4,
      together: [2, 3, 4],
      directive: 'Carry out step 4 of the approved plan.',
    });
    expect(stepOf(own)).toBe(4);
    expect(() => stepOf('Stage: update_context(field=result, ...)')).toThrow(/names no step/);
  });
});

describe('the latency scenario: the planner', () => {
  const planner = (state: StateName, ordered: boolean, done: number[]) => [
    system,
    user(plannerMessage(snapshot(state, ordered, historyOf(done)), facts)),
  ];

  it('looks around, then stages the plan, with its order only when the scenario orders it', () => {
    for (const ordered of [true, false]) {
      let messages = planner('plan', ordered, []);
      const names: string[] = [];
      for (let turn = 0; turn < 4; turn++) {
        const reply = plannerReply(request('planner', messages), ordered);
        names.push(callOf(reply)?.name ?? '');
        if (turn < 3) messages = take(messages, reply);
        else {
          const staged = callOf(reply)?.arguments as { plan: ReturnType<typeof latencyPlan>; directive: string };
          expect(staged.directive).toBe(directive(1));
          expect(staged.plan.steps.map((s) => s.after)).toEqual(
            ordered ? [undefined, [1], [1], [1], [2, 3, 4]] : [undefined, undefined, undefined, undefined, undefined],
          );
        }
      }
      expect(names).toEqual(['list_files', 'read_file', 'read_file', 'update_context']);
    }
  });

  it('at a replan directs the first step the results do not show done, and sums up at the finish', () => {
    let messages = planner('replan', false, [1, 2]);
    const read = plannerReply(request('planner', messages), false);
    expect(callOf(read)?.arguments).toEqual({ path: 'src/step-2.js' });
    messages = take(messages, read);
    expect(callOf(plannerReply(request('planner', messages), false))?.arguments).toEqual({ directive: directive(3) });
    const summary = callOf(plannerReply(request('planner', planner('finish', true, [1, 2, 3, 4, 5])), true));
    expect(summary?.arguments).toEqual({ summary: `Added ${LATENCY_STEPS} helper modules, each syntax-checked.` });
  });
});
