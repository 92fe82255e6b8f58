import { describe, it, expect } from 'vitest';
import { executorOnlyMachine, executorOnlySnapshot } from '../../src/machine/executor-only.js';
import { defaultPolicy } from '../../src/machine/planner-executor.js';
import { currentAgent, isTerminal, isWaiting, pendingFields, reduce } from '../../src/machine/reducer.js';
import type { MachineEvent, Policy, Snapshot, StateName } from '../../src/machine/types.js';
import { exchange, executor, hostAbort, itIsPureAndResumable, planner } from './machine-fixture.js';

const machine = executorOnlyMachine;
const objective = 'Bump the version';

function start(policy: Policy = defaultPolicy): Snapshot {
  return executorOnlySnapshot(objective, policy);
}

function run(from: Snapshot, events: MachineEvent[]): Snapshot {
  return events.reduce((snapshot, event) => reduce(machine, snapshot, event), from);
}

const toLoop = [executor({ result: 'Tests fail on the changelog', outcome: 'replan' })];
const toDone = [...toLoop, executor({ result: 'Version bumped, changelog fixed', outcome: 'done' })];

describe('executor-only machine definition', () => {
  it('starts in execute with the objective as the directive', () => {
    const snapshot = start();
    expect(machine.initial).toBe('execute');
    expect(snapshot).toStrictEqual({
      state: 'execute',
      context: { objective, directive: objective, history: [] },
      policy: defaultPolicy,
      iteration: 0,
      stageExchanges: 0,
      agentExchanges: {},
      trail: [],
    });
    expect(snapshot.policy).not.toBe(defaultPolicy);
    expect(currentAgent(machine, snapshot)).toBe('executor');
    expect(pendingFields(machine, snapshot)).toEqual(['result', 'outcome']);
    expect(isWaiting(machine, snapshot)).toBe(false);
  });

  it('only execute and done are ever entered; the other states are inert and terminal', () => {
    const inert: StateName[] = ['plan', 'replan', 'finish', 'abort', 'ask'];
    for (const name of inert) {
      expect(machine.states[name], name).toEqual({ agent: null, requires: [], edges: [], terminal: true });
    }
    const targets = machine.states.execute.edges.map((edge) => edge.to);
    expect(targets).toEqual(['done', 'execute', 'done']);
    expect(machine.abortState).toBe('done');
    expect(machine.states.done.terminal).toBe(true);
  });
});

describe('executor-only run', () => {
  it('done: records the cycle and ends with every trigger consumed', () => {
    const done = run(start(), [executor({ result: 'Bumped', outcome: 'done' })]);
    expect(done.state).toBe('done');
    expect(isTerminal(machine, done)).toBe(true);
    expect(done.iteration).toBe(1);
    expect(done.trail).toEqual([{ from: 'execute', to: 'done' }]);
    expect(done.abortReason).toBeUndefined();
    expect(done.context).toStrictEqual({
      objective,
      history: [{ directive: objective, result: 'Bumped', outcome: 'done' }],
    });
  });

  it('replan loops on execute, keeping the directive and consuming result and outcome', () => {
    const looped = run(start(), toLoop);
    expect(looped.state).toBe('execute');
    expect(looped.trail).toEqual([{ from: 'execute', to: 'execute' }]);
    expect(looped.iteration).toBe(1);
    expect(looped.context).toStrictEqual({
      objective,
      directive: objective,
      history: [{ directive: objective, result: 'Tests fail on the changelog', outcome: 'replan' }],
    });
    expect(pendingFields(machine, looped)).toEqual(['result', 'outcome']);
  });

  it('the next cycle needs a fresh result and a fresh outcome', () => {
    const looped = run(start(), toLoop);
    expect(reduce(machine, looped, executor({ outcome: 'done' })).state).toBe('execute');
    expect(reduce(machine, looped, executor({ result: 'fixed' })).state).toBe('execute');
  });

  it('a full run: replan, then done, with both cycles under the same directive', () => {
    const done = run(start(), toDone);
    expect(done.state).toBe('done');
    expect(done.iteration).toBe(2);
    expect(done.trail).toEqual([
      { from: 'execute', to: 'execute' },
      { from: 'execute', to: 'done' },
    ]);
    expect(done.context).toStrictEqual({
      objective,
      history: [
        { directive: objective, result: 'Tests fail on the changelog', outcome: 'replan' },
        { directive: objective, result: 'Version bumped, changelog fixed', outcome: 'done' },
      ],
    });
  });

  it('abort: ends in done, consuming every trigger, without a forced-abort reason', () => {
    const done = run(start(), [executor({ result: 'No write access to the changelog', outcome: 'abort' })]);
    expect(done.state).toBe('done');
    expect(done.abortReason).toBeUndefined();
    expect(done.context).toStrictEqual({
      objective,
      history: [{ directive: objective, result: 'No write access to the changelog', outcome: 'abort' }],
    });
  });

  it('ignores the planner and fields the executor may not stage', () => {
    const snapshot = start();
    expect(reduce(machine, snapshot, planner({ summary: 'done', directive: 'other' }))).toBe(snapshot);
    const after = reduce(machine, snapshot, executor({ directive: 'other', summary: 'forged' }));
    expect(after.context).toStrictEqual(snapshot.context);
  });

  it('ignores an answer event: no state here waits for one', () => {
    const snapshot = start();
    expect(reduce(machine, snapshot, { type: 'answer', text: 'yes' })).toBe(snapshot);
  });

  it('each loop visit gets a fresh exchange allowance', () => {
    const policy = { ...defaultPolicy, maxExchangesPerStage: 2, maxExchangesPerAgentPerStage: 2 };
    const after = run(start(policy), [
      exchange('executor'),
      exchange('executor'),
      ...toLoop,
      exchange('executor'),
      exchange('executor'),
    ]);
    expect(after.state).toBe('execute');
    expect(after.abortReason).toBeUndefined();
    expect(after.stageExchanges).toBe(2);
  });
});

describe('executor-only forced aborts', () => {
  it('max-iterations bounds the replan loop: done with the reason and the history kept', () => {
    const policy = { ...defaultPolicy, maxIterations: 2 };
    const hit = run(start(policy), [...toLoop, executor({ result: 'Still failing', outcome: 'replan' })]);
    expect(hit.state).toBe('done');
    expect(hit.abortReason).toBe('reached max-iterations (2)');
    expect(hit.trail).toEqual([
      { from: 'execute', to: 'execute' },
      { from: 'execute', to: 'done', reason: 'reached max-iterations (2)' },
    ]);
    expect(hit.iteration).toBe(2);
    expect(hit.context).toStrictEqual({
      objective,
      history: [
        { directive: objective, result: 'Tests fail on the changelog', outcome: 'replan' },
        { directive: objective, result: 'Still failing', outcome: 'replan' },
      ],
    });
  });

  it('max-iterations of 1 stops the first replan', () => {
    const hit = run(start({ ...defaultPolicy, maxIterations: 1 }), toLoop);
    expect(hit.state).toBe('done');
    expect(hit.abortReason).toBe('reached max-iterations (1)');
    expect(hit.context.history).toHaveLength(1);
  });

  it('max-iterations still lets the last cycle finish', () => {
    const done = run(start({ ...defaultPolicy, maxIterations: 2 }), toDone);
    expect(done.state).toBe('done');
    expect(done.abortReason).toBeUndefined();
  });

  it('a host abort ends in done with the reason, keeping earlier cycles and the interrupted one', () => {
    const after = run(start(), [
      ...toLoop,
      executor({ result: 'half the changelog' }),
      hostAbort('cancelled by maintainer'),
    ]);
    expect(after.state).toBe('done');
    expect(after.abortReason).toBe('cancelled by maintainer');
    expect(after.trail.at(-1)).toEqual({ from: 'execute', to: 'done', reason: 'cancelled by maintainer' });
    expect(after.iteration).toBe(1);
    expect(after.context).toStrictEqual({
      objective,
      history: [
        { directive: objective, result: 'Tests fail on the changelog', outcome: 'replan' },
        { directive: objective, result: 'half the changelog', outcome: 'abort' },
      ],
    });
  });

  it('an exchange bound ends in done with the reason and the interrupted cycle', () => {
    const policy = { ...defaultPolicy, maxExchangesPerAgentPerStage: 1 };
    const over = run(start(policy), [exchange('executor'), exchange('executor')]);
    expect(over.state).toBe('done');
    expect(over.abortReason).toMatch(/^executor used more than 1 exchanges in state execute/);
    expect(over.context).toStrictEqual({
      objective,
      history: [{ directive: objective, result: '(no result reported)', outcome: 'abort' }],
    });
  });

  it('done ignores every later event', () => {
    const done = run(start(), toDone);
    for (const event of [executor({ result: 'r', outcome: 'replan' }), exchange('executor'), hostAbort('late')]) {
      expect(reduce(machine, done, event)).toBe(done);
    }
  });
});

describe('executor-only purity and resumability', () => {
  const fullRun = [
    exchange('executor'),
    executor({ result: 'Tests fail on the changelog' }),
    executor({ outcome: 'replan' }),
    exchange('executor'),
    executor({ result: 'Version bumped', outcome: 'done' }),
  ];

  itIsPureAndResumable(machine, start, fullRun);
});
