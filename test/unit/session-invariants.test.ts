import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { drive } from '../../src/agents/drive.js';
import { executorSystemPrompt } from '../../src/agents/executor.js';
import { plannerSystemPrompt } from '../../src/agents/planner.js';
import { readRepositoryInstructions } from '../../src/agents/repository-instructions.js';
import { workspaceRulesText } from '../../src/agents/workspace-rules.js';
import { RunState } from '../../src/agents/run-state.js';
import { createTeam } from '../../src/agents/team.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import type { Snapshot } from '../../src/machine/types.js';
import { createChatClient } from '../../src/models/chat-client.js';
import { createGit } from '../../src/repo/git.js';
import { addTurn, emptyUsage, summarizeUsage, type UsageLedger } from '../../src/models/usage.js';
import { cacheEfficiency, groupSessions, prefixOf } from '../fakes/prefix-efficiency.js';
import { countTokens, reportableCachedTokens, serializePrompt, tokensOf } from '../fakes/prompt-cache.js';
import {
  startScriptedModel,
  toolCall,
  type RecordedRequest,
  type Reply,
  type ScriptedModel,
} from '../fakes/scripted-model.js';
import { makeRepo, removeDir } from './tools-git-fixture.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { coreLog, resetCoreLog } from '../helpers/core-mock.js';

/**
 * The cache contract of the sessions, checked on the wire: the real `openai` client talks to the
 * scripted model server, which records every request and reports cached tokens from what was really
 * sent. Whatever plangate's messages say, these invariants must hold.
 */

// Collected so a healthy run can be shown to raise no diagnosis at all.
vi.mock('@actions/core', async (importOriginal) => (await import('../helpers/core-mock.js')).coreMock(importOriginal));

const PLANNER_MODEL = 'planner-model';
const EXECUTOR_MODEL = 'executor-model';
const API_KEY = 'sk-scripted';

const stage = (fields: Record<string, unknown>): Reply => toolCall('update_context', fields);

interface RunSetup {
  files: Record<string, string>;
  objective: string;
  allowedCommands: string[];
  protectedPaths: string[];
  commandTimeoutMs?: number;
  /** Give the team the instructions read from the repository's committed files, as the flows do. */
  readInstructions?: boolean;
  planner: Reply[];
  executor: Reply[];
}

interface RunOutcome {
  final: Snapshot;
  requests: RecordedRequest[];
  ledger: UsageLedger;
  workspace: string;
  remaining: Record<string, number>;
  instructions: string;
}

const cleanup: Array<() => Promise<void> | void> = [];

beforeEach(() => {
  resetCoreLog();
});

afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

/** One whole run through createTeam over a temp repository and the scripted model server. */
async function scriptedRun(setup: RunSetup): Promise<RunOutcome> {
  const workspace = makeRepo(setup.files);
  cleanup.push(() => removeDir(workspace));
  const server: ScriptedModel = await startScriptedModel({
    script: { [PLANNER_MODEL]: setup.planner, [EXECUTOR_MODEL]: setup.executor },
    apiKey: API_KEY,
  });
  cleanup.push(() => server.close());
  const endpoint = (model: string) => ({ model, baseURL: server.url, apiKey: API_KEY });
  const run = new RunState(plannerExecutorMachine, initialSnapshot(setup.objective, defaultPolicy));
  let ledger = emptyUsage();
  const instructions = setup.readInstructions ? await readRepositoryInstructions(createGit(workspace), 'HEAD') : '';
  const team = createTeam({
    run,
    planner: createChatClient('planner', endpoint(PLANNER_MODEL), { maxRetries: 0 }),
    executor: createChatClient('executor', endpoint(EXECUTOR_MODEL), { maxRetries: 0 }),
    sandbox: createSandbox({ isolation: 'none', workTree: workspace }),
    allowedCommands: setup.allowedCommands,
    protectedPaths: setup.protectedPaths,
    commandTimeoutMs: setup.commandTimeoutMs ?? 60_000,
    stallLimit: 8,
    instructions,
    onUsage: (role: Role, model, tokens) => {
      ledger = addTurn(ledger, role, model, tokens);
    },
  });
  const final = await drive(run, team);
  return { final, requests: server.requests, ledger, workspace, remaining: server.remaining(), instructions };
}

const roleOf = (request: RecordedRequest): Role => (request.model === PLANNER_MODEL ? 'planner' : 'executor');

/** Requests grouped by session: one executor session for the run, a fresh planner session per summons. */
const sessions = (requests: readonly RecordedRequest[]) => groupSessions(requests, roleOf);

function expectExtends(session: readonly RecordedRequest[], label: string): void {
  for (let i = 1; i < session.length; i++) {
    const before = session[i - 1] as RecordedRequest;
    const after = session[i] as RecordedRequest;
    expect(after.messages.length, `${label}: request ${after.index} is longer`).toBeGreaterThan(before.messages.length);
    expect(
      after.messages.slice(0, before.messages.length),
      `${label}: request ${after.index} extends ${before.index}`,
    ).toEqual(before.messages);
  }
}

const userTexts = (requests: readonly RecordedRequest[]): string =>
  requests
    .flatMap((r) => r.messages)
    .filter((m: ChatCompletionMessageParam) => m.role === 'user')
    .map((m) => String(m.content))
    .join('\n');

const plan: Plan = {
  steps: [
    { title: 'Add the version constant', files: ['src/index.ts'] },
    { title: 'Document it', files: ['CHANGELOG.md'] },
  ],
};

/** The task of the version-constant runs: the repository, the objective and what the executor may do. */
const versionTask = {
  files: { 'README.md': '# widgets\n', 'src/index.ts': 'export const x = 1;\n' },
  objective: 'Export a version constant and note it in a changelog',
  allowedCommands: ['npm test'],
  protectedPaths: ['.github/workflows/**'],
};

describe('session invariants on the wire', () => {
  it('keeps every session append-only behind one byte-identical prefix per role', async () => {
    const outcome = await scriptedRun({
      ...versionTask,
      planner: [
        toolCall('list_files', {}),
        toolCall('read_file', { path: 'src/index.ts' }),
        stage({ plan, directive: 'Add `export const version = "0.1.0";` to src/index.ts.' }),
        stage({ directive: 'Create CHANGELOG.md with a 0.1.0 entry.' }),
        stage({ summary: 'Added a version constant and a changelog.' }),
      ],
      executor: [
        toolCall('read_file', { path: 'src/index.ts' }),
        toolCall('edit_file', {
          path: 'src/index.ts',
          old: 'export const x = 1;\n',
          new: 'export const x = 1;\nexport const version = "0.1.0";\n',
        }),
        stage({ result: 'Added the constant to src/index.ts.', outcome: 'replan' }),
        toolCall('write_file', { path: 'CHANGELOG.md', content: '# Changelog\n\n## 0.1.0\n' }),
        stage({ result: 'Wrote CHANGELOG.md.', outcome: 'done' }),
      ],
    });

    expect(outcome.final.state).toBe('done');
    expect(outcome.final.abortReason).toBeUndefined();
    expect(outcome.remaining).toEqual({ [PLANNER_MODEL]: 0, [EXECUTOR_MODEL]: 0 });
    expect(outcome.requests.every((r) => r.status === 200)).toBe(true);

    const grouped = sessions(outcome.requests);
    // The executor's one session is listed where it started; the replan and finish planners follow.
    expect(grouped.map((s) => `${s.role}×${s.requests.length}`)).toEqual([
      'planner×3',
      'executor×5',
      'planner×1',
      'planner×1',
    ]);
    for (const [i, session] of grouped.entries()) expectExtends(session.requests, `${session.role} session ${i}`);
    // A planner session always starts fresh: system prompt and its summoning message only.
    for (const session of grouped.filter((s) => s.role === 'planner'))
      expect(session.requests[0]?.messages).toHaveLength(2);

    const planner = outcome.requests.filter((r) => roleOf(r) === 'planner');
    const executor = outcome.requests.filter((r) => roleOf(r) === 'executor');
    expect(planner).toHaveLength(5);
    expect(executor).toHaveLength(5);
    expect(new Set(planner.map(prefixOf)).size).toBe(1);
    expect(new Set(executor.map(prefixOf)).size).toBe(1);
    expect(planner[0]?.messages[0]).toEqual({ role: 'system', content: plannerSystemPrompt });
    expect(executor[0]?.messages[0]).toEqual({ role: 'system', content: executorSystemPrompt });

    // The run's own checks agree: no broken prefix, no cache shortfall.
    expect(coreLog.warnings.filter((w) => w.includes('prefix broken'))).toEqual([]);
    expect(coreLog.infos.filter((i) => i.includes('provider cached'))).toEqual([]);
  });

  it('keeps per-run values out of both prefixes', async () => {
    const runs = [
      {
        objective: 'Add a CHANGELOG for issue #17 (run 1001)',
        // Distinctive values: a generic one like "npm test" is also the fixed example in run_command's schema.
        allowedCommands: ['npm run test:ci', 'npm run lint:widgets'],
        protectedPaths: ['.github/workflows/**'],
        commandTimeoutMs: 30_000,
      },
      {
        objective: 'Fix the flaky retry test reported in issue #42 (run 2002)',
        allowedCommands: ['npx vitest run **', 'node scripts/check.mjs'],
        protectedPaths: ['secrets/**', 'dist/**'],
        commandTimeoutMs: 45_000,
      },
    ];
    const outcomes: RunOutcome[] = [];
    for (const setup of runs) {
      outcomes.push(
        await scriptedRun({
          ...setup,
          files: { 'README.md': '# widgets\n' },
          planner: [stage({ plan, directive: 'Do step 1.' }), stage({ summary: 'Done.' })],
          executor: [stage({ result: 'Did step 1.', outcome: 'done' })],
        }),
      );
    }
    const [a, b] = outcomes as [RunOutcome, RunOutcome];
    expect(a.workspace).not.toBe(b.workspace);
    expect(a.final.state).toBe('done');
    expect(b.final.state).toBe('done');

    for (const role of ['planner', 'executor'] as const) {
      const prefixA = prefixOf(a.requests.find((r) => roleOf(r) === role));
      const prefixB = prefixOf(b.requests.find((r) => roleOf(r) === role));
      expect(prefixA.length).toBeGreaterThan(1000);
      expect(prefixB, `${role} prefixes differ between runs`).toBe(prefixA);
      const perRun = runs.flatMap((r) => [r.objective, ...r.allowedCommands, ...r.protectedPaths]);
      for (const value of [a.workspace, b.workspace, '#17', '#42', '1001', '2002', ...perRun]) {
        expect(prefixA, `${role} prefix holds the per-run value ${value}`).not.toContain(value);
      }
    }

    // The per-repository values still reach the agents, in user messages.
    for (const [i, outcome] of outcomes.entries()) {
      const setup = runs[i] as (typeof runs)[number];
      for (const role of ['planner', 'executor'] as const) {
        const texts = userTexts(outcome.requests.filter((r) => roleOf(r) === role));
        for (const command of setup.allowedCommands) expect(texts, `${role} is told ${command}`).toContain(command);
        for (const pattern of setup.protectedPaths) expect(texts, `${role} is told ${pattern}`).toContain(pattern);
      }
      // run_command's schema and description name no command and no timeout.
      const runCommand = outcome.requests
        .find((r) => roleOf(r) === 'executor')
        ?.tools.find((t) => t.type === 'function' && t.function.name === 'run_command');
      expect(runCommand).toBeDefined();
      const spec = JSON.stringify(runCommand);
      for (const command of setup.allowedCommands) expect(spec).not.toContain(command);
      expect(spec).not.toContain(String(setup.commandTimeoutMs / 1000));
    }
  });
});

/** An AGENTS.md of a few KB, as real ones are: long enough that caching it is worth something. */
const agentsMd = [
  '# Working on widgets',
  '',
  ...Array.from(
    { length: 40 },
    (_, i) =>
      `- Rule ${i + 1}: keep widget module ${i + 1} free of side effects and cover it in test/widget-${i + 1}.test.ts.`,
  ),
  '',
  'Run `npm run test:ci` before you hand work back.',
].join('\n');
const claudeMd = '# Claude\n\nCommit messages use the imperative mood.\n';

/** The per-repository text that opens a session's first message, before the first per-run section. */
function standingOf(request: RecordedRequest): string {
  const first = request.messages[1];
  expect(first?.role, `request ${request.index} has a user message behind the system prompt`).toBe('user');
  const text = String(first?.content);
  const at = text.indexOf('\n\n## Objective\n\n');
  expect(at, `request ${request.index}: the standing context comes before the objective`).toBeGreaterThan(0);
  return text.slice(0, at);
}

describe('repository instructions behind the frozen prefix', () => {
  it('opens every planner and executor request with the same instructions, in every session and every run', async () => {
    const rules = {
      allowedCommands: ['npm run test:ci'],
      protectedPaths: ['.github/workflows/**'],
      commandTimeoutMs: 60_000,
    };
    const runs = [
      {
        objective: 'Add a CHANGELOG for issue #17 (run 1001)',
        // Plan, two executor cycles with a replan between them, then the summary: four planner sessions' worth of prefixes.
        planner: [
          stage({ plan, directive: 'Do step 1.' }),
          stage({ directive: 'Do step 2.' }),
          stage({ summary: 'Done.' }),
        ],
        executor: [
          stage({ result: 'Did step 1.', outcome: 'replan' }),
          stage({ result: 'Did step 2.', outcome: 'done' }),
        ],
      },
      {
        objective: 'Fix the flaky retry test reported in issue #42 (run 2002)',
        planner: [stage({ plan, directive: 'Do step 1.' }), stage({ summary: 'Done.' })],
        executor: [stage({ result: 'Did step 1.', outcome: 'done' })],
      },
    ];
    const outcomes: RunOutcome[] = [];
    for (const setup of runs) {
      outcomes.push(
        await scriptedRun({
          ...setup,
          ...rules,
          files: { 'README.md': '# widgets\n', 'AGENTS.md': agentsMd, 'CLAUDE.md': claudeMd },
          readInstructions: true,
        }),
      );
    }
    const [a, b] = outcomes as [RunOutcome, RunOutcome];
    expect(a.final.state).toBe('done');
    expect(b.final.state).toBe('done');
    expect(a.remaining).toEqual({ [PLANNER_MODEL]: 0, [EXECUTOR_MODEL]: 0 });
    expect(b.remaining).toEqual({ [PLANNER_MODEL]: 0, [EXECUTOR_MODEL]: 0 });
    expect(sessions(a.requests).map((s) => s.role)).toEqual(['planner', 'executor', 'planner', 'planner']);

    // Both runs read the same committed files, so they give the team the same text, fenced as guidance.
    expect(a.instructions).toBe(b.instructions);
    expect(a.instructions).toContain(
      `<repository-instructions source="AGENTS.md">\n${agentsMd}\n</repository-instructions>`,
    );
    expect(a.instructions).toContain(
      '<repository-instructions source="CLAUDE.md">\n# Claude\n\nCommit messages use the imperative mood.\n</repository-instructions>',
    );
    expect(a.instructions.indexOf('source="AGENTS.md"')).toBeLessThan(a.instructions.indexOf('source="CLAUDE.md"'));

    // Every request of either role, in every session of both runs: system + tools, then the workspace
    // rules and the instructions, byte for byte the same, before anything that belongs to the run.
    const all = [...a.requests, ...b.requests];
    const expected = `${workspaceRulesText(rules)}\n\n${a.instructions}`;
    for (const request of all) {
      expect(standingOf(request), `request ${request.index} (${roleOf(request)})`).toBe(expected);
      expect(request.messages[0]).toEqual({
        role: 'system',
        content: roleOf(request) === 'planner' ? plannerSystemPrompt : executorSystemPrompt,
      });
    }
    for (const role of ['planner', 'executor'] as const) {
      const prefixes = new Set(all.filter((r) => roleOf(r) === role).map(prefixOf));
      expect(prefixes.size, `${role}: one system+tools prefix across both runs`).toBe(1);
      // Repository content stays out of the system prompt and the tool schemas.
      const [prefix] = [...prefixes];
      expect(prefix).not.toContain('Rule 1:');
      expect(prefix).not.toContain('imperative mood');
    }
    for (const value of ['#17', '#42', '1001', '2002', a.workspace, b.workspace]) expect(expected).not.toContain(value);

    // The point of the position: a later session's first request finds the instructions cached with
    // the system prompt and tools (the emulated provider reports whole 128-token blocks past 1024).
    const replan = sessions(a.requests)[2]?.requests[0] as RecordedRequest;
    const system = replan.messages.slice(0, 1);
    const frozenTokens = countTokens(serializePrompt(replan.tools, system));
    const standingTokens = Math.floor(`message:{"content":${JSON.stringify(expected).slice(0, -1)}`.length / 4);
    expect(tokensOf(expected)).toBeGreaterThan(256);
    expect(replan.usage?.prompt_tokens_details.cached_tokens).toBeGreaterThanOrEqual(
      reportableCachedTokens(frozenTokens + standingTokens),
    );
    expect(reportableCachedTokens(frozenTokens + standingTokens)).toBeGreaterThan(
      reportableCachedTokens(frozenTokens) + 128,
    );
    expect(coreLog.warnings.filter((w) => w.includes('prefix broken'))).toEqual([]);
  });
});

/** Lines of a generated TypeScript module, long enough to read like a real source file. */
function engineSource(): string {
  const lines = ['// The widget engine: one scaling step per widget kind.', "import { clamp } from './util.js';", ''];
  for (let i = 1; lines.length < 300; i++) {
    lines.push(
      `/** Step ${i}: scales the input for widget kind ${i} and keeps it in range. */`,
      `export function step${i}(input: number): number {`,
      `  return clamp(input * ${i} + ${i % 7}, 0, ${1000 + i * 13});`,
      '}',
      '',
    );
  }
  return lines.join('\n');
}

/** A helper module with 40 TODO markers, for a search with many matches. */
function utilSource(): string {
  const lines = [
    '/** Keeps a value within [low, high]. */',
    'export function clamp(value: number, low: number, high: number): number {',
  ];
  for (let i = 1; i <= 40; i++)
    lines.push(`  // TODO(${i}): tighten the bound for widget kind ${i} once the spec settles`);
  lines.push('  return Math.min(high, Math.max(low, value));', '}', '');
  return lines.join('\n');
}

/** A test report of a few KB on stdout, like a real test runner's. */
const reportScript = `for (let i = 1; i <= 70; i++) {
  process.stdout.write('ok ' + i + ' - engine step' + i + ' keeps its output within range (' + (i * 3) + ' ms)\\n');
}
process.stdout.write('# tests 70\\n# pass 70\\n# fail 0\\n');
`;

const reportCommand = 'node scripts/report.mjs';

/** The executor's change, the report run after it, and the result it stages saying the report passes. */
const reportedChange = (change: Reply, did: string, outcome: 'replan' | 'done' = 'replan'): Reply[] => [
  change,
  toolCall('run_command', { command: reportCommand }),
  stage({ result: `${did}; the report shows 70 passing.`, outcome }),
];

describe('prompt cache over a realistic run', () => {
  it('earns at least 90% of the achievable cached tokens, and the executor hits at least 80%', async ({ annotate }) => {
    const run = reportCommand;
    const outcome = await scriptedRun({
      files: {
        'README.md': '# widgets\n',
        'src/engine.ts': engineSource(),
        'src/util.ts': utilSource(),
        'scripts/report.mjs': reportScript,
      },
      objective: 'Review the engine steps, resolve the first TODOs and record the work in a changelog',
      allowedCommands: [run],
      protectedPaths: ['.github/workflows/**'],
      planner: [
        toolCall('list_files', {}),
        toolCall('read_file', { path: 'src/engine.ts' }),
        toolCall('search', { pattern: 'TODO\\(' }),
        stage({
          plan: {
            steps: [
              { title: 'Mark step 7 reviewed', files: ['src/engine.ts'], verify: run },
              { title: 'Resolve TODO 3', files: ['src/util.ts'], verify: run },
              { title: 'Write the changelog', files: ['CHANGELOG.md'], verify: run },
            ],
          },
          directive: 'Mark step7 in src/engine.ts as reviewed with a comment; run the report.',
        }),
        toolCall('read_file', { path: 'src/engine.ts', start_line: 1, end_line: 60 }),
        stage({ directive: 'Remove the TODO(3) marker in src/util.ts; run the report.' }),
        stage({ directive: 'Create CHANGELOG.md describing the two changes; run the report.' }),
        stage({ summary: 'Reviewed step 7, resolved TODO 3, added a changelog; the report passes.' }),
      ],
      executor: [
        toolCall('read_file', { path: 'src/engine.ts' }),
        toolCall('search', { pattern: 'TODO\\(' }),
        ...reportedChange(
          toolCall('edit_file', {
            path: 'src/engine.ts',
            old: 'export function step7(input: number): number {\n',
            new: 'export function step7(input: number): number {\n  // Reviewed: the bound holds for every input.\n',
          }),
          'Marked step7 reviewed',
        ),
        toolCall('read_file', { path: 'src/util.ts' }),
        ...reportedChange(
          toolCall('edit_file', {
            path: 'src/util.ts',
            old: '  // TODO(3): tighten the bound for widget kind 3 once the spec settles\n',
            new: '',
          }),
          'Removed TODO(3)',
        ),
        ...reportedChange(
          toolCall('write_file', {
            path: 'CHANGELOG.md',
            content: '# Changelog\n\n- Reviewed step 7.\n- Resolved TODO 3.\n',
          }),
          'Wrote CHANGELOG.md',
          'done',
        ),
      ],
    });

    expect(outcome.final.state).toBe('done');
    expect(outcome.final.context.history).toHaveLength(3);
    expect(outcome.remaining).toEqual({ [PLANNER_MODEL]: 0, [EXECUTOR_MODEL]: 0 });
    // The tool output is the real thing, not error messages: big, and of the intended sizes.
    const executorRequests = outcome.requests.filter((r) => roleOf(r) === 'executor');
    const toolOutputs = (executorRequests.at(-1)?.messages ?? [])
      .filter((m) => m.role === 'tool')
      .map((m) => String(m.content));
    expect(toolOutputs.filter((t) => t.startsWith('Error'))).toEqual([]);
    expect(toolOutputs[0]?.length).toBeGreaterThan(8_000);
    expect(toolOutputs[1]?.match(/TODO\(/g)?.length).toBe(40);
    expect(toolOutputs[3]).toContain('# pass 70');
    expect(toolOutputs[3]?.length).toBeGreaterThan(3_000);

    // What a perfectly append-only client could get: each request the previous one of its session,
    // and a session's first request the system+tools prefix an earlier session of its role sent.
    const { reported, achievable } = cacheEfficiency(sessions(outcome.requests));
    const summary = summarizeUsage(outcome.ledger);
    const executor = summary.find((s) => s.role === 'executor');
    const planner = summary.find((s) => s.role === 'planner');
    const figures = `cached ${reported} of ${achievable} achievable tokens (${((100 * reported) / achievable).toFixed(1)}%); executor hit ratio ${(100 * (executor?.cacheHitRatio ?? 0)).toFixed(1)}% (${executor?.cachedTokens}/${executor?.promptTokens} over ${executor?.requests} requests); planner ${(100 * (planner?.cacheHitRatio ?? 0)).toFixed(1)}%`;
    await annotate(figures);

    expect(achievable).toBeGreaterThan(0);
    expect(reported, figures).toBeGreaterThanOrEqual(0.9 * achievable);
    expect(executor?.cacheHitRatio, figures).toBeGreaterThanOrEqual(0.8);
    // The run's own bookkeeping saw what the server reported.
    expect((executor?.cachedTokens ?? 0) + (planner?.cachedTokens ?? 0)).toBe(reported);
    expect(coreLog.warnings.filter((w) => w.includes('prefix broken'))).toEqual([]);
    expect(coreLog.infos.filter((i) => i.includes('provider cached'))).toEqual([]);
  });
});

/** The first user message of a session: its summoning message, standing text included. */
const summoning = (request: RecordedRequest | undefined): string => String(request?.messages[1]?.content);

/**
 * Tokens a later prompt shares with an earlier one that agrees with it on the system prompt, tools
 * and the first `text` characters of the summoning message (message chunks serialize with sorted
 * keys, so the content leads).
 */
function sharedThrough(request: RecordedRequest, text: string): number {
  const frozen = countTokens(serializePrompt(request.tools, request.messages.slice(0, 1)));
  return frozen + Math.floor(`message:{"content":${JSON.stringify(text).slice(0, -1)}`.length / 4);
}

describe('fresh planner sessions in a row', () => {
  it('start where the previous planner session started, up to the newest history entry, even after a revised plan', async () => {
    const revised: Plan = {
      steps: [
        { title: 'Add the version constant', files: ['src/index.ts'] },
        { title: 'Export it from the package entry', files: ['src/main.ts'] },
        { title: 'Document it', files: ['CHANGELOG.md'] },
      ],
    };
    const outcome = await scriptedRun({
      ...versionTask,
      planner: [
        toolCall('read_file', { path: 'src/index.ts' }),
        stage({ plan, directive: 'Add `export const version = "0.1.0";` to src/index.ts.' }),
        // The first replan finds the plan wrong and revises it; the later sessions must still share their heads.
        stage({ plan: revised, directive: 'Create src/main.ts re-exporting version.' }),
        toolCall('read_file', { path: 'src/index.ts' }),
        stage({ directive: 'Create CHANGELOG.md with a 0.1.0 entry.' }),
        stage({ summary: 'Added, exported and documented a version constant.' }),
      ],
      executor: [
        toolCall('edit_file', {
          path: 'src/index.ts',
          old: 'export const x = 1;\n',
          new: 'export const x = 1;\nexport const version = "0.1.0";\n',
        }),
        stage({
          result: 'Added the constant; nothing imports src/index.ts, so an entry point is missing.',
          outcome: 'replan',
        }),
        toolCall('write_file', { path: 'src/main.ts', content: "export { version } from './index.js';\n" }),
        stage({ result: 'Wrote src/main.ts.', outcome: 'replan' }),
        toolCall('write_file', { path: 'CHANGELOG.md', content: '# Changelog\n\n## 0.1.0\n' }),
        stage({ result: 'Wrote CHANGELOG.md.', outcome: 'done' }),
      ],
    });
    expect(outcome.final.state).toBe('done');
    expect(outcome.remaining).toEqual({ [PLANNER_MODEL]: 0, [EXECUTOR_MODEL]: 0 });
    expect(outcome.final.context.plan).toEqual(revised);
    const planners = sessions(outcome.requests).filter((s) => s.role === 'planner');
    expect(planners.map((s) => s.requests.length)).toEqual([2, 1, 2, 1]);
    const [planning, replan1, replan2, finish] = planners.map((s) => s.requests[0] as RecordedRequest) as [
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
      RecordedRequest,
    ];

    // The first replan shares the plan stage's head: standing text, objective and the executor's tools.
    const head = summoning(replan1).indexOf('\n\n## Plan\n\n');
    expect(head).toBeGreaterThan(summoning(replan1).indexOf('## Tools'));
    expect(summoning(planning).slice(0, head)).toBe(summoning(replan1).slice(0, head));

    // Each later session repeats its predecessor's first message up to where its own new history entry begins.
    for (const [cycle, before, after] of [
      [2, replan1, replan2],
      [3, replan2, finish],
    ] as const) {
      const entry = summoning(after).indexOf(`\n\n### Cycle ${cycle} (outcome:`);
      expect(entry, `cycle ${cycle} is in the history`).toBeGreaterThan(summoning(after).indexOf('### Cycle 1'));
      expect(
        summoning(after).slice(0, entry),
        `session of request ${after.index} extends request ${before.index} up to cycle ${cycle}`,
      ).toBe(summoning(before).slice(0, entry));
      // On the wire: the provider served all of that from the previous session's cache.
      const shared = sharedThrough(after, summoning(after).slice(0, entry));
      expect(after.usage?.prompt_tokens_details.cached_tokens, `request ${after.index}`).toBeGreaterThanOrEqual(
        reportableCachedTokens(shared),
      );
      expect(reportableCachedTokens(shared)).toBeGreaterThan(reportableCachedTokens(sharedThrough(after, '')));
    }

    // Nothing is hidden by the layout: the plan the run began with, every cycle and the plan in force.
    const last = summoning(finish);
    const revisedAt = last.indexOf('## Revised plan (in force now)');
    expect(last.indexOf('2. Document it')).toBeLessThan(last.indexOf('## History'));
    expect(revisedAt).toBeGreaterThan(last.indexOf('Wrote CHANGELOG.md.'));
    expect(last.slice(revisedAt)).toContain('2. Export it from the package entry');
    for (const text of [
      'an entry point is missing',
      'Create src/main.ts re-exporting version.',
      'Wrote src/main.ts.',
      'Create CHANGELOG.md with a 0.1.0 entry.',
    ]) {
      expect(last).toContain(text);
    }
    expect(coreLog.warnings.filter((w) => w.includes('prefix broken'))).toEqual([]);
  });
});
