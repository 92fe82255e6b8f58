import { describe, it, expect } from 'vitest';
import { stageableBy } from '../../src/machine/fields.js';
import type { Outcome, Plan, PlanContext, Role, StagedFields, StepReport } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { currentAgent, isTerminal, isWaiting, pendingFields, reduce } from '../../src/machine/reducer.js';
import type { MachineDefinition, MachineEvent, Policy, Snapshot, StateName } from '../../src/machine/types.js';
import { answer, exchange, executor, hostAbort, itIsPureAndResumable, planner } from './machine-fixture.js';

const machine = plannerExecutorMachine;
const plan: Plan = { steps: [{ title: 'Add the parser' }, { title: 'Test it', verify: 'npm test' }] };
const revisedPlan: Plan = { steps: [{ title: 'Fix the parser' }] };

function run(start: Snapshot, events: MachineEvent[], definition: MachineDefinition = machine): Snapshot {
  return events.reduce((snapshot, event) => reduce(definition, snapshot, event), start);
}

function start(policy: Policy = defaultPolicy): Snapshot {
  return initialSnapshot('Add a CSV parser', policy);
}

const toExecute = [planner({ plan, directive: 'Write the parser' })];
const toReplan = [...toExecute, executor({ result: 'Parser fails on quotes', outcome: 'replan' })];
const toSecondExecute = [...toReplan, planner({ directive: 'Handle quoted fields' })];
const toFinish = [...toExecute, executor({ result: 'Parser written', outcome: 'done' })];
const toAbort = [...toExecute, executor({ result: 'No CSV library allowed', outcome: 'abort' })];
const toDone = [...toFinish, planner({ summary: 'Added a CSV parser' })];
const toAsk = [planner({ question: 'Which delimiter?' })];
const toAnswered = [...toAsk, answer('Commas only')];

/** Reaches `state` through ordinary staging, so every host-abort test starts from a real run. */
const pathTo: Record<Exclude<StateName, 'done'>, MachineEvent[]> = {
  plan: [],
  execute: toExecute,
  replan: toReplan,
  finish: toFinish,
  abort: toAbort,
  ask: toAsk,
};

/** A copy of the machine with one trigger no longer consumed on the replan edge. */
function keepingOnReplan(field: 'directive' | 'result' | 'outcome'): MachineDefinition {
  const broken = structuredClone(machine);
  const edge = broken.states.execute.edges.find((candidate) => candidate.to === 'replan');
  if (edge === undefined) throw new Error('the machine has no replan edge');
  edge.actions = (edge.actions ?? []).map((action) =>
    action.kind === 'consume' ? { ...action, fields: action.fields.filter((f) => f !== field) } : action,
  );
  return broken;
}

describe('machine definition', () => {
  it('starts a planned run in plan with only the objective', () => {
    const snapshot = start();
    expect(snapshot).toStrictEqual({
      state: 'plan',
      context: { objective: 'Add a CSV parser', history: [] },
      policy: defaultPolicy,
      iteration: 0,
      stageExchanges: 0,
      agentExchanges: {},
      trail: [],
    });
    expect(machine.initial).toBe('plan');
  });

  it('has the documented default policy', () => {
    expect(defaultPolicy).toEqual({
      maxIterations: 8,
      maxExchangesPerStage: 40,
      maxExchangesPerAgentPerStage: 40,
      checkpointEvery: 1,
    });
  });

  it('asks each state only for fields its agent may stage', () => {
    for (const [name, state] of Object.entries(machine.states)) {
      if (state.agent === null) {
        // An agent-less state either ends the run or waits for the host, never both, never neither.
        expect(state.terminal === true, name).toBe(state.onAnswer === undefined);
        expect(state.edges, name).toEqual([]);
        continue;
      }
      const allowed: readonly string[] = stageableBy[state.agent];
      for (const field of state.requires) expect(allowed, `${name} requires ${field}`).toContain(field);
      for (const edge of state.edges) {
        expect(Object.keys(machine.states), `${name} -> ${edge.to}`).toContain(edge.to);
      }
    }
  });

  it('names the agent, the pending fields and terminality of every state', () => {
    const expected: Record<StateName, { agent: string | null; pending: string[] }> = {
      plan: { agent: 'planner', pending: ['plan', 'directive'] },
      execute: { agent: 'executor', pending: ['result', 'outcome'] },
      replan: { agent: 'planner', pending: ['directive'] },
      finish: { agent: 'planner', pending: ['summary'] },
      abort: { agent: 'planner', pending: ['summary'] },
      done: { agent: null, pending: [] },
      ask: { agent: null, pending: [] },
    };
    for (const [name, events] of Object.entries({ ...pathTo, done: toDone })) {
      const snapshot = run(start(), events);
      expect(snapshot.state).toBe(name);
      const want = expected[name as StateName];
      expect(currentAgent(machine, snapshot), name).toBe(want.agent);
      expect(pendingFields(machine, snapshot), name).toEqual(want.pending);
      expect(isTerminal(machine, snapshot), name).toBe(name === 'done');
      expect(isWaiting(machine, snapshot), name).toBe(name === 'ask');
    }
  });
});

describe('plan state', () => {
  it('waits until both plan and directive are staged, then moves to execute', () => {
    const half = run(start(), [planner({ plan })]);
    expect(half.state).toBe('plan');
    expect(pendingFields(machine, half)).toEqual(['directive']);
    const moved = reduce(machine, half, planner({ directive: 'Write the parser' }));
    expect(moved.state).toBe('execute');
    expect(moved.trail).toEqual([{ from: 'plan', to: 'execute' }]);
    expect(moved.context.plan).toEqual(plan);
    expect(moved.context.directive).toBe('Write the parser');
  });

  it('ignores staging by the executor entirely', () => {
    const snapshot = start();
    const after = reduce(machine, snapshot, executor({ result: 'x', outcome: 'done' }));
    expect(after).toBe(snapshot);
  });

  it('ignores fields the planner may not stage', () => {
    const after = run(start(), [
      planner({ result: 'forged', outcome: 'done' }),
      { type: 'stage', agent: 'planner', fields: { objective: 'hijacked', history: [] } as unknown as StagedFields },
    ]);
    expect(after.state).toBe('plan');
    expect(after.context).toStrictEqual({ objective: 'Add a CSV parser', history: [] });
  });

  it('does not let an undefined value unstage a field', () => {
    const half = run(start(), [planner({ plan }), planner({ plan: undefined })]);
    expect(half.context.plan).toEqual(plan);
    const after = reduce(machine, half, planner({ plan: undefined, directive: 'Write the parser' }));
    expect(after.state).toBe('execute');
    expect(after.context.plan).toEqual(plan);
  });

  it('keeps a question staged beside a full plan for the host, and executes: the plan wins', () => {
    const after = run(start(), [planner({ plan, directive: 'Write the parser', question: 'Tabs too?' })]);
    expect(after.state).toBe('execute');
    expect(after.trail).toEqual([{ from: 'plan', to: 'execute' }]);
    expect(after.context.question).toBe('Tabs too?');
  });

  it('executes rather than ending when a full plan and a summary are both staged', () => {
    const after = run(start(), [planner({ plan, directive: 'Write the parser', summary: 'Nothing to do' })]);
    expect(after.state).toBe('execute');
    expect(after.context.summary).toBe('Nothing to do');
  });

  it('still asks for plan and directive in the Stage line, whatever alternatives the edges allow', () => {
    expect(machine.states.plan.requires).toEqual(['plan', 'directive']);
    expect(pendingFields(machine, start())).toEqual(['plan', 'directive']);
    expect(machine.states.plan.edges.map((edge) => edge.to)).toEqual(['execute', 'ask', 'done']);
  });

  it('moves at most once per event, even when the next state would already be satisfied', () => {
    const primed: Snapshot = { ...start(), context: { ...start().context, result: 'stale', outcome: 'done' } };
    const after = reduce(machine, primed, planner({ plan, directive: 'Write the parser' }));
    expect(after.state).toBe('execute');
    expect(after.trail).toHaveLength(1);
  });

  it('moves at most once per event when the next state has the same agent', () => {
    const straightToFinish = structuredClone(machine);
    straightToFinish.states.plan.edges = [{ to: 'finish', guard: { always: true } }];
    const after = run(
      start(),
      [planner({ plan, directive: 'Nothing to do', summary: 'Already done' })],
      straightToFinish,
    );
    expect(after.state).toBe('finish');
    expect(after.trail).toEqual([{ from: 'plan', to: 'finish' }]);
  });
});

describe('execute state', () => {
  const inExecute = run(start(), toExecute);

  it('does not move on a result alone or an outcome alone', () => {
    expect(reduce(machine, inExecute, executor({ result: 'half done' })).state).toBe('execute');
    expect(reduce(machine, inExecute, executor({ outcome: 'done' })).state).toBe('execute');
    expect(pendingFields(machine, reduce(machine, inExecute, executor({ result: 'r' })))).toEqual(['outcome']);
  });

  it('ignores the planner and fields the executor may not stage', () => {
    expect(reduce(machine, inExecute, planner({ directive: 'other', summary: 's' }))).toBe(inExecute);
    const after = reduce(machine, inExecute, executor({ plan: revisedPlan, summary: 'forged', directive: 'other' }));
    expect(after.context).toStrictEqual(inExecute.context);
  });

  it('on done: records the cycle, counts it, consumes the triggers and keeps the plan', () => {
    const after = run(start(), toFinish);
    expect(after.state).toBe('finish');
    expect(after.iteration).toBe(1);
    expect(after.context.history).toEqual([
      { directive: 'Write the parser', result: 'Parser written', outcome: 'done' },
    ]);
    expect(after.context).toStrictEqual({ objective: 'Add a CSV parser', plan, history: after.context.history });
    expect(after.trail.at(-1)).toEqual({ from: 'execute', to: 'finish' });
  });

  it('on replan: records the cycle, consumes the triggers and keeps the plan', () => {
    const after = run(start(), toReplan);
    expect(after.state).toBe('replan');
    expect(after.iteration).toBe(1);
    expect(after.context).toStrictEqual({
      objective: 'Add a CSV parser',
      plan,
      history: [{ directive: 'Write the parser', result: 'Parser fails on quotes', outcome: 'replan' }],
    });
  });

  it('on abort: records the cycle, consumes the triggers and goes to abort', () => {
    const after = run(start(), toAbort);
    expect(after.state).toBe('abort');
    expect(after.iteration).toBe(1);
    expect(after.context).toStrictEqual({
      objective: 'Add a CSV parser',
      plan,
      history: [{ directive: 'Write the parser', result: 'No CSV library allowed', outcome: 'abort' }],
    });
    expect(after.trail.at(-1)).toEqual({ from: 'execute', to: 'abort' });
  });

  it('stays when the requirements are met but no guard accepts the outcome', () => {
    const doneOnly = structuredClone(machine);
    doneOnly.states.execute.edges = doneOnly.states.execute.edges.filter((edge) => edge.to === 'finish');
    const after = run(start(), [...toExecute, executor({ result: 'r', outcome: 'replan' })], doneOnly);
    expect(after.state).toBe('execute');
    expect(after.context.history).toEqual([]);
    expect(after.iteration).toBe(0);
    const fixed = reduce(doneOnly, after, executor({ outcome: 'done' }));
    expect(fixed.state).toBe('finish');
  });
});

describe('replan state', () => {
  const inReplan = run(start(), toReplan);

  it('does not move until the planner stages a new directive', () => {
    expect(reduce(machine, inReplan, planner({})).state).toBe('replan');
    expect(reduce(machine, inReplan, planner({ plan: revisedPlan })).state).toBe('replan');
    expect(reduce(machine, inReplan, executor({ result: 'r', outcome: 'done' }))).toBe(inReplan);
  });

  it('moves to execute on a directive, optionally with a revised plan', () => {
    const after = reduce(machine, inReplan, planner({ plan: revisedPlan, directive: 'Handle quoted fields' }));
    expect(after.state).toBe('execute');
    expect(after.context.plan).toEqual(revisedPlan);
    expect(after.context.directive).toBe('Handle quoted fields');
    expect(after.trail.at(-1)).toEqual({ from: 'replan', to: 'execute' });
  });
});

describe('no-change answer', () => {
  it('ends the run in done when the planner stages only a summary', () => {
    const after = run(start(), [planner({ summary: 'The parser already handles CSV; nothing to change' })]);
    expect(after.state).toBe('done');
    expect(isTerminal(machine, after)).toBe(true);
    expect(after.trail).toEqual([{ from: 'plan', to: 'done' }]);
    expect(after.iteration).toBe(0);
    expect(after.abortReason).toBeUndefined();
    expect(after.context).toStrictEqual({
      objective: 'Add a CSV parser',
      summary: 'The parser already handles CSV; nothing to change',
      history: [],
    });
  });

  it('drops a half-staged plan, so a no-change run carries nothing to approve', () => {
    const after = run(start(), [planner({ plan }), planner({ summary: 'Nothing to change' })]);
    expect(after.state).toBe('done');
    expect('plan' in after.context).toBe(false);
    expect(after.context.summary).toBe('Nothing to change');
  });

  it('is also open after a clarification', () => {
    const after = run(start(), [...toAnswered, planner({ summary: 'With commas only, nothing to change' })]);
    expect(after.state).toBe('done');
    expect(after.trail.map((t) => t.to)).toEqual(['ask', 'plan', 'done']);
    expect(after.context.clarifications).toEqual([{ question: 'Which delimiter?', answer: 'Commas only' }]);
  });

  it('is not open outside plan: replan never ends on a summary', () => {
    const inReplan = run(start(), toReplan);
    expect(reduce(machine, inReplan, planner({ summary: 'enough' })).state).toBe('replan');
  });
});

describe('clarification', () => {
  it('a question alone pauses the run in ask, waiting on the host with nothing to stage', () => {
    const asked = run(start(), toAsk);
    expect(asked.state).toBe('ask');
    expect(asked.trail).toEqual([{ from: 'plan', to: 'ask' }]);
    expect(asked.context.question).toBe('Which delimiter?');
    expect(currentAgent(machine, asked)).toBeNull();
    expect(pendingFields(machine, asked)).toEqual([]);
    expect(isWaiting(machine, asked)).toBe(true);
    expect(isTerminal(machine, asked)).toBe(false);
  });

  it('asking discards whatever else was half-staged, keeping only the question', () => {
    const asked = run(start(), [planner({ plan }), planner({ question: 'Which delimiter?', summary: 'premature' })]);
    expect(asked.state).toBe('ask');
    expect(asked.context).toStrictEqual({ objective: 'Add a CSV parser', question: 'Which delimiter?', history: [] });
    const directiveOnly = run(start(), [planner({ directive: 'Write it', question: 'Which delimiter?' })]);
    expect(directiveOnly.state).toBe('ask');
    expect('directive' in directiveOnly.context).toBe(false);
  });

  it('a question wins over a summary staged beside it', () => {
    const asked = run(start(), [planner({ question: 'Which delimiter?', summary: 'Nothing to change' })]);
    expect(asked.state).toBe('ask');
    expect(asked.context.summary).toBeUndefined();
  });

  it('ignores every staging while waiting', () => {
    const asked = run(start(), toAsk);
    expect(reduce(machine, asked, planner({ plan, directive: 'Write the parser' }))).toBe(asked);
    expect(reduce(machine, asked, executor({ result: 'r', outcome: 'done' }))).toBe(asked);
  });

  it('the answer returns to plan, records the pair and consumes the question', () => {
    const answered = run(start(), toAnswered);
    expect(answered.state).toBe('plan');
    expect(answered.trail).toEqual([
      { from: 'plan', to: 'ask' },
      { from: 'ask', to: 'plan' },
    ]);
    expect(answered.context).toStrictEqual({
      objective: 'Add a CSV parser',
      history: [],
      clarifications: [{ question: 'Which delimiter?', answer: 'Commas only' }],
    });
    expect(pendingFields(machine, answered)).toEqual(['plan', 'directive']);
    expect(isWaiting(machine, answered)).toBe(false);
    expect(currentAgent(machine, answered)).toBe('planner');
  });

  it('the answer is accepted only in ask: every other state returns the snapshot unchanged', () => {
    for (const [name, events] of Object.entries({ ...pathTo, done: toDone })) {
      if (name === 'ask') continue;
      const before = run(start(), events);
      expect(before.state).toBe(name);
      expect(reduce(machine, before, answer('unsolicited')), name).toBe(before);
    }
    const asked = run(start(), toAsk);
    expect(reduce(machine, asked, answer('Commas only'))).not.toBe(asked);
  });

  it('a second answer after returning to plan is ignored', () => {
    const answered = run(start(), toAnswered);
    expect(reduce(machine, answered, answer('Also semicolons'))).toBe(answered);
  });

  it('appends clarifications in order across two questions and keeps them through the run', () => {
    const done = run(start(), [
      ...toAnswered,
      planner({ question: 'Header row?' }),
      answer('Yes, always'),
      planner({ plan, directive: 'Write the parser' }),
      executor({ result: 'Parser written', outcome: 'done' }),
      planner({ summary: 'Added a CSV parser' }),
    ]);
    expect(done.state).toBe('done');
    expect(done.trail.map((t) => t.to)).toEqual(['ask', 'plan', 'ask', 'plan', 'execute', 'finish', 'done']);
    expect(done.context.clarifications).toEqual([
      { question: 'Which delimiter?', answer: 'Commas only' },
      { question: 'Header row?', answer: 'Yes, always' },
    ]);
    expect(done.context.question).toBeUndefined();
  });

  it('re-entering plan with only a new directive does not settle: the question is gone', () => {
    const answered = run(start(), [planner({ plan, question: 'Which delimiter?' }), answer('Commas only')]);
    const after = reduce(machine, answered, planner({ directive: 'Write the parser' }));
    expect(after.state).toBe('plan');
    expect(pendingFields(machine, after)).toEqual(['plan']);
    expect(reduce(machine, after, planner({ plan })).state).toBe('execute');
  });

  it('broken: an answer that leaves the question behind sends a fresh directive back to ask', () => {
    const broken = structuredClone(machine);
    broken.states.ask.onAnswer = { to: 'plan', actions: [] };
    const answered = run(start(), toAnswered, broken);
    expect(answered.context.question).toBe('Which delimiter?');
    expect(reduce(broken, answered, planner({ directive: 'Write the parser' })).state).toBe('ask');
  });

  it('records an answer even when no question was staged', () => {
    const stray: Snapshot = { ...start(), state: 'ask' };
    const after = reduce(machine, stray, answer('Commas only'));
    expect(after.state).toBe('plan');
    expect(after.context.clarifications).toEqual([{ question: '(no question recorded)', answer: 'Commas only' }]);
  });

  it('recordAnswer outside an answer event does nothing', () => {
    const odd = structuredClone(machine);
    odd.states.plan.onExit = [{ kind: 'recordAnswer' }];
    const after = run(start(), [planner({ plan, directive: 'Write the parser', question: 'Tabs?' })], odd);
    expect(after.state).toBe('execute');
    expect(after.context.question).toBe('Tabs?');
    expect(after.context.clarifications).toBeUndefined();
  });

  it("runs the waiting state's onExit before the answer actions", () => {
    const counting = structuredClone(machine);
    counting.states.ask.onExit = [{ kind: 'countIteration' }];
    expect(run(start(), toAnswered, counting).iteration).toBe(1);
  });

  it('a host abort while waiting goes to abort, clears the question and keeps the clarifications', () => {
    const after = run(start(), [...toAnswered, planner({ question: 'Header row?' }), hostAbort('no answer in time')]);
    expect(after.state).toBe('abort');
    expect(after.abortReason).toBe('no answer in time');
    expect(after.context.question).toBeUndefined();
    expect(after.context.clarifications).toEqual([{ question: 'Which delimiter?', answer: 'Commas only' }]);
  });

  it('agents cannot stage clarifications or revisions', () => {
    const forged = {
      clarifications: [{ question: 'q', answer: 'forged' }],
      revisions: [{ plan, feedback: 'forged' }],
    } as unknown as StagedFields;
    const after = run(start(), [{ type: 'stage', agent: 'planner', fields: forged }]);
    expect(after.context).toStrictEqual({ objective: 'Add a CSV parser', history: [] });
  });
});

describe('revision input', () => {
  const revisions: PlanContext['revisions'] = [{ plan, feedback: 'Use the standard library only' }];

  it('is carried through the run untouched by the reducer', () => {
    const seeded: Snapshot = { ...start(), context: { ...start().context, revisions } };
    const done = run(seeded, [...toDone.slice(0, -1), planner({ summary: 'Added a CSV parser' })]);
    expect(done.state).toBe('done');
    expect(done.context.revisions).toEqual(revisions);
  });

  it('survives a JSON round-trip with clarifications beside it', () => {
    const seeded: Snapshot = { ...start(), context: { ...start().context, revisions } };
    const paused = run(seeded, toAnswered);
    const revived = JSON.parse(JSON.stringify(paused)) as Snapshot;
    expect(revived).toStrictEqual(paused);
    expect(revived.context.revisions).toEqual(revisions);
    expect(revived.context.clarifications).toHaveLength(1);
    const next = [planner({ plan: revisedPlan, directive: 'Fix the parser' })];
    expect(run(revived, next)).toStrictEqual(run(paused, next));
  });
});

describe('finish, abort and done states', () => {
  it('finish moves to done once the summary is staged', () => {
    const inFinish = run(start(), toFinish);
    expect(reduce(machine, inFinish, planner({ question: 'anything else?' })).state).toBe('finish');
    const after = reduce(machine, inFinish, planner({ summary: 'Added a CSV parser' }));
    expect(after.state).toBe('done');
    expect(after.context.summary).toBe('Added a CSV parser');
    expect(after.abortReason).toBeUndefined();
  });

  it('abort moves to done once the summary is staged', () => {
    const after = run(start(), [...toAbort, planner({ summary: 'Stopped: no CSV library allowed' })]);
    expect(after.state).toBe('done');
    expect(after.trail.map((t) => t.to)).toEqual(['execute', 'abort', 'done']);
  });

  it('a summary staged early does not let a wrap-up state settle without a fresh one', () => {
    const early = run(start(), [planner({ plan, directive: 'Write the parser', summary: 'premature' })]);
    const inFinish = reduce(machine, early, executor({ result: 'Parser written', outcome: 'done' }));
    expect(inFinish.context.summary).toBeUndefined();
    expect(reduce(machine, inFinish, planner({})).state).toBe('finish');
    const inAbort = reduce(machine, early, executor({ result: 'blocked', outcome: 'abort' }));
    expect(reduce(machine, inAbort, planner({})).state).toBe('abort');
  });

  it('done ignores every event', () => {
    const done = run(start(), toDone);
    for (const event of [
      planner({ summary: 'again' }),
      executor({ outcome: 'replan' }),
      exchange('planner'),
      hostAbort('late'),
      answer('late'),
    ]) {
      expect(reduce(machine, done, event)).toBe(done);
    }
  });
});

describe('edge-level requires', () => {
  const withQuestionEdge = structuredClone(machine);
  withQuestionEdge.states.plan.edges = [
    { to: 'abort', requires: ['question'], guard: { always: true } },
    ...withQuestionEdge.states.plan.edges,
  ];

  it('lets a state leave on a field outside its own requires', () => {
    const after = run(start(), [planner({ question: 'Which delimiter?' })], withQuestionEdge);
    expect(after.state).toBe('abort');
  });

  it('skips an edge whose own requires are unmet and takes the next', () => {
    const after = run(start(), toExecute, withQuestionEdge);
    expect(after.state).toBe('execute');
  });
});

describe('actions', () => {
  it('appendHistory appends only when directive, result and outcome are all present', () => {
    const outcomeOnly = structuredClone(machine);
    outcomeOnly.states.execute.requires = ['outcome'];
    const after = run(start(), [...toExecute, executor({ outcome: 'replan' })], outcomeOnly);
    expect(after.state).toBe('replan');
    expect(after.context.history).toEqual([]);
    expect(after.iteration).toBe(1);
  });

  it('appendAbortedCycle appends only when a directive is present', () => {
    const noDirective: Snapshot = { ...start(), state: 'execute' };
    const after = reduce(machine, noDirective, hostAbort('cancelled'));
    expect(after.state).toBe('abort');
    expect(after.context.history).toEqual([]);
  });

  it('consume deletes the fields, so a snapshot survives JSON unchanged', () => {
    const after = run(start(), toReplan);
    expect('directive' in after.context).toBe(false);
    expect('result' in after.context).toBe(false);
    expect('outcome' in after.context).toBe(false);
    expect(JSON.parse(JSON.stringify(after))).toStrictEqual(after);
  });

  it('countIteration counts each execute cycle', () => {
    expect(run(start(), toSecondExecute).iteration).toBe(1);
    expect(run(start(), [...toSecondExecute, executor({ result: 'ok', outcome: 'done' })]).iteration).toBe(2);
  });

  it('transitions reset the exchange counters', () => {
    const busy = run(start(), [exchange('planner'), exchange('planner')]);
    expect(busy.stageExchanges).toBe(2);
    expect(busy.agentExchanges).toEqual({ planner: 2 });
    const moved = run(busy, toExecute);
    expect(moved.stageExchanges).toBe(0);
    expect(moved.agentExchanges).toEqual({});
  });
});

describe('policy bounds', () => {
  it('maxIterations turns the loop edge into an abort that keeps the history', () => {
    const policy = { ...defaultPolicy, maxIterations: 2 };
    const hit = run(start(policy), [...toSecondExecute, executor({ result: 'Still failing', outcome: 'replan' })]);
    expect(hit.state).toBe('abort');
    expect(hit.abortReason).toBe('reached max-iterations (2)');
    expect(hit.trail.at(-1)).toEqual({ from: 'execute', to: 'abort', reason: 'reached max-iterations (2)' });
    expect(hit.iteration).toBe(2);
    expect(hit.context).toStrictEqual({
      objective: 'Add a CSV parser',
      plan,
      history: [
        { directive: 'Write the parser', result: 'Parser fails on quotes', outcome: 'replan' },
        { directive: 'Handle quoted fields', result: 'Still failing', outcome: 'replan' },
      ],
    });
    const done = reduce(machine, hit, planner({ summary: 'Gave up after two cycles' }));
    expect(done.state).toBe('done');
    expect(done.abortReason).toBe('reached max-iterations (2)');
  });

  it('maxIterations of 1 aborts the first replan', () => {
    const hit = run(start({ ...defaultPolicy, maxIterations: 1 }), toReplan);
    expect(hit.state).toBe('abort');
    expect(hit.context.history).toHaveLength(1);
  });

  it('maxIterations still lets the last cycle finish', () => {
    const policy = { ...defaultPolicy, maxIterations: 2 };
    const after = run(start(policy), [...toSecondExecute, executor({ result: 'ok', outcome: 'done' })]);
    expect(after.state).toBe('finish');
    expect(after.abortReason).toBeUndefined();
  });

  it('maxExchangesPerStage aborts with a reason and keeps the interrupted cycle', () => {
    const policy = { ...defaultPolicy, maxExchangesPerStage: 3, maxExchangesPerAgentPerStage: 100 };
    const atLimit = run(start(policy), [
      ...toExecute,
      exchange('executor'),
      exchange('executor'),
      exchange('executor'),
    ]);
    expect(atLimit.state).toBe('execute');
    expect(atLimit.stageExchanges).toBe(3);
    const over = reduce(machine, atLimit, exchange('executor'));
    expect(over.state).toBe('abort');
    expect(over.abortReason).toMatch(/more than 3 exchanges in state execute/);
    expect(over.trail.at(-1)).toEqual({ from: 'execute', to: 'abort', reason: over.abortReason });
    expect(over.context.history).toEqual([
      { directive: 'Write the parser', result: '(no result reported)', outcome: 'abort' },
    ]);
    expect(over.stageExchanges).toBe(0);
    expect(over.agentExchanges).toEqual({});
  });

  it('maxExchangesPerAgentPerStage aborts naming the agent', () => {
    const policy = { ...defaultPolicy, maxExchangesPerStage: 100, maxExchangesPerAgentPerStage: 2 };
    const over = run(start(policy), [
      ...toExecute,
      executor({ result: 'half the parser' }),
      exchange('executor'),
      exchange('executor'),
      exchange('executor'),
    ]);
    expect(over.state).toBe('abort');
    expect(over.abortReason).toMatch(/^executor used more than 2 exchanges in state execute/);
    expect(over.context.history).toEqual([
      { directive: 'Write the parser', result: 'half the parser', outcome: 'abort' },
    ]);
    expect(over.context.result).toBeUndefined();
  });

  it('bounds are per state visit, not per run', () => {
    const policy = { ...defaultPolicy, maxExchangesPerStage: 2, maxExchangesPerAgentPerStage: 2 };
    const after = run(start(policy), [
      exchange('planner'),
      exchange('planner'),
      ...toExecute,
      exchange('executor'),
      exchange('executor'),
    ]);
    expect(after.state).toBe('execute');
    expect(after.abortReason).toBeUndefined();
  });

  it('a bound in plan aborts without inventing a history entry', () => {
    const policy = { ...defaultPolicy, maxExchangesPerAgentPerStage: 1 };
    const over = run(start(policy), [
      planner({ directive: 'Write the parser' }),
      exchange('planner'),
      exchange('planner'),
    ]);
    expect(over.state).toBe('abort');
    expect(over.abortReason).toMatch(/^planner used more than 1 exchanges in state plan/);
    expect(over.context.history).toEqual([]);
    expect(over.context.directive).toBeUndefined();
  });

  it('a bound in the abort state ends the run, keeping the first reason', () => {
    const policy = { ...defaultPolicy, maxExchangesPerAgentPerStage: 1 };
    const inAbort = run(start(policy), [...toExecute, hostAbort('cancelled by maintainer')]);
    const over = run(inAbort, [exchange('planner'), exchange('planner')]);
    expect(over.state).toBe('done');
    expect(over.abortReason).toBe('cancelled by maintainer');
    expect(over.trail.at(-1)?.reason).toMatch(/^planner used more than 1 exchanges in state abort/);
  });

  it('a bound in the finish state ends the run with that reason', () => {
    const policy = { ...defaultPolicy, maxExchangesPerStage: 1 };
    const over = run(start(policy), [...toFinish, exchange('planner'), exchange('planner')]);
    expect(over.state).toBe('done');
    expect(over.abortReason).toMatch(/more than 1 exchanges in state finish/);
    expect(over.context.history).toHaveLength(1);
  });
});

describe('host abort', () => {
  for (const [from, events] of Object.entries(pathTo)) {
    const to = from === 'finish' || from === 'abort' ? 'done' : 'abort';
    it(`from ${from} goes to ${to} with the reason`, () => {
      const before = run(start(), events);
      expect(before.state).toBe(from);
      const after = reduce(machine, before, hostAbort('cancelled by maintainer'));
      expect(after.state).toBe(to);
      expect(after.trail.at(-1)).toEqual({ from, to, reason: 'cancelled by maintainer' });
      expect(after.abortReason).toBe(before.abortReason ?? 'cancelled by maintainer');
      expect(after.context.history).toEqual(
        before.context.history.concat(
          from === 'execute'
            ? [{ directive: 'Write the parser', result: '(no result reported)', outcome: 'abort' }]
            : [],
        ),
      );
    });
  }

  it('in execute keeps the staged result and consumes every trigger', () => {
    const after = run(start(), [...toExecute, executor({ result: 'half the parser' }), hostAbort('budget exhausted')]);
    expect(after.context).toStrictEqual({
      objective: 'Add a CSV parser',
      plan,
      history: [{ directive: 'Write the parser', result: 'half the parser', outcome: 'abort' }],
    });
    expect(after.iteration).toBe(0);
  });

  it('consumes a pending question so the abort summary starts clean', () => {
    const after = run(start(), [planner({ question: 'Which delimiter?' }), hostAbort('no answer')]);
    expect(after.context.question).toBeUndefined();
    expect(reduce(machine, after, planner({})).state).toBe('abort');
  });

  it('a second abort keeps the first reason and still ends the run', () => {
    const after = run(start(), [hostAbort('first'), hostAbort('second')]);
    expect(after.state).toBe('done');
    expect(after.abortReason).toBe('first');
    expect(after.trail).toEqual([
      { from: 'plan', to: 'abort', reason: 'first' },
      { from: 'abort', to: 'done', reason: 'second' },
    ]);
  });
});

describe('purity and resumability', () => {
  const fullRun = [
    exchange('planner'),
    planner({ plan, question: 'Quoted newlines too?' }),
    answer('Yes'),
    exchange('planner'),
    planner({ plan }),
    planner({ directive: 'Write the parser', question: 'Tabs too?' }),
    exchange('executor'),
    executor({ result: 'Parser fails on quotes' }),
    executor({ outcome: 'replan' }),
    planner({ plan: revisedPlan, directive: 'Handle quoted fields' }),
    exchange('executor'),
    executor({ result: 'Quoted fields handled', outcome: 'done' }),
    planner({ summary: 'Added a CSV parser with quoting' }),
  ];

  itIsPureAndResumable(machine, start, fullRun, ['ask', 'plan', 'execute', 'replan', 'execute', 'finish', 'done']);
});

describe('a full run', () => {
  it('goes plan -> execute -> replan -> execute -> finish -> done with two history entries', () => {
    const done = run(start(), [
      ...toSecondExecute,
      executor({ result: 'Quoted fields handled', outcome: 'done' }),
      planner({ summary: 'Added a CSV parser with quoting' }),
    ]);
    expect(done.state).toBe('done');
    expect(done.trail).toEqual([
      { from: 'plan', to: 'execute' },
      { from: 'execute', to: 'replan' },
      { from: 'replan', to: 'execute' },
      { from: 'execute', to: 'finish' },
      { from: 'finish', to: 'done' },
    ]);
    expect(done.iteration).toBe(2);
    expect(done.abortReason).toBeUndefined();
    expect(done.context).toStrictEqual({
      objective: 'Add a CSV parser',
      plan,
      summary: 'Added a CSV parser with quoting',
      history: [
        { directive: 'Write the parser', result: 'Parser fails on quotes', outcome: 'replan' },
        { directive: 'Handle quoted fields', result: 'Quoted fields handled', outcome: 'done' },
      ],
    });
  });
});

describe('consumed triggers keep the loop honest', () => {
  it('(a) replan does not settle on the old directive: the planner must stage a new one', () => {
    const inReplan = run(start(), toReplan);
    expect(reduce(machine, inReplan, planner({})).state).toBe('replan');
  });

  it('(b) the second execute does not settle on a new outcome alone: the old result is gone', () => {
    const second = run(start(), toSecondExecute);
    expect(reduce(machine, second, executor({ outcome: 'done' })).state).toBe('execute');
  });

  it('(c) the second execute does not settle on a new result alone: the old outcome is gone', () => {
    const second = run(start(), toSecondExecute);
    expect(reduce(machine, second, executor({ result: 'Quoted fields handled' })).state).toBe('execute');
  });

  it('(a) broken: a surviving directive lets replan settle with nothing staged', () => {
    const broken = keepingOnReplan('directive');
    const inReplan = run(start(), toReplan, broken);
    const after = reduce(broken, inReplan, planner({}));
    expect(after.state).toBe('execute');
    expect(after.context.directive).toBe('Write the parser');
  });

  it('(b) broken: a surviving result lets execute settle on an outcome alone', () => {
    const broken = keepingOnReplan('result');
    const second = run(start(), toSecondExecute, broken);
    const after = reduce(broken, second, executor({ outcome: 'done' }));
    expect(after.state).toBe('finish');
    expect(after.context.history.at(-1)).toEqual({
      directive: 'Handle quoted fields',
      result: 'Parser fails on quotes',
      outcome: 'done',
    });
  });

  it('(c) broken: a surviving outcome lets execute settle as soon as a result is staged', () => {
    const broken = keepingOnReplan('outcome');
    const second = run(start(), toSecondExecute, broken);
    const after = reduce(broken, second, executor({ result: 'Quoted fields handled' }));
    expect(after.state).toBe('replan');
  });
});

describe('a batch of steps run together (the steps event)', () => {
  /** One step, three that need only it and touch different files, and one that needs all three. */
  const graph: Plan = {
    steps: [
      { title: 'Add the flag', files: ['src/cli.ts'], after: [] },
      { title: 'Document it', files: ['docs/flag.md'], after: [1] },
      { title: 'Test it', files: ['test/flag.test.ts'], after: [1] },
      { title: 'Note it in the changelog', files: ['CHANGELOG.md'], after: [1] },
      { title: 'Mention it in the README', files: ['README.md'], after: [2, 3, 4] },
    ],
  };
  const report = (step: number, outcome: Outcome = 'done', together?: number[]): StepReport => ({
    directive: `Carry out step ${step}`,
    result: `Step ${step} ${outcome}`,
    outcome,
    step,
    ...(together ? { together } : {}),
  });
  const steps = (reports: StepReport[], agent: Role = 'executor'): MachineEvent => ({
    type: 'steps',
    agent,
    reports,
  });
  const batch = (outcomes: Outcome[]): StepReport[] =>
    outcomes.map((outcome, i) =>
      report(
        i + 2,
        outcome,
        outcomes.map((_, j) => j + 2),
      ),
    );
  const toGraph = [planner({ plan: graph, directive: 'Carry out step 1' })];
  const afterFirst = [...toGraph, steps([report(1)])];

  it('stages the gravest outcome of the batch: abort over replan over done', () => {
    expect(run(start(), [...afterFirst, steps(batch(['done', 'replan', 'abort']))]).state).toBe('abort');
    expect(run(start(), [...afterFirst, steps(batch(['abort', 'done', 'done']))]).state).toBe('abort');
    expect(run(start(), [...afterFirst, steps(batch(['done', 'replan', 'done']))]).state).toBe('replan');
    expect(run(start(), [...afterFirst, steps(batch(['done', 'done', 'done']))]).state).toBe('execute');
  });

  it('keeps one history entry per report, in the order reported, with what the host noted', () => {
    const reports = [report(2, 'done', [2, 3, 4]), { ...report(3, 'done', [2, 3, 4]), note: 'run again' }, report(4)];
    const after = run(start(), [...afterFirst, steps(reports)]);
    expect(after.context.history).toStrictEqual([report(1), ...reports]);
  });

  it('counts an iteration per report, not per batch', () => {
    expect(run(start(), afterFirst).iteration).toBe(1);
    expect(run(start(), [...afterFirst, steps(batch(['done', 'done', 'done']))]).iteration).toBe(4);
  });

  it('goes from execute to execute, without the planner, when the batch is done and steps remain', () => {
    const next = run(start(), [...afterFirst, steps(batch(['done', 'done', 'done']))]);
    expect(next.state).toBe('execute');
    expect(next.trail).toEqual([
      { from: 'plan', to: 'execute' },
      { from: 'execute', to: 'execute' },
      { from: 'execute', to: 'execute' },
    ]);
    // The cycle's triggers are spent: the next batch must report afresh.
    for (const field of ['directive', 'result', 'outcome', 'steps'] as const) expect(field in next.context).toBe(false);
    expect(pendingFields(machine, next)).toEqual(['result', 'outcome']);
    expect(next.context.plan).toStrictEqual(graph);
  });

  it('goes to finish once no step remains', () => {
    const end = run(start(), [...afterFirst, steps(batch(['done', 'done', 'done'])), steps([report(5)])]);
    expect(end.state).toBe('finish');
    expect(end.context.history.map((e) => e.step)).toEqual([1, 2, 3, 4, 5]);
    const summarised = reduce(machine, end, planner({ summary: 'Flag added' }));
    expect(summarised.state).toBe('done');
  });

  it('goes to finish when the last steps were carried out one cycle at a time before', () => {
    // Steps a batch skipped but history shows done still count: nothing remains after step 5.
    const all = [1, 2, 3, 4].map((n) => report(n));
    const end = run(start(), [...toGraph, steps(all), steps([report(5)])]);
    expect(end.state).toBe('finish');
  });

  it('goes to replan, keeping the plan, when a report says the plan is wrong', () => {
    const after = run(start(), [...afterFirst, steps(batch(['done', 'replan', 'done']))]);
    expect(after.state).toBe('replan');
    expect(after.context.plan).toStrictEqual(graph);
    expect(after.context.history.map((e) => e.outcome)).toEqual(['done', 'done', 'replan', 'done']);
    expect('steps' in after.context).toBe(false);
  });

  it('refuses the loop once the cycles are spent: the run aborts and keeps every report', () => {
    const policy = { ...defaultPolicy, maxIterations: 3 };
    const hit = run(start(policy), [...afterFirst, steps(batch(['done', 'done']))]);
    expect(hit.state).toBe('abort');
    expect(hit.abortReason).toBe('reached max-iterations (3)');
    expect(hit.iteration).toBe(3);
    expect(hit.context.history.map((e) => e.step)).toEqual([1, 2, 3]);
    expect('steps' in hit.context).toBe(false);
  });

  it('still lets the last batch finish at the bound', () => {
    const policy = { ...defaultPolicy, maxIterations: 5 };
    const end = run(start(policy), [...afterFirst, steps(batch(['done', 'done', 'done'])), steps([report(5)])]);
    expect(end.state).toBe('finish');
    expect(end.abortReason).toBeUndefined();
  });

  it('ignores a batch reported for an agent the state did not summon, or an empty one', () => {
    const executing = run(start(), afterFirst);
    expect(reduce(machine, executing, steps([report(2)], 'planner'))).toBe(executing);
    expect(reduce(machine, executing, steps([]))).toBe(executing);
    const planning = start();
    expect(reduce(machine, planning, steps([report(1)]))).toBe(planning);
  });

  it('leaves a step graph carried out a cycle at a time (no steps event) to the edges it always took', () => {
    // The local run takes one directive at a time: a done cycle finishes, as for any plan.
    expect(run(start(), [...toGraph, executor({ result: 'All done', outcome: 'done' })]).state).toBe('finish');
    expect(run(start(), [...toGraph, executor({ result: 'Wrong', outcome: 'replan' })]).state).toBe('replan');
  });

  describe('purity and resumability of a run in batches', () => {
    const fullRun = [
      ...toGraph,
      exchange('executor'),
      steps([report(1)]),
      steps(batch(['done', 'done', 'done'])),
      steps([report(5)]),
      planner({ summary: 'Flag added' }),
    ];
    itIsPureAndResumable(machine, start, fullRun, ['execute', 'execute', 'execute', 'finish', 'done']);
  });
});
