import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drive } from '../../src/agents/drive.js';
import { RunState } from '../../src/agents/run-state.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import { createReadTools } from '../../src/tools/read-tools.js';
import { createToolbox, type Toolbox } from '../../src/tools/toolbox.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { coreLog, resetCoreLog } from '../helpers/core-mock.js';
import {
  executingRun,
  expectWellFormed,
  look,
  openTurn,
  stage,
  stagingTool,
  stubClient,
  stubTeam,
  summonTurn,
} from './agent-fixture.js';

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/**
 * A job being stopped (the runner's SIGINT or SIGTERM) halts the agents where they are: no model is
 * asked again, no tool runs, and the machine is not told, so no wrap-up asks a model for a summary.
 */

const plan: Plan = { steps: [{ title: 'Add CHANGELOG.md' }] };
const facts = { executorTools: ['list_files', 'read_file', 'search', 'update_context'] };

let repo: string;
beforeEach(() => {
  resetCoreLog();
  repo = makeRepo({ 'README.md': '# widgets\n' });
});
afterEach(() => removeDir(repo));

/** The executor's toolbox; `onCall` runs as each tool is called, before it runs. */
function toolbox(run: RunState, role: Role, onCall: () => void = () => undefined): Toolbox {
  const tools = createToolbox([...createReadTools(repo), stagingTool(run, role)]);
  return {
    specs: tools.specs,
    call: (name, args) => {
      onCall();
      return tools.call(name, args);
    },
  };
}

describe('summon, halted', () => {
  it('runs none of the calls of an answer that came back after the halt, and asks nothing more', async () => {
    let halted = false;
    const run = executingRun(plan);
    const turn = openTurn('executor', run, toolbox(run, 'executor'));
    // The answer would finish the cycle; the stop comes while it is on its way.
    const client = stubClient('executor', [{ calls: [look, stage({ result: 'Wrote it.', outcome: 'done' })] }], {
      onRequest: () => void (halted = true),
    });
    await summonTurn(turn, client, facts, { halted: () => halted });
    expect(client.requests).toHaveLength(1);
    const answers = turn.session.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(answers).toEqual(['Not run: the job is being stopped.', 'Not run: the job is being stopped.']);
    expectWellFormed(turn.session.messages);
    // Nothing reached the machine: the cycle is neither done nor aborted, and no nudge was added.
    expect(run.snapshot.state).toBe('execute');
    expect(run.snapshot.context.history).toEqual([]);
    expect(turn.session.messages.at(-1)?.role).toBe('tool');
    expect(coreLog.warnings).toEqual([]);
  });

  it('ends the turn after the call under way when the halt comes during it', async () => {
    let halted = false;
    const run = executingRun(plan);
    const turn = openTurn(
      'executor',
      run,
      toolbox(run, 'executor', () => void (halted = true)),
    );
    const client = stubClient('executor', [
      { calls: [look, look] },
      { calls: [stage({ result: 'x', outcome: 'done' })] },
    ]);
    await summonTurn(turn, client, facts, { halted: () => halted });
    expect(client.requests).toHaveLength(1);
    const answers = turn.session.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(answers[0]).toContain('README.md');
    expect(answers[1]).toBe('Not run: the job is being stopped.');
    expect(run.snapshot.state).toBe('execute');
  });

  it('adds no nudge after an answer that staged nothing, when the halt came while it was on its way', async () => {
    let halted = false;
    const run = executingRun(plan);
    const turn = openTurn('executor', run, toolbox(run, 'executor'));
    const client = stubClient('executor', [{ say: 'Thinking it over.' }], { onRequest: () => void (halted = true) });
    await summonTurn(turn, client, facts, { halted: () => halted });
    expect(client.requests).toHaveLength(1);
    expect(turn.session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Thinking it over.' });
  });

  it('asks the model nothing when summoned already halted', async () => {
    const run = executingRun(plan);
    const turn = openTurn('executor', run, toolbox(run, 'executor'));
    const client = stubClient('executor', []);
    await summonTurn(turn, client, facts, { halted: () => true });
    expect(client.requests).toHaveLength(0);
    expect(run.snapshot.state).toBe('execute');
  });
});

describe('drive, halted', () => {
  it('summons nobody after the halt and returns where the run stands, with no wrap-up and no cycle end', async () => {
    let halted = false;
    const planner = stubClient('planner', [
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
      { calls: [stage({ summary: 'never asked' })] },
    ]);
    // The stop comes while the executor's first answer is on its way.
    const executor = stubClient('executor', [{ calls: [stage({ result: 'Wrote it.', outcome: 'done' })] }], {
      onRequest: () => void (halted = true),
    });
    const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
    const cycles: string[] = [];
    const final = await drive(run, stubTeam(run, planner, executor, repo), {
      halted: () => halted,
      onCycle: async (s) => void cycles.push(s.state),
    });
    expect(final.state).toBe('execute');
    expect(final.abortReason).toBeUndefined();
    expect(planner.requests).toHaveLength(1);
    expect(executor.requests).toHaveLength(1);
    expect(cycles).toEqual([]);
    expect(final.trail.map((s) => `${s.from}->${s.to}`)).toEqual(['plan->execute']);
  });

  it('summons nobody at all once halted before it starts', async () => {
    const planner = stubClient('planner', []);
    const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
    const final = await drive(run, stubTeam(run, planner, stubClient('executor', []), repo), { halted: () => true });
    expect(final.state).toBe('plan');
    expect(planner.requests).toHaveLength(0);
  });
});
