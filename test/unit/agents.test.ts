import fs from 'node:fs';
import path from 'node:path';
import type { ChatCompletionFunctionTool, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  cacheShortfall,
  checkPrefix,
  describeCacheShortfall,
  describePrefixBreaks,
} from '../../src/agents/cache-diagnosis.js';
import type { WorkshopFacts } from '../../src/agents/context-text.js';
import { drive } from '../../src/agents/drive.js';
import { executorMessage, executorSystemPrompt } from '../../src/agents/executor.js';
import { plannerMessage, plannerSystemPrompt } from '../../src/agents/planner.js';
import { RunState } from '../../src/agents/run-state.js';
import { Session } from '../../src/agents/session.js';
import { stageLine } from '../../src/agents/stage-line.js';
import { madeProgress, observeExchange, stallAbortReason, stallNudge } from '../../src/agents/stall-guard.js';
import type { Team } from '../../src/agents/team.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import type { Policy, Snapshot } from '../../src/machine/types.js';
import type { ChatRequest } from '../../src/models/chat-client.js';
import type { TokenUsage } from '../../src/models/usage.js';
import { createReadTools } from '../../src/tools/read-tools.js';
import { createToolbox, type Toolbox } from '../../src/tools/toolbox.js';
import { createWriteTools } from '../../src/tools/write-tools.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { coreLog, resetCoreLog } from '../helpers/core-mock.js';
import { plannerToolNames } from '../helpers/tool-names.js';
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
  type AgentTurn,
  type StubClient,
} from './agent-fixture.js';

// summon reports its diagnoses through @actions/core; they are collected so tests can read them.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

const planStage = 'Stage: update_context(field=plan, ...) and update_context(field=directive, ...)';
const directiveStage = 'Stage: update_context(field=directive, ...)';
const summaryStage = 'Stage: update_context(field=summary, ...)';
const executeStage = 'Stage: update_context(field=result, ...) and update_context(field=outcome, ...)';

/** What the team tells both roles about the executor; fixed here, as the team derives it from its toolbox. */
const facts: WorkshopFacts = {
  executorTools: ['edit_file', 'list_files', 'read_file', 'run_command', 'search', 'update_context', 'write_file'],
};

const plan: Plan = {
  steps: [
    { title: 'Add CHANGELOG.md', files: ['CHANGELOG.md'] },
    { title: 'Link it from the README', files: ['README.md'] },
  ],
};

/** Each request repeats the previous one byte for byte before adding to it. */
function expectAppendOnly(requests: ChatRequest[]): void {
  for (let i = 1; i < requests.length; i++) {
    const before = requests[i - 1];
    const after = requests[i];
    expect(after?.messages.slice(0, before?.messages.length)).toEqual(before?.messages);
    expect(JSON.stringify(after?.tools)).toBe(JSON.stringify(before?.tools));
  }
}

const lastLine = (text: unknown) => String(text).split('\n').at(-1);
const lastUser = (request: ChatRequest | undefined) =>
  request?.messages.filter((m) => m.role === 'user').at(-1)?.content;
const toolNames = (request: ChatRequest | undefined) => (request?.tools ?? []).map((t) => t.function.name);

let repo: string;

beforeEach(() => {
  resetCoreLog();
  repo = makeRepo({ 'README.md': '# widgets\n', 'src/index.ts': 'export const x = 1;\n' });
});

afterEach(() => {
  removeDir(repo);
});

describe('Session', () => {
  const tools: ChatCompletionFunctionTool[] = [
    { type: 'function', function: { name: 'read_file', description: 'Read a file.', parameters: { type: 'object' } } },
  ];

  it('hashes equal prefixes equally and different ones differently', () => {
    const a = new Session('planner', 'prompt', tools);
    const b = new Session('executor', 'prompt', structuredClone(tools));
    expect(a.prefixHash).toBe(b.prefixHash);
    expect(new Session('planner', 'prompt!', tools).prefixHash).not.toBe(a.prefixHash);
    expect(new Session('planner', 'prompt', []).prefixHash).not.toBe(a.prefixHash);
    const renamed = [
      { ...tools[0], function: { ...tools[0]?.function, name: 'read' } },
    ] as ChatCompletionFunctionTool[];
    expect(new Session('planner', 'prompt', renamed).prefixHash).not.toBe(a.prefixHash);
  });

  it('starts with the system prompt and only ever appends', () => {
    const session = new Session('planner', 'prompt', tools);
    expect(session.messages).toEqual([{ role: 'system', content: 'prompt' }]);
    session.append({ role: 'user', content: 'hello' });
    const copy = session.messages;
    copy.push({ role: 'user', content: 'injected' });
    copy.splice(0, 1);
    expect(session.messages).toEqual([
      { role: 'system', content: 'prompt' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('freezes its tool list', () => {
    const session = new Session('planner', 'prompt', [...tools]);
    expect(Object.isFrozen(session.tools)).toBe(true);
  });
});

describe('stage lines and summoning messages', () => {
  const planned = (): Snapshot => {
    const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
    run.dispatch({ type: 'stage', agent: 'planner', fields: { plan, directive: 'Create CHANGELOG.md with 0.1.0.' } });
    return run.snapshot;
  };

  it('names the fields in one fixed form', () => {
    expect(stageLine(['plan', 'directive'])).toBe(planStage);
    expect(stageLine(['summary'])).toBe(summaryStage);
  });

  it('ends each planner message with the stage line its state requires', () => {
    const plan0 = initialSnapshot('Add a CHANGELOG', defaultPolicy);
    expect(lastLine(plannerMessage(plan0, facts))).toBe(planStage);
    expect(plannerMessage(plan0, facts)).toContain('Add a CHANGELOG');

    const run = new RunState(plannerExecutorMachine, planned());
    run.dispatch({
      type: 'stage',
      agent: 'executor',
      fields: { result: 'Wrote CHANGELOG.md; npm test passed.', outcome: 'replan' },
    });
    expect(run.snapshot.state).toBe('replan');
    const replan = plannerMessage(run.snapshot, facts);
    expect(lastLine(replan)).toBe(directiveStage);
    // The full history: the consumed directive and result survive only there.
    expect(replan).toContain('Create CHANGELOG.md with 0.1.0.');
    expect(replan).toContain('Wrote CHANGELOG.md; npm test passed.');
    expect(replan).toContain('Link it from the README');

    run.dispatch({ type: 'stage', agent: 'planner', fields: { directive: 'Link CHANGELOG.md from README.md.' } });
    run.dispatch({ type: 'stage', agent: 'executor', fields: { result: 'Linked it.', outcome: 'done' } });
    expect(run.snapshot.state).toBe('finish');
    const finish = plannerMessage(run.snapshot, facts);
    expect(lastLine(finish)).toBe(summaryStage);
    for (const text of [
      'Create CHANGELOG.md with 0.1.0.',
      'Wrote CHANGELOG.md',
      'Link CHANGELOG.md from README.md.',
      'Linked it.',
    ]) {
      expect(finish).toContain(text);
    }
    expect(finish.indexOf('Wrote CHANGELOG.md')).toBeLessThan(finish.indexOf('Linked it.'));
  });

  it('ends the abort message with the summary stage line and gives the reason', () => {
    const run = new RunState(plannerExecutorMachine, planned());
    run.dispatch({ type: 'abort', reason: 'the job was cancelled' });
    expect(run.snapshot.state).toBe('abort');
    const message = plannerMessage(run.snapshot, facts);
    expect(lastLine(message)).toBe(summaryStage);
    expect(message).toContain('Reason: the job was cancelled.');
    expect(message).toContain('Create CHANGELOG.md with 0.1.0.');
  });

  it('lays planner messages out as stable head, appended history, then what changes per summons', () => {
    const start = initialSnapshot('Add a CHANGELOG', defaultPolicy);
    start.context.thread =
      '<untrusted-data source="issue #3: title and body">\nPlease add a changelog.\n</untrusted-data>';
    start.context.clarifications = [{ question: 'Keep a Changelog format?', answer: 'Yes.' }];
    start.context.revisions = [{ plan: { steps: [{ title: 'Write NEWS.md' }] }, feedback: 'Call it CHANGELOG.md.' }];
    const run = new RunState(plannerExecutorMachine, start);
    const planning = plannerMessage(run.snapshot, facts);
    const order = (text: string, headings: string[]) => headings.map((h) => text.indexOf(h));
    const planHeadings = [
      '## Objective',
      '## Clarifications',
      '## Revision requested',
      '## Tools',
      '## The thread',
      '## Stage: plan',
    ];
    const at = order(planning, planHeadings);
    expect(
      at.every((i) => i >= 0),
      `all of ${planHeadings.join(', ')} in the plan message`,
    ).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));

    run.dispatch({ type: 'stage', agent: 'planner', fields: { plan, directive: 'Create CHANGELOG.md with 0.1.0.' } });
    run.dispatch({ type: 'stage', agent: 'executor', fields: { result: 'Wrote CHANGELOG.md.', outcome: 'replan' } });
    const replan1 = plannerMessage(run.snapshot, facts);
    // Every planning state opens with the same head, up to and including the executor's tools.
    const head = planning.slice(0, planning.indexOf('\n\n## The thread'));
    expect(replan1.startsWith(`${head}\n\n## Plan\n\n1. Add CHANGELOG.md`)).toBe(true);
    // The replan sees what the plan stage saw, bar the thread, which only planning reads.
    for (const text of [
      'Keep a Changelog format?',
      'Call it CHANGELOG.md.',
      'Write NEWS.md',
      'Create CHANGELOG.md with 0.1.0.',
      'Wrote CHANGELOG.md.',
    ]) {
      expect(replan1).toContain(text);
    }
    const replan1Headings = [
      '## Objective',
      '## Clarifications',
      '## Revision requested',
      '## Tools',
      '## Plan',
      '## History',
      '## Stage: replan',
    ];
    const at1 = order(replan1, replan1Headings);
    expect(
      at1.every((i) => i >= 0),
      `all of ${replan1Headings.join(', ')} in the replan message`,
    ).toBe(true);
    expect(at1).toEqual([...at1].sort((a, b) => a - b));
    expect(replan1).not.toContain('## Revised plan');

    // The replan revises the plan: the plan the run began with stays in the head, the revision follows the history.
    const began = run.snapshot.context.plan;
    const revised: Plan = {
      steps: [
        { title: 'Add CHANGELOG.md', files: ['CHANGELOG.md'] },
        { title: 'Link it from the docs index', files: ['docs/index.md'] },
      ],
    };
    run.dispatch({
      type: 'stage',
      agent: 'planner',
      fields: { plan: revised, directive: 'Link CHANGELOG.md from docs/index.md.' },
    });
    run.dispatch({ type: 'stage', agent: 'executor', fields: { result: 'Linked it.', outcome: 'replan' } });
    const replan2 = plannerMessage(run.snapshot, facts, began);
    // Consecutive sessions share everything up to the newest history entry.
    const newEntry = replan2.indexOf('\n\n### Cycle 2');
    expect(newEntry).toBeGreaterThan(replan1.indexOf('Wrote CHANGELOG.md.'));
    expect(replan2.slice(0, newEntry)).toBe(replan1.slice(0, newEntry));
    expect(replan1.slice(newEntry)).toMatch(/^\n\n## Stage: replan/);
    const revisedAt = replan2.indexOf('## Revised plan (in force now)');
    expect(revisedAt).toBeGreaterThan(replan2.indexOf('Linked it.'));
    expect(revisedAt).toBeLessThan(replan2.indexOf('## Stage: replan'));
    expect(replan2.slice(revisedAt)).toContain('2. Link it from the docs index\n   Files: docs/index.md');
    expect(replan2.slice(0, revisedAt)).toContain('2. Link it from the README');
    expect(replan2.slice(0, revisedAt)).not.toContain('docs index');
    // Without the plan the run began with, the current plan is all there is: nothing reads as revised.
    expect(plannerMessage(run.snapshot, facts)).not.toContain('## Revised plan');

    run.dispatch({ type: 'stage', agent: 'planner', fields: { directive: 'Check the link.' } });
    run.dispatch({ type: 'stage', agent: 'executor', fields: { result: 'The link works.', outcome: 'done' } });
    expect(run.snapshot.state).toBe('finish');
    const finish = plannerMessage(run.snapshot, facts, began);
    const third = finish.indexOf('\n\n### Cycle 3');
    expect(third).toBeGreaterThan(0);
    expect(finish.slice(0, third)).toBe(replan2.slice(0, third));
    expect(finish).toContain('## Revised plan (in force now)');
    expect(finish.indexOf('## Revised plan')).toBeGreaterThan(finish.indexOf('The link works.'));
    expect(lastLine(finish)).toBe(summaryStage);
  });

  it('has no planner message for executor or terminal states', () => {
    expect(() => plannerMessage(planned(), facts)).toThrow(/no work in state execute/);
  });

  it('hands the executor its directive verbatim and ends with its stage line', () => {
    const first = executorMessage(planned(), facts, true);
    expect(lastLine(first)).toBe(executeStage);
    expect(first).toContain('## Directive (cycle 1)\n\nCreate CHANGELOG.md with 0.1.0.');
    expect(first).toContain('## Objective');
    expect(first).toContain('1. Add CHANGELOG.md');

    const run = new RunState(plannerExecutorMachine, planned());
    run.dispatch({ type: 'stage', agent: 'executor', fields: { result: 'done', outcome: 'replan' } });
    run.dispatch({ type: 'stage', agent: 'planner', fields: { directive: 'Step two, exactly:\n  keep   spacing' } });
    const second = executorMessage(run.snapshot, facts, false);
    expect(lastLine(second)).toBe(executeStage);
    expect(second).toContain('## Directive (cycle 2)\n\nStep two, exactly:\n  keep   spacing');
    // A continuing session already holds the objective from its first message.
    expect(second).not.toContain('## Objective');
  });

  it('keeps per-run values out of the system prompts', () => {
    for (const prompt of [plannerSystemPrompt, executorSystemPrompt]) {
      expect(prompt).not.toContain('CHANGELOG');
      expect(prompt).not.toMatch(/\$\{|#\d|[0-9a-f]{8}/);
    }
  });
});

/** A planner toolbox whose update_context dispatches into the run, as the team wires it. */
function plannerToolbox(run: RunState): Toolbox {
  return createToolbox([...createReadTools(repo), stagingTool(run, 'planner')]);
}

function startPlanning(policy: Policy = defaultPolicy): RunState {
  return new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', policy));
}

/** The planner about to be summoned on a fresh run, with the team's toolbox. */
function planningTurn(policy: Policy = defaultPolicy): AgentTurn {
  const run = startPlanning(policy);
  return openTurn('planner', run, plannerToolbox(run));
}

describe('summon', () => {
  it('moves the machine by staging, nudges a silent turn, and answers late calls with Not run', async () => {
    const turn = planningTurn();
    const { run, session } = turn;
    const client = stubClient('planner', [
      { calls: [['list_files', {}]] },
      { say: 'I have looked around.' },
      { calls: [stage({ plan })] },
      { say: 'Done?' },
      { calls: [stage({ directive: 'Create CHANGELOG.md.' }), ['read_file', { path: 'README.md' }]] },
    ]);
    const usage: TokenUsage[] = [];
    await summonTurn(turn, client, facts, { onUsage: (t) => usage.push(t) });

    expect(run.snapshot.state).toBe('execute');
    expect(run.snapshot.context.plan).toEqual(plan);
    expect(client.requests).toHaveLength(5);
    expect(usage).toHaveLength(5);

    // The summoning message ends with the Stage line; each nudge ends with what is still missing.
    expect(lastLine(lastUser(client.requests[0]))).toBe(planStage);
    expect(lastLine(lastUser(client.requests[2]))).toBe(planStage);
    expect(String(lastUser(client.requests[2]))).toContain('You have not staged everything');
    expect(lastLine(lastUser(client.requests[4]))).toBe(directiveStage);

    // list_files ran for real over the temp repository.
    const firstToolAnswer = client.requests[1]?.messages.at(-1);
    expect(firstToolAnswer?.role).toBe('tool');
    expect(String(firstToolAnswer?.content)).toContain('README.md');

    const messages = session.messages;
    const last = messages.at(-1);
    expect(last).toMatchObject({ role: 'tool', content: 'Not run: the plan stage is over.' });
    expect(String(messages.at(-2)?.content)).toContain('staged');
    expectWellFormed(messages);
    expectAppendOnly(client.requests);
    expect(client.requests.every((r) => r.messages[0]?.content === plannerSystemPrompt)).toBe(true);
  });

  it('answers a tool failure as a message and keeps going', async () => {
    const turn = planningTurn();
    const { run, session } = turn;
    const client = stubClient('planner', [
      {
        calls: [
          ['write_file', { path: 'x', content: 'y' }],
          ['read_file', { path: '../etc/passwd' }],
        ],
      },
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
    ]);
    await summonTurn(turn, client, facts);
    expect(run.snapshot.state).toBe('execute');
    const answers = session.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(answers[0]).toMatch(/^Error: Unknown tool "write_file"/);
    expect(answers[1]).toMatch(/^Error:/);
    expect(fs.existsSync(path.join(repo, 'x'))).toBe(false);
    expectWellFormed(session.messages);
  });

  it('ends in an abort when the agent exceeds its exchange bound, answering the last calls', async () => {
    const turn = planningTurn({ ...defaultPolicy, maxExchangesPerAgentPerStage: 2 });
    const { run, session } = turn;
    const client = stubClient(
      'planner',
      Array.from({ length: 10 }, () => ({ calls: [['list_files', {}]] as Array<[string, unknown]> })),
    );
    await summonTurn(turn, client, facts);
    expect(client.requests).toHaveLength(3);
    expect(run.snapshot.state).toBe('abort');
    expect(run.snapshot.abortReason).toContain('max-exchanges-per-agent-per-stage');
    expect(session.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Not run: the plan stage is over.' });
    expectWellFormed(session.messages);
  });

  it('ends in an abort at the per-stage bound too', async () => {
    const turn = planningTurn({ ...defaultPolicy, maxExchangesPerStage: 1 });
    const { run, session } = turn;
    const client = stubClient('planner', [{ say: 'thinking' }, { say: 'still thinking' }, { say: 'more' }]);
    await summonTurn(turn, client, facts);
    expect(client.requests).toHaveLength(2);
    expect(run.snapshot.state).toBe('abort');
    expect(run.snapshot.abortReason).toContain('max-exchanges-per-stage');
    // No nudge after the stage ended: the session ends with the model's answer.
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'still thinking' });
  });
});

describe('drive', () => {
  it('turns a thrown error into an abort with the reason and still reaches done', async () => {
    const run = startPlanning();
    const calls: string[] = [];
    const team: Pick<Team, 'summonCurrent'> = {
      async summonCurrent() {
        calls.push(run.snapshot.state);
        throw new Error('model unreachable');
      },
    };
    const final = await drive(run, team);
    expect(final.state).toBe('done');
    expect(final.abortReason).toBe('planner failed in state plan: model unreachable');
    expect(calls).toEqual(['plan', 'abort']);
    expect(final.trail.map((t) => `${t.from}->${t.to}`)).toEqual(['plan->abort', 'abort->done']);
  });

  it('reports non-Error throws too', async () => {
    const run = startPlanning();
    const final = await drive(run, {
      async summonCurrent() {
        throw 'plain string';
      },
    });
    expect(final.abortReason).toBe('planner failed in state plan: plain string');
  });

  it('stops when the caller’s condition holds', async () => {
    const run = startPlanning();
    let summoned = 0;
    const team: Pick<Team, 'summonCurrent'> = {
      async summonCurrent() {
        summoned++;
        run.dispatch({ type: 'stage', agent: 'planner', fields: { plan, directive: 'go' } });
      },
    };
    const final = await drive(run, team, { until: (s) => s.state !== 'plan' });
    expect(final.state).toBe('execute');
    expect(summoned).toBe(1);
  });
});

describe('createTeam', () => {
  function team(planner: StubClient, executor: StubClient, objective = 'Add a CHANGELOG') {
    const run = new RunState(plannerExecutorMachine, initialSnapshot(objective, defaultPolicy));
    const usage: Array<[Role, string, TokenUsage]> = [];
    const created = stubTeam(run, planner, executor, repo, {
      protectedPaths: ['.github/workflows/**'],
      onUsage: (role, model, tokens) => usage.push([role, model, tokens]),
    });
    return { run, team: created, usage };
  }

  function fullRun() {
    const planner = stubClient('planner', [
      { calls: [['read_file', { path: 'README.md' }]] },
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
      { calls: [stage({ directive: 'Link CHANGELOG.md from README.md.' })] },
      { calls: [stage({ summary: 'Added and linked a CHANGELOG.' })] },
    ]);
    const executor = stubClient('executor', [
      { calls: [['write_file', { path: 'CHANGELOG.md', content: '# Changelog\n' }]] },
      { calls: [stage({ result: 'Wrote CHANGELOG.md.', outcome: 'replan' })] },
      { calls: [['edit_file', { path: 'README.md', old: '# widgets\n', new: '# widgets\n\nSee CHANGELOG.md.\n' }]] },
      { calls: [stage({ result: 'Linked it.', outcome: 'done' })] },
    ]);
    return { planner, executor, ...team(planner, executor) };
  }

  it('runs plan, execute, replan, execute, finish to done with separate tool sets', async () => {
    const { planner, executor, run, team: t, usage } = fullRun();
    const cycles: string[] = [];
    const final = await drive(run, t, { onCycle: async (s) => void cycles.push(s.state) });

    expect(final.state).toBe('done');
    expect(final.abortReason).toBeUndefined();
    expect(final.context.summary).toBe('Added and linked a CHANGELOG.');
    expect(final.context.history.map((h) => [h.directive, h.result, h.outcome])).toEqual([
      ['Create CHANGELOG.md.', 'Wrote CHANGELOG.md.', 'replan'],
      ['Link CHANGELOG.md from README.md.', 'Linked it.', 'done'],
    ]);
    expect(cycles).toEqual(['replan', 'finish']);
    // The log names each turn in a reader's words, with no prefix fingerprint (it is debug output).
    expect(coreLog.groups).toEqual([
      'planner · plan',
      'executor · execute',
      'planner · next step',
      'executor · execute',
      'planner · finish',
    ]);
    expect(fs.readFileSync(path.join(repo, 'CHANGELOG.md'), 'utf8')).toBe('# Changelog\n');
    expect(fs.readFileSync(path.join(repo, 'README.md'), 'utf8')).toContain('See CHANGELOG.md.');

    // The planner never holds a write or command tool; the executor does.
    for (const request of planner.requests) {
      expect(toolNames(request)).toEqual(plannerToolNames);
    }
    for (const name of ['write_file', 'edit_file', 'run_command', 'update_context']) {
      expect(toolNames(executor.requests[0])).toContain(name);
    }
    const plannerStaging = planner.requests[0]?.tools.find((t) => t.function.name === 'update_context');
    expect(JSON.stringify(plannerStaging?.function.parameters)).not.toContain('"result"');

    // Usage is attributed to the role and its model, once per request.
    expect(usage.map(([role, model]) => `${role}:${model}`)).toEqual([
      ...Array(2).fill('planner:planner-model'),
      ...Array(2).fill('executor:executor-model'),
      'planner:planner-model',
      ...Array(2).fill('executor:executor-model'),
      'planner:planner-model',
    ]);
  });

  it('summons the planner fresh with one shared prefix, and the executor in one growing session', async () => {
    const { planner, executor, run, team: t } = fullRun();
    await drive(run, t);

    // Planner requests 0-1 (plan), 2 (replan), 3 (finish): three sessions, one prefix.
    const plannerFirstMessages = planner.requests.map((r) => r.messages[0]);
    expect(new Set(plannerFirstMessages.map((m) => JSON.stringify(m))).size).toBe(1);
    expect(plannerFirstMessages[0]).toEqual({ role: 'system', content: plannerSystemPrompt });
    expect(new Set(planner.requests.map((r) => JSON.stringify(r.tools))).size).toBe(1);
    expect(planner.requests[2]?.messages).toHaveLength(2);
    expect(planner.requests[3]?.messages).toHaveLength(2);

    const replan = String(lastUser(planner.requests[2]));
    expect(lastLine(replan)).toBe(directiveStage);
    expect(replan).toContain('Create CHANGELOG.md.');
    expect(replan).toContain('Wrote CHANGELOG.md.');
    const finish = String(lastUser(planner.requests[3]));
    expect(lastLine(finish)).toBe(summaryStage);
    expect(finish).toContain('Linked it.');

    // One executor session: every request extends the one before, across both cycles.
    expectAppendOnly(executor.requests);
    expect(executor.requests[0]?.messages[0]).toEqual({ role: 'system', content: executorSystemPrompt });
    expect(lastLine(lastUser(executor.requests[0]))).toBe(executeStage);
    expect(lastUser(executor.requests[2])).toContain('## Directive (cycle 2)\n\nLink CHANGELOG.md from README.md.');
    expect(lastLine(lastUser(executor.requests[2]))).toBe(executeStage);
    expectWellFormed(executor.requests[3]?.messages ?? []);
  });

  it('uses the same system prompts and tool schemas whatever the run', async () => {
    const first = fullRun();
    await drive(first.run, first.team);
    const otherPlanner = stubClient('planner', [new Error('stop here')]);
    const other = team(otherPlanner, stubClient('executor', []), 'A completely different objective #42');
    await drive(other.run, other.team, { until: (s) => s.state !== 'plan' });
    expect(otherPlanner.requests[0]?.messages[0]).toEqual(first.planner.requests[0]?.messages[0]);
    expect(JSON.stringify(otherPlanner.requests[0]?.tools)).toBe(JSON.stringify(first.planner.requests[0]?.tools));
    expect(lastUser(otherPlanner.requests[0])).toContain('A completely different objective #42');
  });

  it('turns an executor failure into an abort that the planner summarises, keeping the cycle', async () => {
    const planner = stubClient('planner', [
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
      { calls: [stage({ summary: 'Nothing was done: the executor model failed.' })] },
    ]);
    const executor = stubClient('executor', [new Error('HTTP 503 from the endpoint')]);
    const { run, team: t } = team(planner, executor);
    const cycles: Snapshot[] = [];
    const final = await drive(run, t, { onCycle: async (s) => void cycles.push(s) });

    expect(final.state).toBe('done');
    expect(final.abortReason).toBe('executor failed in state execute: HTTP 503 from the endpoint');
    expect(final.context.summary).toBe('Nothing was done: the executor model failed.');
    expect(final.context.history).toEqual([
      { directive: 'Create CHANGELOG.md.', result: '(no result reported)', outcome: 'abort' },
    ]);
    expect(cycles.map((s) => s.state)).toEqual(['abort']);
    const abortMessage = String(lastUser(planner.requests[1]));
    expect(abortMessage).toContain('Reason: executor failed in state execute: HTTP 503 from the endpoint.');
    expect(lastLine(abortMessage)).toBe(summaryStage);
  });
});

/** An executor toolbox over the temp repository whose update_context dispatches into the run. */
function executorToolbox(run: RunState): Toolbox {
  return createToolbox([
    ...createReadTools(repo),
    ...createWriteTools(repo, { protectedPaths: ['.github/workflows/**'] }),
    stagingTool(run, 'executor'),
  ]);
}

/** The executor about to be summoned for the first cycle, with the team's toolbox. */
function executingTurn(): AgentTurn {
  const run = executingRun(plan);
  return openTurn('executor', run, executorToolbox(run));
}

const userMessages = (messages: ChatCompletionMessageParam[]) =>
  messages.filter((m) => m.role === 'user').map((m) => String(m.content));
const isStallNudge = (text: string) => text.includes('exchanges without writing, running a command or staging');

describe('stall guard', () => {
  it('counts only successful writes, commands and staging as progress', () => {
    expect(madeProgress([])).toBe(false);
    expect(
      madeProgress([
        { name: 'read_file', ok: true },
        { name: 'search', ok: true },
        { name: 'list_files', ok: true },
      ]),
    ).toBe(false);
    for (const name of ['write_file', 'edit_file', 'run_command', 'update_context']) {
      expect(
        madeProgress([
          { name: 'read_file', ok: true },
          { name, ok: true },
        ]),
      ).toBe(true);
      expect(madeProgress([{ name, ok: false }])).toBe(false);
    }
  });

  it('nudges at the limit, aborts at twice the limit, and resets on progress', () => {
    const verdicts: string[] = [];
    let idle = 0;
    for (const progressed of [false, false, false, true, false, false, false, false, false, false]) {
      const step = observeExchange(idle, progressed, 3);
      idle = step.idle;
      verdicts.push(`${step.idle}:${step.verdict}`);
    }
    expect(verdicts).toEqual([
      '1:continue',
      '2:continue',
      '3:nudge',
      '0:continue',
      '1:continue',
      '2:continue',
      '3:nudge',
      '4:continue',
      '5:continue',
      '6:abort',
    ]);
    // A limit below 1 leaves the run to the machine's own bounds.
    expect(observeExchange(99, false, 0).verdict).toBe('continue');
  });

  it('words the nudge and the reason as the machine and the model need them', () => {
    const nudge = stallNudge(8, ['result', 'outcome']);
    expect(nudge.startsWith('You have made 8 exchanges without writing, running a command or staging.')).toBe(true);
    expect(lastLine(nudge)).toBe(executeStage);
    expect(stallAbortReason(16)).toBe('executor stalled: 16 exchanges without writing, running a command or staging');
  });

  it('nudges an idle executor exactly once, then aborts it at twice the limit', async () => {
    const turn = executingTurn();
    const { run, session } = turn;
    const client = stubClient(
      'executor',
      Array.from({ length: 10 }, () => ({ calls: [look] })),
    );
    await summonTurn(turn, client, facts, { stallLimit: 3 });

    expect(client.requests).toHaveLength(6);
    expect(run.snapshot.state).toBe('abort');
    expect(run.snapshot.abortReason).toBe(
      'executor stalled: 6 exchanges without writing, running a command or staging',
    );
    // The aborted cycle is kept, with the directive it was given.
    expect(run.snapshot.context.history.at(-1)?.directive).toBe('Create CHANGELOG.md.');

    const nudges = userMessages(session.messages).filter(isStallNudge);
    expect(nudges).toHaveLength(1);
    expect(nudges[0]).toMatch(/^You have made 3 exchanges without writing/);
    expect(lastLine(nudges[0])).toBe(executeStage);
    // It came right after the third exchange, so the fourth request ends with it.
    expect(client.requests[3]?.messages.at(-1)).toEqual({ role: 'user', content: nudges[0] });
    expect(userMessages(client.requests[2]?.messages ?? []).filter(isStallNudge)).toHaveLength(0);
    // The last exchange's call was answered before the turn ended.
    expect(session.messages.at(-1)?.role).toBe('tool');
    expectWellFormed(session.messages);
    expectAppendOnly(client.requests);
    expect(coreLog.warnings).toContain('executor stalled: 6 exchanges without writing, running a command or staging');
  });

  it('restarts the count after progress and treats refused writes and silence as idle', async () => {
    const turn = executingTurn();
    const { run, session } = turn;
    const client = stubClient('executor', [
      { calls: [look] },
      { calls: [look] },
      { calls: [['write_file', { path: 'CHANGELOG.md', content: '# Changelog\n' }]] },
      { calls: [look] },
      { calls: [['write_file', { path: '.github/workflows/ci.yml', content: 'x' }]] },
      { say: 'Let me think about this.' },
      { calls: [look] },
      { calls: [look] },
      { calls: [stage({ result: 'Wrote CHANGELOG.md.', outcome: 'done' })] },
    ]);
    await summonTurn(turn, client, facts, { stallLimit: 3 });

    expect(run.snapshot.state).toBe('finish');
    expect(run.snapshot.abortReason).toBeUndefined();
    expect(client.requests).toHaveLength(9);
    expect(fs.existsSync(path.join(repo, '.github/workflows/ci.yml'))).toBe(false);
    // Idle count: 1, 2, reset by the write, 1, 2 (refused write), 3 (silence) -> the one nudge.
    const nudges = userMessages(session.messages).filter(isStallNudge);
    expect(nudges).toEqual([stallNudge(3, ['result', 'outcome'])]);
    expect(client.requests[6]?.messages.at(-1)).toEqual({ role: 'user', content: nudges[0] });
    // The stall nudge stands in for the silent-turn nudge; the model never gets two in a row.
    expect(userMessages(session.messages).filter((m) => m.includes('You have not staged everything'))).toEqual([]);
    expectWellFormed(session.messages);
  });

  it('never guards the planner, however long it reads', async () => {
    const turn = planningTurn();
    const { run, session } = turn;
    const client = stubClient('planner', [
      ...Array.from({ length: 6 }, () => ({ calls: [look] })),
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
    ]);
    await summonTurn(turn, client, facts, { stallLimit: 1 });
    expect(run.snapshot.state).toBe('execute');
    expect(userMessages(session.messages).filter(isStallNudge)).toEqual([]);
    expect(client.requests).toHaveLength(7);
  });

  it('is wired through the team with its configured limit', async () => {
    const planner = stubClient('planner', [
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] },
      { calls: [stage({ summary: 'The executor stalled; nothing was changed.' })] },
    ]);
    const executor = stubClient(
      'executor',
      Array.from({ length: 4 }, () => ({ calls: [look] })),
    );
    const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
    const t = stubTeam(run, planner, executor, repo, { stallLimit: 2 });
    const final = await drive(run, t);
    expect(final.state).toBe('done');
    expect(final.abortReason).toBe('executor stalled: 4 exchanges without writing, running a command or staging');
    expect(executor.requests).toHaveLength(4);
    expect(String(lastUser(planner.requests[1]))).toContain('Reason: executor stalled: 4 exchanges');
  });
});

describe('cache diagnosis', () => {
  const tool = (name: string, description = `The ${name} tool.`): ChatCompletionFunctionTool => ({
    type: 'function',
    function: { name, description, parameters: { type: 'object' } },
  });
  const frozenTools = [tool('list_files'), tool('read_file'), tool('update_context')];

  function conversation(): Session {
    const session = new Session('planner', 'The system prompt.', frozenTools);
    session.append({ role: 'user', content: 'Objective: keep the secret sk-123 out of logs.' });
    session.append({ role: 'assistant', content: 'Reading.', refusal: null });
    return session;
  }

  it('finds nothing wrong with a request that extends the last one behind the frozen prefix', () => {
    const session = conversation();
    const previous = session.messages.slice(0, 2);
    expect(checkPrefix({ messages: session.messages, tools: [...session.tools] }, session, previous)).toEqual([]);
    expect(checkPrefix({ messages: session.messages, tools: [...session.tools] }, session)).toEqual([]);
  });

  it('names the system prompt, the tools or the first message that differ', () => {
    const session = conversation();
    const messages = session.messages;
    const otherSystem = [{ role: 'system' as const, content: 'A new system prompt.' }, ...messages.slice(1)];
    expect(checkPrefix({ messages: otherSystem, tools: frozenTools }, session)).toEqual([{ part: 'system' }]);
    expect(checkPrefix({ messages: messages.slice(1), tools: frozenTools }, session)).toEqual([{ part: 'system' }]);

    const changed = [tool('list_files'), tool('read_file', 'Reads a file. Allowed: npm test.'), tool('write_file')];
    expect(checkPrefix({ messages, tools: changed }, session)).toEqual([
      { part: 'tools', names: ['read_file', 'update_context', 'write_file'] },
    ]);
    expect(checkPrefix({ messages, tools: [...frozenTools].reverse() }, session)).toEqual([
      { part: 'tools', names: [] },
    ]);

    const rewritten = [
      ...messages.slice(0, 2),
      { role: 'assistant' as const, content: 'Edited later.', refusal: null },
    ];
    expect(checkPrefix({ messages: rewritten, tools: frozenTools }, session, messages)).toEqual([
      { part: 'message', index: 2, missing: false },
    ]);
    expect(checkPrefix({ messages: messages.slice(0, 2), tools: frozenTools }, session, messages)).toEqual([
      { part: 'message', index: 2, missing: true },
    ]);
  });

  it('describes a broken prefix in one line without message content', () => {
    const text = describePrefixBreaks('executor', 'abc123', [
      { part: 'system' },
      { part: 'tools', names: ['run_command'] },
      { part: 'message', index: 4, missing: false },
    ]);
    expect(text).toContain('executor prefix broken (session abc123)');
    expect(text).toContain('system prompt');
    expect(text).toContain('tools differ (run_command)');
    expect(text).toContain('message 4 differs');
    expect(text).not.toContain('\n');
  });

  it('expects the previous prompt, in whole blocks, once it is long enough to be cached', () => {
    expect(cacheShortfall(undefined, 0)).toBeNull();
    expect(cacheShortfall(1023, 0)).toBeNull();
    // 2000 tokens -> 1920 expected; one block short is rounding, more is a miss.
    expect(cacheShortfall(2000, 1920)).toBeNull();
    expect(cacheShortfall(2000, 1792)).toBeNull();
    expect(cacheShortfall(2000, 1791)).toEqual({ expected: 1920, cached: 1791 });
    expect(cacheShortfall(1024, 0)).toEqual({ expected: 1024, cached: 0 });
    const text = describeCacheShortfall('planner', { expected: 1920, cached: 0 });
    expect(text).toContain(
      'provider cached 0 of ~1920 expected tokens: the prefix was evicted or the provider does not cache this model',
    );
    expect(text).not.toContain('\n');
  });

  /** A session that rewrites what it sends, as a regression would: the checks must catch it. */
  class RewritingSession extends Session {
    constructor(
      private readonly rewrite: (
        messages: ChatCompletionMessageParam[],
        sentBefore: boolean,
      ) => ChatCompletionMessageParam[],
      toolbox: Toolbox,
    ) {
      super('planner', plannerSystemPrompt, toolbox.specs);
    }

    override get messages(): ChatCompletionMessageParam[] {
      return this.rewrite(super.messages, this.lastRequest !== undefined);
    }
  }

  const big = (promptTokens: number, cachedTokens: number): TokenUsage => ({
    promptTokens,
    cachedTokens,
    completionTokens: 10,
  });

  /** A planner that looks twice, then stages, on prompts long enough to be cached; the third hits the cache. */
  const longPromptPlanner = () =>
    stubClient('planner', [
      { calls: [look], usage: big(2000, 0) },
      { calls: [look], usage: big(2100, 0) },
      { calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })], usage: big(2300, 2048) },
    ]);

  it('reports a cache shortfall on the provider when the prefix was intact', async () => {
    await summonTurn(planningTurn(), longPromptPlanner(), facts);
    expect(coreLog.warnings).toEqual([]);
    // Only the second answer fell short: the first had nothing before it, the third got its ~2048.
    expect(coreLog.infos.filter((line) => line.includes('provider cached'))).toEqual([
      describeCacheShortfall('planner', { expected: 1920, cached: 0 }),
    ]);
  });

  it('warns when a request rewrites an earlier message, and then blames the prefix, not the provider', async () => {
    const run = startPlanning();
    const toolbox = plannerToolbox(run);
    const session = new RewritingSession(
      (messages, sentBefore) =>
        sentBefore
          ? messages.map((m, i) => (i === 1 ? { role: 'user', content: `${String(m.content)} (today)` } : m))
          : messages,
      toolbox,
    );
    const client = longPromptPlanner();
    await summonTurn({ run, toolbox, session }, client, facts);
    // Once: the third request extends the (rewritten) second one exactly.
    expect(coreLog.warnings).toHaveLength(1);
    expect(coreLog.warnings[0]).toContain(`planner prefix broken (session ${session.prefixHash})`);
    expect(coreLog.warnings[0]).toContain('message 1 differs');
    expect(coreLog.warnings[0]).not.toContain('Add a CHANGELOG');
    expect(coreLog.infos.filter((line) => line.includes('provider cached'))).toEqual([]);
  });

  it('warns when the system prompt sent is not the session’s', async () => {
    const run = startPlanning();
    const toolbox = plannerToolbox(run);
    const session = new RewritingSession(
      (messages) =>
        messages.map((m, i) => (i === 0 ? { role: 'system', content: `${plannerSystemPrompt}\nToday is Monday.` } : m)),
      toolbox,
    );
    const client = stubClient('planner', [{ calls: [stage({ plan, directive: 'Create CHANGELOG.md.' })] }]);
    await summonTurn({ run, toolbox, session }, client, facts);
    expect(coreLog.warnings).toHaveLength(1);
    expect(coreLog.warnings[0]).toContain('the system prompt differs');
  });
});

describe('drive when the machine waits on the host', () => {
  it('returns in a state that summons no agent instead of spinning', async () => {
    const run = startPlanning();
    let summoned = 0;
    const team: Pick<Team, 'summonCurrent'> = {
      async summonCurrent() {
        // Without the wait check drive would come back here with nobody to summon; fail loudly instead of hanging.
        if (++summoned > 1) throw new Error('summoned again while waiting');
        run.dispatch({
          type: 'stage',
          agent: 'planner',
          fields: { question: 'Keep a changelog per package or one for the repo?' },
        });
      },
    };
    const final = await drive(run, team);
    expect(final.state).toBe('ask');
    expect(final.abortReason).toBeUndefined();
    expect(summoned).toBe(1);
  });
});
