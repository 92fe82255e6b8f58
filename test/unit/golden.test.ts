import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { drive } from '../../src/agents/drive.js';
import { repositoryInstructionsText } from '../../src/agents/repository-instructions.js';
import { RunState } from '../../src/agents/run-state.js';
import { createTeam } from '../../src/agents/team.js';
import { storeChecks } from '../../src/checks/stored-checks.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import type { Snapshot } from '../../src/machine/types.js';
import type { ChatRequest } from '../../src/models/chat-client.js';
import { addTurn, emptyUsage, summarizeUsage } from '../../src/models/usage.js';
import { renderPlanComment } from '../../src/render/plan-comment.js';
import { renderProgressComment } from '../../src/render/progress-comment.js';
import { renderPullRequestBody } from '../../src/render/pull-request.js';
import type { ApprovedScope } from '../../src/scope/approved-scope.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { untrusted } from '../../src/text/untrusted.js';
import { makeRecord, makeRunView, samplePlan, scopeOf } from './record-fixture.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { stage, stubClient, type StubClient } from './agent-fixture.js';

vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

/**
 * Golden files for the words plangate sends and posts: the planner's and the executor's prompts
 * (system prompts, tool specs and the messages that summon them) and the plan comment, the progress
 * comment and the pull request body. Each is rendered from fixed inputs (no clock, no random id, no
 * temp path) and compared byte for byte with its file under test/golden/, so a wording change shows
 * up as a diff a reviewer reads. After an intended change, rewrite the files and review the diff:
 *
 *     UPDATE_GOLDEN=1 npx vitest run test/unit/golden.test.ts && git diff test/golden
 */

const goldenDir = fileURLToPath(new URL('../golden/', import.meta.url));
const updating = process.env.UPDATE_GOLDEN === '1';
const howToUpdate =
  'if the change is intended, run `UPDATE_GOLDEN=1 npx vitest run test/unit/golden.test.ts` and review `git diff test/golden`';

/** Compares `actual` with test/golden/`name` byte for byte; with UPDATE_GOLDEN=1, writes it instead. */
function expectGolden(name: string, actual: string): void {
  const file = path.join(goldenDir, name);
  if (updating) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, actual);
    return;
  }
  if (!fs.existsSync(file)) throw new Error(`test/golden/${name} does not exist: ${howToUpdate}`);
  const expected = fs.readFileSync(file);
  if (!expected.equals(Buffer.from(actual, 'utf8'))) {
    // toBe shows a line diff; the message says how to accept it.
    expect(actual, `test/golden/${name} differs from what is rendered now: ${howToUpdate}`).toBe(
      expected.toString('utf8'),
    );
  }
}

/** Every golden file this test writes, by name; anything else under test/golden/ is stale. */
const goldenNames = [
  'prompts/planner-system.md',
  'prompts/planner-tools.json',
  'prompts/planner-plan-message.md',
  'prompts/planner-replan-message.md',
  'prompts/planner-finish-message.md',
  'prompts/executor-system.md',
  'prompts/executor-tools.json',
  'prompts/executor-first-message.md',
  'prompts/executor-next-message.md',
  'render/plan-comment.md',
  'render/progress-comment.md',
  'render/pull-request-body.md',
];

function listGolden(dir = goldenDir, prefix = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listGolden(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    );
}

describe('golden files', () => {
  it('has a file for every golden and no file without one', () => {
    const stale = listGolden().filter((name) => !goldenNames.includes(name));
    if (updating) for (const name of stale) fs.rmSync(path.join(goldenDir, name));
    else expect(stale, `stale files under test/golden/: delete them, or ${howToUpdate}`).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Prompts: a whole run (plan, execute, replan, execute, finish) through the real team, with scripted
// clients that record every request exactly as it would be sent.

/** Scripted clients that answer with these tool calls, on a prompt mostly read from the cache. */
const recordingClient = (role: Role, replies: Array<Array<[name: string, args: unknown]>>): StubClient =>
  stubClient(
    role,
    replies.map((calls) => ({ calls })),
    { usage: { promptTokens: 1_000, cachedTokens: 800, completionTokens: 50 } },
  );

/** The plan the planner stages, and the one its replan stages after the first cycle's evidence. */
const plan: Plan = samplePlan;
const revisedPlan: Plan = {
  ...samplePlan,
  steps: [...samplePlan.steps, { title: 'Mention the changelog in CONTRIBUTING.md', files: ['CONTRIBUTING.md'] }],
};

/** What the executor reported for each cycle, and the directive the planner's replan staged. */
const firstResult = 'Wrote CHANGELOG.md with a 0.1.0 entry; npm test passed.';
const secondDirective = 'Link CHANGELOG.md from README.md under a "Changes" heading.';
const secondResult = 'Linked it under "Changes"; npm test passed.';

/** The thread as the host marks it for the planner (run/thread-context.ts): the issue, then a trusted comment. */
const thread = [
  untrusted('issue #7: title and body', 'Add a CHANGELOG\n\nWe have none. Releases are tagged by hand.'),
  untrusted('comment by @alice', 'Please follow Keep a Changelog.'),
].join('\n\n');

const instructions = repositoryInstructionsText([
  {
    path: 'AGENTS.md',
    bytes: 64,
    content: '# Agents\n\nRun `npm test` before you finish. Use two-space indentation.\n',
  },
]);

/** The first message a request adds after the system prompt and what came before: the user message it ends with. */
const lastUserMessage = (request: ChatRequest | undefined): string => {
  const content = request?.messages.filter((m: ChatCompletionMessageParam) => m.role === 'user').at(-1)?.content;
  if (typeof content !== 'string') throw new Error('the request ends with no user message');
  return content;
};
const systemPrompt = (request: ChatRequest | undefined): string => {
  const content = request?.messages[0]?.content;
  if (request?.messages[0]?.role !== 'system' || typeof content !== 'string')
    throw new Error('the request opens with no system prompt');
  return content;
};
const toolSpecs = (request: ChatRequest | undefined): string => `${JSON.stringify(request?.tools ?? [], null, 2)}\n`;

describe('prompts', () => {
  let repo: string;
  let planner: StubClient;
  let executor: StubClient;

  beforeAll(async () => {
    repo = makeRepo({ 'README.md': '# widgets\n', 'AGENTS.md': '# Agents\n' });
    const start = initialSnapshot('Add a CHANGELOG', defaultPolicy);
    const run = new RunState(plannerExecutorMachine, { ...start, context: { ...start.context, thread } });
    planner = recordingClient('planner', [
      [stage({ plan, directive: 'Create CHANGELOG.md in Keep a Changelog format with a 0.1.0 entry.' })],
      [stage({ plan: revisedPlan, directive: secondDirective })],
      [stage({ summary: 'Added CHANGELOG.md and linked it from the README; npm test passed.' })],
    ]);
    executor = recordingClient('executor', [
      [stage({ result: firstResult, outcome: 'replan' })],
      [stage({ result: 'Linked CHANGELOG.md from README.md; npm test passed.', outcome: 'done' })],
    ]);
    const team = (extra: { scope?: ApprovedScope } = {}) =>
      createTeam({
        run,
        planner,
        executor,
        sandbox: createSandbox({ isolation: 'none', workTree: repo }),
        allowedCommands: ['npm test', 'npm run lint -- *'],
        protectedPaths: ['.github/workflows/**', 'package-lock.json'],
        commandTimeoutMs: 300_000,
        stallLimit: 8,
        instructions,
        onUsage: () => undefined,
        ...extra,
      });
    // As the two jobs do it: /plan plans with no scope (the plan is what will define it); the approved
    // run's team is held to the scope the approval granted, and every agent of it is told that scope.
    const planned = await drive(run, team(), { until: (s) => s.state !== 'plan' });
    expect(planned.state).toBe('execute');
    const final = await drive(run, team({ scope: scopeOf(plan) }));
    expect(final.state).toBe('done');
    expect(planner.requests).toHaveLength(3);
    expect(executor.requests).toHaveLength(2);
  });

  afterAll(() => removeDir(repo));

  it('the planner: system prompt, tools and the messages for plan, replan and finish', () => {
    expectGolden('prompts/planner-system.md', systemPrompt(planner.requests[0]));
    expectGolden('prompts/planner-tools.json', toolSpecs(planner.requests[0]));
    expectGolden('prompts/planner-plan-message.md', lastUserMessage(planner.requests[0]));
    expectGolden('prompts/planner-replan-message.md', lastUserMessage(planner.requests[1]));
    expectGolden('prompts/planner-finish-message.md', lastUserMessage(planner.requests[2]));
  });

  it('the executor: system prompt, tools, its first message and the next directive', () => {
    expectGolden('prompts/executor-system.md', systemPrompt(executor.requests[0]));
    expectGolden('prompts/executor-tools.json', toolSpecs(executor.requests[0]));
    expectGolden('prompts/executor-first-message.md', lastUserMessage(executor.requests[0]));
    expectGolden('prompts/executor-next-message.md', lastUserMessage(executor.requests[1]));
  });

  it('keeps temp paths out of the prompts, so the files do not depend on the machine', () => {
    const everything = JSON.stringify([planner.requests, executor.requests]);
    expect(everything).not.toContain(repo);
  });
});

// ---------------------------------------------------------------------------------------------
// What plangate posts on GitHub, from the record fixture's plan run.

/** Stands for the encoded record: its bytes are deflate output, which says nothing to a reviewer. */
const recordMarker = '<!-- plangate:record v1 (the encoded plan record) -->';

const usage = summarizeUsage(
  addTurn(
    addTurn(emptyUsage(), 'planner', 'gpt-4.1', {
      promptTokens: 24_000,
      cachedTokens: 18_000,
      completionTokens: 1_500,
    }),
    'executor',
    'gpt-4.1-mini',
    { promptTokens: 61_000, cachedTokens: 52_000, completionTokens: 4_200 },
  ),
);
const estimate = { kind: 'range', model: 'gpt-4.1-mini', steps: 2, lowUsd: 0.01, highUsd: 0.08 } as const;
type RunEvent = Parameters<RunState['dispatch']>[0];

/** The record fixture's planned snapshot (directive "Create CHANGELOG.md."), moved on by the real machine as a run would. */
function runTo(events: RunEvent[]): Snapshot {
  const run = new RunState(plannerExecutorMachine, makeRecord().snapshot);
  for (const event of events) run.dispatch(event);
  return run.snapshot;
}

describe('GitHub bodies', () => {
  it('the plan comment, with its checks and estimate', () => {
    const checks = storeChecks(
      [{ kind: 'command-not-allowed', severity: 'warning', step: 1, command: 'npm test' }],
      estimate,
    );
    expectGolden('render/plan-comment.md', renderPlanComment(makeRecord({ overrides: { checks } }), recordMarker));
  });

  it('the progress comment, mid-run after a replan added a step', () => {
    const snapshot = runTo([
      { type: 'stage', agent: 'executor', fields: { result: firstResult, outcome: 'replan' } },
      { type: 'stage', agent: 'planner', fields: { plan: revisedPlan, directive: secondDirective } },
    ]);
    expect(snapshot.state).toBe('execute');
    const started = Date.UTC(2026, 0, 5, 9, 0, 0);
    const body = renderProgressComment(makeRunView(snapshot, { approvedPlan: plan, usage, estimate }), {
      startedAt: started,
      now: () => started + 7 * 60_000 + 12_000,
      branchUrl: 'http://127.0.0.1/octo/widgets/tree/plangate/7-0a1b2c3d',
    });
    expectGolden('render/progress-comment.md', body);
  });

  it('the pull request body of a finished run', () => {
    const snapshot = runTo([
      { type: 'stage', agent: 'executor', fields: { result: firstResult, outcome: 'replan' } },
      { type: 'stage', agent: 'planner', fields: { directive: secondDirective } },
      { type: 'stage', agent: 'executor', fields: { result: secondResult, outcome: 'done' } },
      {
        type: 'stage',
        agent: 'planner',
        fields: {
          summary:
            'Added CHANGELOG.md (Keep a Changelog, 0.1.0) and linked it from the README. `npm test` passed after each step.',
        },
      },
    ]);
    expect(snapshot.state).toBe('done');
    const view = makeRunView(snapshot, {
      approvedPlan: plan,
      usage,
      estimate,
      pullRequestUrl: 'http://127.0.0.1/octo/widgets/pull/12',
      diffStat: ' CHANGELOG.md | 9 +++++++++\n README.md    | 4 ++++\n 2 files changed, 13 insertions(+)\n',
      ended: { outcome: 'done' },
    });
    expectGolden('render/pull-request-body.md', renderPullRequestBody(view));
  });
});
