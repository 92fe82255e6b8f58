import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { commandFromMaintenanceEvent } from '../../src/entry/command.js';
import { COMMAND_NAMES, eventIgnoreReason, parseCommentCommand } from '../../src/text/comment-command.js';
import type { PermissionArea } from '../fakes/github-emulator.js';
import { issueCommentPayload, schedulePayload, workflowDispatchPayload } from '../fakes/payloads.js';
import { toolCall } from '../fakes/scripted-model.js';
import { apiKey, closeOpenWorlds, createWorld, git, owner, repo, token, type World } from './harness.js';
import { ConcurrencyGroups } from './concurrency-groups.js';
import {
  contextPath,
  evaluate,
  evaluateCondition,
  interpolate,
  parseExpression,
  resolvedContexts,
  splitTemplate,
  type ResolvePath,
} from './workflow-expression.js';
import { appendFarewell, farewellAppended } from '../fakes/farewell-change.js';

/**
 * Issues 8 and 18's promise, "the README's quick start, followed literally by a new user, works",
 * held to the letter: the workflow files are read out of the docs themselves (README.md, docs/ and
 * examples/; no copy lives here), checked against action.yml and what plangate's code calls, their
 * `if:` and concurrency expressions are evaluated for real events, and their plangate step runs the
 * bundled action for /plan and /approve.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The README, then the docs pages, then the example workflows, as paths from the root. */
const docsPages = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const exampleFiles = readdirSync(path.join(root, 'examples'))
  .filter((name) => name.endsWith('.yml'))
  .sort()
  .map((name) => `examples/${name}`);

// ---------------------------------------------------------------------------------------------
// The docs as a user reads them: headed sections, prose, and the yaml blocks they copy.

interface ReadmeBlock {
  /** The page or example file, from the root. */
  file: string;
  h2: string;
  h3: string;
  /** 1-based line of the opening fence, for failure messages. */
  line: number;
  text: string;
}

function readmeParts(file: string, markdown: string): { blocks: ReadmeBlock[]; prose: string } {
  const blocks: ReadmeBlock[] = [];
  const prose: string[] = [];
  let h2 = '';
  let h3 = '';
  let fence: { yaml: boolean; line: number; lines: string[] } | undefined;
  markdown.split('\n').forEach((line, index) => {
    if (fence) {
      if (/^```\s*$/.test(line)) {
        if (fence.yaml) blocks.push({ file, h2, h3, line: fence.line, text: fence.lines.join('\n') });
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      return;
    }
    const opening = /^```(\S*)/.exec(line);
    if (opening) {
      fence = { yaml: opening[1] === 'yaml' || opening[1] === 'yml', line: index + 1, lines: [] };
      return;
    }
    if (line.startsWith('## ')) [h2, h3] = [line.slice(3).trim(), ''];
    else if (line.startsWith('### ')) h3 = line.slice(4).trim();
    prose.push(line);
  });
  if (fence) throw new Error(`${file}: the code fence opened on line ${fence.line} is never closed`);
  return { blocks, prose: prose.join('\n') };
}

const pageParts = docsPages.map((file) => readmeParts(file, readFileSync(path.join(root, file), 'utf8')));
/** Every yaml block of the pages, and each example file as one block. */
const blocks: ReadmeBlock[] = [
  ...pageParts.flatMap((part) => part.blocks),
  ...exampleFiles.map((file) => ({ file, h2: '', h3: '', line: 1, text: readFileSync(path.join(root, file), 'utf8') })),
];
const prose = pageParts.map((part) => part.prose).join('\n');

// Failsafe: every scalar stays the string the runner sees (`fetch-depth: 0` is "0", `on` is "on").
const parseBlock = (block: ReadmeBlock): unknown => parseYaml(block.text, { schema: 'failsafe' });

// ---------------------------------------------------------------------------------------------
// The workflow shapes this test reads; anything else in a block fails the parse, loudly.

const scalar = z.string();
const stepSchema = z.looseObject({
  name: scalar.optional(),
  id: scalar.optional(),
  uses: scalar.optional(),
  run: scalar.optional(),
  with: z.record(z.string(), scalar).optional(),
  env: z.record(z.string(), scalar).optional(),
});
type Step = z.infer<typeof stepSchema>;

const level = z.enum(['read', 'write', 'none']);
type Level = z.infer<typeof level>;
const permissionsSchema = z.union([z.enum(['read-all', 'write-all']), z.record(z.string(), level)]);
type Permissions = z.infer<typeof permissionsSchema>;

const jobSchema = z.looseObject({
  if: scalar.optional(),
  'timeout-minutes': scalar.optional(),
  permissions: permissionsSchema.optional(),
  concurrency: z.union([scalar, z.looseObject({ group: scalar, 'cancel-in-progress': scalar.optional() })]).optional(),
  steps: z.array(stepSchema).min(1),
});
type Job = z.infer<typeof jobSchema>;

const workflowSchema = z.looseObject({
  on: z.looseObject({
    issue_comment: z
      .looseObject({ types: z.array(scalar).optional() })
      .nullable()
      .optional(),
    schedule: z.array(z.object({ cron: scalar })).optional(),
    workflow_dispatch: z
      .looseObject({ inputs: z.record(z.string(), z.unknown()).optional() })
      .nullable()
      .optional(),
  }),
  permissions: permissionsSchema.optional(),
  jobs: z.record(z.string(), jobSchema),
});
type Workflow = z.infer<typeof workflowSchema>;

/** The part of a job the App-token example replaces; anything else in it would need a rule here. */
const jobFragmentSchema = z.strictObject({ permissions: permissionsSchema, steps: z.array(stepSchema).min(1) });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Any `uses:` of plangate itself, whatever owner or ref the user fills in. */
const isPlangate = (step: Step): boolean => /^[^/\s]+\/plangate@\S+$/.test(step.uses ?? '');
const isCheckout = (step: Step): boolean => /^actions\/checkout@/.test(step.uses ?? '');
const isAppToken = (step: Step): boolean => /^actions\/create-github-app-token@/.test(step.uses ?? '');

const where = (block: ReadmeBlock): string =>
  `${block.file} line ${block.line}${block.h2 ? ` (${block.h2}${block.h3 ? ` / ${block.h3}` : ''})` : ''}`;

/** Every yaml block that is a workflow, a job fragment or a list of steps, with its steps. */
function workflowBlocks(): Array<{ block: ReadmeBlock; kind: 'workflow' | 'job' | 'steps'; steps: Step[] }> {
  const found: Array<{ block: ReadmeBlock; kind: 'workflow' | 'job' | 'steps'; steps: Step[] }> = [];
  for (const block of blocks) {
    const data = parseBlock(block);
    if (isRecord(data) && 'jobs' in data) {
      const workflow = workflowSchema.parse(data);
      found.push({ block, kind: 'workflow', steps: Object.values(workflow.jobs).flatMap((job) => job.steps) });
    } else if (isRecord(data) && 'steps' in data) {
      found.push({ block, kind: 'job', steps: jobFragmentSchema.parse(data).steps });
    } else if (Array.isArray(data) && data.every((item) => isRecord(item) && ('uses' in item || 'run' in item))) {
      found.push({ block, kind: 'steps', steps: z.array(stepSchema).parse(data) });
    }
  }
  return found;
}

function theOne<T>(items: T[], what: string): T {
  if (items.length !== 1) throw new Error(`the docs should hold exactly one ${what}; found ${items.length}`);
  return items[0] as T;
}

/** The complete workflow of docs/setup.md, step 3: reviews, maintenance events and concurrency groups. */
function setupWorkflow(): { block: ReadmeBlock; workflow: Workflow } {
  const found = workflowBlocks().filter((w) => w.kind === 'workflow' && w.block.file === 'docs/setup.md');
  const { block } = theOne(found, 'complete workflow in docs/setup.md');
  return { block, workflow: workflowSchema.parse(parseBlock(block)) };
}

/** The README's quick-start workflow, the one a new user copies from the first screen. */
function minimalWorkflow(): { block: ReadmeBlock; workflow: Workflow } {
  const found = workflowBlocks().filter((w) => w.kind === 'workflow' && w.block.file === 'README.md');
  const { block } = theOne(found, 'complete workflow in README.md');
  return { block, workflow: workflowSchema.parse(parseBlock(block)) };
}

/** The Troubleshooting job fragment that mints an App token. */
function appTokenFragment(): { block: ReadmeBlock; fragment: z.infer<typeof jobFragmentSchema> } {
  const found = workflowBlocks().filter((w) => w.kind === 'job' && w.steps.some(isAppToken));
  const { block } = theOne(found, 'job fragment with actions/create-github-app-token');
  expect(block.file).toBe('docs/troubleshooting.md');
  return { block, fragment: jobFragmentSchema.parse(parseBlock(block)) };
}

function onlyJob(workflow: Workflow): [string, Job] {
  return theOne(Object.entries(workflow.jobs), 'job in the workflow');
}

/** The complete workflow with the job's permissions and steps replaced by the App-token fragment, as its prose says. */
function appTokenWorkflow(): Workflow {
  const { workflow } = setupWorkflow();
  const [jobId, job] = onlyJob(workflow);
  const { fragment } = appTokenFragment();
  return { ...workflow, jobs: { [jobId]: { ...job, permissions: fragment.permissions, steps: fragment.steps } } };
}

// ---------------------------------------------------------------------------------------------
// action.yml: the inputs a step may pass.

const manifestSchema = z.looseObject({
  inputs: z.record(
    z.string(),
    z.looseObject({ required: z.union([z.boolean(), z.string()]).optional(), default: scalar.optional() }),
  ),
});
const manifest = manifestSchema.parse(parseYaml(readFileSync(path.join(root, 'action.yml'), 'utf8')));
const declaredInputs = Object.keys(manifest.inputs);
const requiredInputs = Object.entries(manifest.inputs)
  .filter(([, spec]) => spec.required === true || spec.required === 'true')
  .map(([name]) => name);

// ---------------------------------------------------------------------------------------------
// What the action's code needs from its token, read from src/ rather than restated here.

type Area = 'actions' | 'checks' | 'contents' | 'issues' | 'pull-requests' | 'metadata';
/**
 * The permission GitHub's "Permissions required for GitHub Apps" table names for each Octokit call
 * plangate makes. A call missing here fails the test, so a new call is classified, not overlooked.
 */
const CALL_PERMISSIONS: Readonly<Record<string, readonly [Area, 'read' | 'write']>> = {
  'actions.getWorkflowRun': ['actions', 'read'],
  'checks.listAnnotations': ['checks', 'read'],
  'checks.listForRef': ['checks', 'read'],
  'git.createRef': ['contents', 'write'],
  'issues.addLabels': ['issues', 'write'],
  'issues.create': ['issues', 'write'],
  'issues.createComment': ['issues', 'write'],
  'issues.get': ['issues', 'read'],
  'issues.getComment': ['issues', 'read'],
  'issues.listForRepo': ['issues', 'read'],
  'issues.updateComment': ['issues', 'write'],
  'pulls.create': ['pull-requests', 'write'],
  'pulls.get': ['pull-requests', 'read'],
  'pulls.getReview': ['pull-requests', 'read'],
  'pulls.getReviewComment': ['pull-requests', 'read'],
  'pulls.list': ['pull-requests', 'read'],
  'pulls.listFiles': ['pull-requests', 'read'],
  'pulls.listReviewComments': ['pull-requests', 'read'],
  'pulls.listReviews': ['pull-requests', 'read'],
  'pulls.requestReviewers': ['pull-requests', 'write'],
  'pulls.update': ['pull-requests', 'write'],
  'reactions.createForIssueComment': ['issues', 'write'],
  'reactions.createForPullRequestReviewComment': ['pull-requests', 'write'],
  'repos.get': ['metadata', 'read'],
  'repos.getCollaboratorPermissionLevel': ['metadata', 'read'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

type Grant = Partial<Record<string, 'read' | 'write'>>;

function raise(grant: Grant, area: string, wanted: 'read' | 'write'): void {
  if (grant[area] !== 'write') grant[area] = wanted;
}

/** The least permissions plangate's own code needs (metadata: read comes with every token). */
function neededPermissions(): { grant: Grant; calls: string[] } {
  const grant: Grant = {};
  const calls = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\.rest\.([a-z]+)\.([A-Za-z]+)\b/g)) calls.add(`${match[1]}.${match[2]}`);
    if (/\boctokit\.request\(/.test(text))
      throw new Error(`${file} calls octokit.request: classify its permission in this test`);
    // GraphQL reads the thread: issue or pull request, comments and their editors.
    if (/\.graphql\(/.test(text)) {
      raise(grant, 'issues', 'read');
      raise(grant, 'pull-requests', 'read');
    }
    // Pushing the work branch and the lock ref goes over git with the same token.
    if (/\[\s*'push'/.test(text)) raise(grant, 'contents', 'write');
  }
  for (const call of calls) {
    const permission = CALL_PERMISSIONS[call];
    if (!permission)
      throw new Error(`plangate calls octokit.rest.${call}: add the permission it needs to CALL_PERMISSIONS`);
    raise(grant, permission[0], permission[1]);
  }
  delete grant.metadata;
  return { grant, calls: [...calls].sort() };
}

/** A `permissions:` value as a grant; `none` grants nothing. */
function grantOf(permissions: Permissions | undefined): Grant {
  // No block: the docs leave the repository's default token permission read-only.
  if (permissions === undefined) return { contents: 'read' };
  if (permissions === 'read-all' || permissions === 'write-all') {
    const all = permissions === 'read-all' ? 'read' : 'write';
    return Object.fromEntries(
      ['actions', 'contents', 'issues', 'pull-requests', 'checks', 'statuses', 'packages'].map((a) => [a, all]),
    );
  }
  return Object.fromEntries(
    Object.entries(permissions).filter((entry): entry is [string, 'read' | 'write'] => entry[1] !== 'none'),
  );
}

/**
 * The App's permissions as Troubleshooting step 1 lists them ("… Contents, Issues and Pull requests:
 * read and write, and Actions: read."). Rewording that sentence breaks this parse on purpose.
 */
function appPermissionsFromReadme(): Grant {
  const sentence = /repository permissions ([^.]+)\./.exec(prose.replace(/\s+/g, ' '));
  if (!sentence?.[1]) throw new Error('docs/troubleshooting.md no longer lists the App\'s "repository permissions …"');
  const grant: Grant = {};
  for (const group of sentence[1].split(/,\s*and\s+/)) {
    const [names, access] = group.split(':').map((s) => s.trim());
    const granted = access === 'read and write' ? 'write' : access === 'read' ? 'read' : undefined;
    if (!names || !granted) throw new Error(`cannot read the App permission group "${group}"`);
    for (const name of names.split(/,\s*|\s+and\s+/)) grant[name.trim().toLowerCase().replace(/\s+/g, '-')] = granted;
  }
  return grant;
}

// ---------------------------------------------------------------------------------------------
// The runner's side: expressions in `with:`, the token a step gets, the inputs it passes.

/** Fake values the runner would resolve; `appSlug` is what the App-token step reports as its slug. */
interface Fakes {
  appSlug: string;
}

/** The secret quick-start step 1 tells the user to create, named there as "named `X`". */
function apiKeySecretName(): string {
  const name = /repository secret,\s+named `([A-Z0-9_]+)`/.exec(prose)?.[1];
  if (!name) throw new Error('README.md quick-start step 1 no longer names the API key secret');
  return name;
}

/** The contexts GitHub makes available in a step's `with:` and `env:`. */
const STEP_CONTEXTS = [
  'github',
  'needs',
  'strategy',
  'matrix',
  'job',
  'runner',
  'env',
  'vars',
  'secrets',
  'steps',
  'inputs',
];

/**
 * The runner's `${{ }}` values for step `index`: only bare context paths the docs' blocks use.
 * The API key secret the quick start names is the scripted model's key, and the App token is the emulator's
 * token, so a block that wires the wrong one fails against the real action.
 */
function stepResolver(steps: readonly Step[], index: number, fakes: Fakes): ResolvePath {
  return (segments) => {
    const [root, a, b, c, ...more] = segments;
    if (root === 'github' && a === 'token' && b === undefined) return token;
    if (root === 'secrets' && a !== undefined && b === undefined)
      return a === apiKeySecretName() ? apiKey : `fake-secret-${a}`;
    if (root === 'vars' && a !== undefined && b === undefined) return `fake-var-${a}`;
    if (root === 'steps' && a !== undefined && b === 'outputs' && c !== undefined && more.length === 0) {
      const producer = steps.slice(0, index).find((step) => step.id === a);
      if (!producer) throw new Error(`steps.${a} is not a step before step ${index + 1}`);
      if (!isAppToken(producer)) throw new Error(`outputs of ${producer.uses ?? 'a run step'} are not modelled`);
      const outputs: Record<string, string> = { token, 'app-slug': fakes.appSlug };
      const value = outputs[c];
      if (value === undefined) throw new Error(`actions/create-github-app-token has no output "${c}" modelled`);
      return value;
    }
    throw new Error(`\${{ ${segments.join('.')} }} is not a value this test can fake`);
  };
}

/** Resolves a `with:`/`env:` value; only bare paths may sit inside `${{ }}` there. */
function resolveValue(text: string, resolve: ResolvePath): string {
  for (const part of splitTemplate(text)) {
    if ('expression' in part && contextPath(parseExpression(part.expression, STEP_CONTEXTS)) === undefined) {
      throw new Error(`only plain context values are modelled in with:/env:, not: ${part.expression}`);
    }
  }
  return interpolate(text, resolvedContexts(text, STEP_CONTEXTS, resolve));
}

/** The step's `with:` as the runner hands it over: INPUT_<NAME> per given input, expressions resolved. */
function runnerInputs(steps: readonly Step[], index: number, fakes: Fakes): Record<string, string> {
  const step = steps[index];
  if (!step) throw new Error(`no step ${index}`);
  const resolve = stepResolver(steps, index, fakes);
  return Object.fromEntries(
    Object.entries(step.with ?? {}).map(([name, value]) => [name, resolveValue(value, resolve)]),
  );
}

/** The only ${{ }} of a value, as a path, e.g. ['steps', 'app-token', 'outputs', 'token']. */
function soleReference(text: string): string[] {
  const parts = splitTemplate(text.trim());
  const only = parts[0];
  if (parts.length !== 1 || !only || !('expression' in only))
    throw new Error(`expected exactly one \${{ }} in: ${text}`);
  const segments = contextPath(parseExpression(only.expression, STEP_CONTEXTS));
  if (!segments) throw new Error(`expected a plain context value in: ${text}`);
  return segments;
}

/** What the plangate step's token may do: the job's GITHUB_TOKEN permissions, or the App's. */
function tokenGrant(workflow: Workflow, job: Job, plangate: Step): Grant {
  const given = plangate.with?.['github-token'] ?? manifest.inputs['github-token']?.default ?? '';
  const reference = soleReference(given);
  if (reference.join('.') === 'github.token') return grantOf(job.permissions ?? workflow.permissions);
  const [root, id, outputs, name] = reference;
  const producer = job.steps.find((step) => step.id === id);
  if (root === 'steps' && outputs === 'outputs' && name === 'token' && producer && isAppToken(producer))
    return appPermissionsFromReadme();
  throw new Error(`github-token ${given} comes from nowhere this test models`);
}

function plangateIndex(job: Job): number {
  const indexes = job.steps.flatMap((step, index) => (isPlangate(step) ? [index] : []));
  return theOne(indexes, 'plangate step per job');
}

// ---------------------------------------------------------------------------------------------
// Events, and the github context the job's expressions see.

interface WorkflowEvent {
  name: string;
  payload: unknown;
}

function githubContext(event: WorkflowEvent, runId: string): Record<string, unknown> {
  return { event_name: event.name, event: event.payload, run_id: runId, repository: `${owner}/${repo}`, token };
}

/**
 * Whether the job starts for this event (no `if:` means always). Only `github` is given: a job's
 * `if:` may also read `needs`, `vars` and `inputs`, which this workflow has no use for, so naming one
 * fails the parse here instead of being judged against made-up values.
 */
function jobRuns(job: Pick<Job, 'if'>, event: WorkflowEvent, runId = '9001'): boolean {
  return job.if === undefined ? true : evaluateCondition(job.if, { github: githubContext(event, runId) });
}

/** The job's concurrency group for this event and run, as GitHub evaluates it (again from `github` alone). */
function concurrencyGroup(job: Pick<Job, 'concurrency'>, event: WorkflowEvent, runId: string): string {
  const group = typeof job.concurrency === 'string' ? job.concurrency : job.concurrency?.group;
  if (group === undefined) throw new Error('the job has no concurrency group');
  return interpolate(group, { github: githubContext(event, runId) });
}

/** The issue_comment event for a comment GitHub already stores. */
function eventFor(w: World, issue: number, comment: ReturnType<World['gh']['addComment']>): WorkflowEvent {
  const issueData = w.gh.issue(issue);
  if (!issueData) throw new Error(`no issue ${issue}`);
  return { name: 'issue_comment', payload: issueCommentPayload({ owner, repo, issue: issueData, comment }) };
}

/** A new comment by `login`, as a user posts it, and the event it fires. */
function commentOn(w: World, issue: number, login: string, body: string): WorkflowEvent {
  return eventFor(w, issue, w.gh.addComment(issue, { login, body }));
}

/**
 * An event for a comment that is never stored: for `if:` and group evaluation only. `association` is
 * GitHub's `author_association` for the commenter (a collaborator unless given).
 */
function sketchComment(body: string, login = 'mona', issue = 7, association = 'COLLABORATOR'): WorkflowEvent {
  return {
    name: 'issue_comment',
    payload: issueCommentPayload({
      owner,
      repo,
      issue: { number: issue, title: 'Say goodbye', login: 'mona' },
      comment: { id: 4242, body, login, author_association: association },
    }),
  };
}

const scheduleEvent = (cron: string): WorkflowEvent => ({
  name: 'schedule',
  payload: schedulePayload({ owner, repo, cron }),
});
const dispatchEvent = (inputs: Record<string, unknown>): WorkflowEvent => ({
  name: 'workflow_dispatch',
  payload: workflowDispatchPayload({ owner, repo, sender: 'mona', inputs }),
});

// ---------------------------------------------------------------------------------------------

/**
 * Every command plangate knows (src/text/comment-command.ts's list, the one source), as people write
 * them: alone, with arguments, on a line of its own above more text (GitHub's web editor sends CRLF),
 * in capitals, after blank space (GitHub keeps it), with a trailing space.
 */
const COMMANDS = [
  '/plan Add a farewell function',
  '/plan\r\nAdd a farewell function',
  '/plan\nAdd a farewell function',
  '/approve',
  '/approve 1a2b3c4d',
  '/approve --over-budget 1a2b3c4d',
  '/approve\r\n\r\nLooks good.',
  '/revise smaller steps',
  '/answer yes',
  '/answer\tyes',
  '/status',
  '/status ',
  '/cancel',
  '/help',
  '/HELP',
  ' /plan with a space before it',
  '\r\n/approve',
  ...COMMAND_NAMES.flatMap((name) => [`/${name}`, `/${name} x`, `/${name}\r\nx`]),
];
/** Ordinary comments, and other tools' slash commands (Prow's, review bots'), and words that only start like a command. */
const NOT_COMMANDS = [
  'Thanks, looks good!',
  'Could someone /plan this?',
  '',
  '> /plan quoted from above',
  '/lgtm',
  '/assign me',
  '/assign @mona',
  '/approve-all',
  '/approved',
  '/planning the next release',
  '/plans',
  '/helpful',
  '/cancelled',
  '/status-report',
  '/hold',
  '/retest',
  '/review',
  '/plan.',
  '/plan:x',
  '/plan_x',
  'plan x',
  ...COMMAND_NAMES.flatMap((name) => [`/${name}s`, `/${name}-x`, `/${name}x y`]),
];

/** Every example file's workflow, by file. */
function exampleWorkflows(): Array<{ file: string; workflow: Workflow }> {
  return workflowBlocks()
    .filter((w) => w.kind === 'workflow' && w.block.file.startsWith('examples/'))
    .map(({ block }) => ({ file: block.file, workflow: workflowSchema.parse(parseBlock(block)) }));
}

describe('the workflow blocks of the README, docs/ and examples/, read statically', () => {
  it('holds the quick start, the complete workflow and the App-token fragment, and every plangate step passes only declared inputs', () => {
    const all = workflowBlocks();
    minimalWorkflow();
    setupWorkflow();
    appTokenFragment();
    const plangateSteps = all.flatMap(({ block, steps }) =>
      steps.flatMap((step, index) => (isPlangate(step) ? [{ block, steps, index, step }] : [])),
    );
    // Quick start, complete workflow, App token and the MCP env example at least, and every example file.
    expect(plangateSteps.length).toBeGreaterThanOrEqual(4 + exampleFiles.length);
    expect(exampleFiles.length).toBeGreaterThanOrEqual(9);
    for (const file of exampleFiles)
      expect(
        plangateSteps.map((s) => s.block.file),
        file,
      ).toContain(file);
    for (const { block, steps, index, step } of plangateSteps) {
      const given = Object.keys(step.with ?? {});
      expect(
        given.filter((name) => !declaredInputs.includes(name)),
        `undeclared inputs at ${where(block)}`,
      ).toEqual([]);
      expect(
        requiredInputs.filter((name) => !given.includes(name)),
        `missing required inputs at ${where(block)}`,
      ).toEqual([]);
      // Every value is something a runner can resolve, with no expression this test does not model.
      const resolve = stepResolver(steps, index, { appSlug: 'plangate-helper' });
      for (const value of [...Object.values(step.with ?? {}), ...Object.values(step.env ?? {})]) {
        expect(() => resolveValue(value, resolve), `${value} at ${where(block)}`).not.toThrow();
      }
    }
  });

  it('asks for exactly the token permissions plangate code needs', () => {
    const { grant: needed, calls } = neededPermissions();
    // Sanity of the derivation against the docs' own list: push, comment, open pull requests, read runs for the lock.
    expect(needed).toMatchObject({ contents: 'write', issues: 'write', 'pull-requests': 'write', actions: 'read' });
    expect(calls).toContain('actions.getWorkflowRun');

    for (const { workflow } of [setupWorkflow(), minimalWorkflow()]) {
      const [, job] = onlyJob(workflow);
      expect(tokenGrant(workflow, job, job.steps[plangateIndex(job)] as Step)).toEqual(needed);
    }
    // Every example, whichever token it gives plangate.
    for (const { file, workflow } of exampleWorkflows()) {
      const [, job] = onlyJob(workflow);
      expect(tokenGrant(workflow, job, job.steps[plangateIndex(job)] as Step), file).toEqual(needed);
    }

    // The App-token route: the GITHUB_TOKEN is left read-only, the App's permissions carry the run.
    const app = appTokenWorkflow();
    const [, appJob] = onlyJob(app);
    expect(Object.values(grantOf(appJob.permissions))).not.toContain('write');
    expect(tokenGrant(app, appJob, appJob.steps[plangateIndex(appJob)] as Step)).toEqual(needed);
  });

  it('starts the quick start on new comments only, and every example on events plangate handles', () => {
    const { workflow } = minimalWorkflow();
    expect(Object.keys(workflow.on)).toEqual(['issue_comment']);
    expect(workflow.on.issue_comment?.types).toEqual(['created']);
    for (const example of exampleWorkflows()) {
      const events = Object.keys(example.workflow.on);
      expect(events, example.file).toContain('issue_comment');
      for (const event of events) expect(eventIgnoreReason(event), `${example.file}: ${event}`).toBeUndefined();
    }
  });

  it('triggers on new comments and the maintenance events plangate handles, and on nothing it ignores', () => {
    const { workflow } = setupWorkflow();
    const events = Object.keys(workflow.on);
    expect(events).toContain('issue_comment');
    expect(workflow.on.issue_comment?.types).toEqual(['created']);
    for (const event of events) expect(eventIgnoreReason(event), event).toBeUndefined();
    // The prose promises scheduled and dispatched maintenance with this workflow.
    expect(prose).toMatch(/\*\*`schedule`\*\* and \*\*`workflow_dispatch`\*\* run the maintenance tasks/);
    expect(workflow.on.workflow_dispatch).toBeDefined();

    // Every cron of the config file example fires: a task's cron must equal a workflow cron exactly.
    const crons = (workflow.on.schedule ?? []).map((s) => s.cron);
    const configTasks = blocks
      .filter((b) => b.file === 'docs/maintenance.md')
      .map((b) => parseYaml(b.text) as unknown)
      .flatMap((data) => (isRecord(data) && Array.isArray(data.tasks) ? (data.tasks as unknown[]) : []))
      .map((task) => z.looseObject({ name: scalar, cron: scalar.optional() }).parse(task));
    expect(configTasks.length).toBeGreaterThan(0);
    for (const task of configTasks)
      if (task.cron !== undefined) expect(crons, `task ${task.name}`).toContain(task.cron);

    // Each workflow_dispatch input the workflow declares is one plangate reads from the event.
    const dispatchInputs = Object.keys(workflow.on.workflow_dispatch?.inputs ?? {});
    expect(dispatchInputs.length).toBeGreaterThan(0);
    for (const name of dispatchInputs) {
      const command = commandFromMaintenanceEvent('workflow_dispatch', dispatchEvent({ [name]: 'deps' }).payload);
      expect(
        command.kind === 'maintain' && command.trigger.type === 'dispatch' ? command.trigger : undefined,
        name,
      ).toHaveProperty(name, 'deps');
    }
  });

  it('checks the repository out, with history and without stored credentials, before plangate runs', () => {
    const examples = exampleWorkflows().map((example) => example.workflow);
    for (const workflow of [setupWorkflow().workflow, minimalWorkflow().workflow, appTokenWorkflow(), ...examples]) {
      const [, job] = onlyJob(workflow);
      const plangate = plangateIndex(job);
      const checkout = job.steps.findIndex(isCheckout);
      expect(checkout).toBeGreaterThanOrEqual(0);
      expect(checkout).toBeLessThan(plangate);
      expect(job.steps[checkout]?.with).toMatchObject({ 'fetch-depth': '0', 'persist-credentials': 'false' });
    }
    // The App token is minted before anything uses it, and hands the checkout and plangate the same token.
    const [, appJob] = onlyJob(appTokenWorkflow());
    const minted = appJob.steps.findIndex(isAppToken);
    expect(minted).toBe(0);
    const tokenOf = (step: Step | undefined, input: string) => soleReference(step?.with?.[input] ?? '').join('.');
    const id = appJob.steps[minted]?.id ?? '';
    expect(tokenOf(appJob.steps.find(isCheckout), 'token')).toBe(`steps.${id}.outputs.token`);
    expect(tokenOf(appJob.steps[plangateIndex(appJob)], 'github-token')).toBe(`steps.${id}.outputs.token`);
    // plangate believes records only by `bot-login`, so it must name the App's account.
    const inputs = runnerInputs(appJob.steps, plangateIndex(appJob), { appSlug: 'plangate-helper' });
    expect(inputs['bot-login']).toBe('plangate-helper[bot]');
  });

  it('gives every job a time limit above plangate’s own, so plangate stops cleanly before the runner kills it', () => {
    const own = Number(manifest.inputs['timeout-minutes']?.default);
    expect(own).toBeGreaterThan(0);
    const examples = exampleWorkflows().map((example) => example.workflow);
    for (const workflow of [setupWorkflow().workflow, minimalWorkflow().workflow, ...examples]) {
      const [, job] = onlyJob(workflow);
      const step = job.steps[plangateIndex(job)]?.with?.['timeout-minutes'];
      const inner = step === undefined ? own : Number(step);
      expect(Number(job['timeout-minutes']), JSON.stringify(workflow.name)).toBeGreaterThan(inner);
    }
  });

  it('names in its prose every secret and variable its workflows read', () => {
    for (const workflow of [setupWorkflow().workflow, minimalWorkflow().workflow, appTokenWorkflow()]) {
      const [, job] = onlyJob(workflow);
      const values = job.steps.flatMap((step) => [...Object.values(step.with ?? {}), ...Object.values(step.env ?? {})]);
      const names = values.flatMap((value) =>
        [...value.matchAll(/\$\{\{\s*(?:secrets|vars)\.([A-Za-z0-9_]+)\s*\}\}/g)].map((m) => m[1] ?? ''),
      );
      expect(names.length).toBeGreaterThan(0);
      for (const name of names)
        expect(prose, `the docs never tell the user to create ${name}`).toContain(`\`${name}\``);
    }
    for (const { workflow } of [setupWorkflow(), minimalWorkflow()]) {
      const [, job] = onlyJob(workflow);
      expect(job.steps[plangateIndex(job)]?.with?.['api-key']).toBe(`\${{ secrets.${apiKeySecretName()} }}`);
    }
  });
});

// GitHub's values of `author_association`: only the first three take turns in an issue's group.
const TRUSTED = ['OWNER', 'MEMBER', 'COLLABORATOR'];
const UNTRUSTED = ['NONE', 'CONTRIBUTOR', 'FIRST_TIMER', 'FIRST_TIME_CONTRIBUTOR', 'MANNEQUIN'];

/** The job as the docs showed it before approvals had groups of their own: the checks below must catch it. */
const PREVIOUS_JOB: Pick<Job, 'if' | 'concurrency'> = {
  if: "github.event_name != 'issue_comment' || startsWith(github.event.comment.body, '/')",
  concurrency: {
    group:
      "plangate-${{ (startsWith(github.event.comment.body, '/plan') || startsWith(github.event.comment.body, '/approve') || " +
      "startsWith(github.event.comment.body, '/revise') || startsWith(github.event.comment.body, '/answer')) && github.event.issue.number || github.run_id }}",
    'cancel-in-progress': 'false',
  },
};

/** Keeping outsiders out of the issue's group but leaving /approve in it: still not enough. */
const OUTSIDERS_OUT_ONLY: Pick<Job, 'if' | 'concurrency'> = {
  if: PREVIOUS_JOB.if,
  concurrency: {
    group:
      'plangate-${{ contains(fromJSON(\'["OWNER", "MEMBER", "COLLABORATOR"]\'), github.event.comment.author_association) && ' +
      "(startsWith(github.event.comment.body, '/plan') || startsWith(github.event.comment.body, '/approve') || " +
      "startsWith(github.event.comment.body, '/revise') || startsWith(github.event.comment.body, '/answer')) && github.event.issue.number || github.run_id }}",
    'cancel-in-progress': 'false',
  },
};

/** Comments of all kinds on issue 7, by whom, for driving a job's `if:` and group through GitHub's queueing. */
const ACTORS = [
  { name: "an outsider's /plan", body: '/plan Take the repository over', login: 'mallory', association: 'NONE' },
  { name: "an outsider's /approve", body: '/approve', login: 'mallory', association: 'NONE' },
  { name: "a contributor's /revise", body: '/revise bigger steps', login: 'carol', association: 'CONTRIBUTOR' },
  { name: "a collaborator's /plan", body: '/plan Add a farewell function', login: 'mona', association: 'COLLABORATOR' },
  { name: "a member's /answer", body: '/answer yes', login: 'hubot', association: 'MEMBER' },
  { name: "the owner's /approve", body: '/approve 1a2b3c4d', login: owner, association: 'OWNER', approval: true },
  { name: "a collaborator's /status", body: '/status', login: 'mona', association: 'COLLABORATOR' },
  { name: 'an ordinary comment', body: 'Thanks, looks good!', login: 'mona', association: 'COLLABORATOR' },
] as const;
type Actor = (typeof ACTORS)[number];
const isApproval = (actor: Actor): boolean => 'approval' in actor;
const isTrusted = (actor: Actor): boolean => TRUSTED.includes(actor.association);

/**
 * Drives every sequence of up to `depth` steps (a comment by one of ACTORS, or the oldest running
 * run finishing) through GitHub's concurrency groups, with each comment's `if:` and group evaluated
 * from the job. Answers the first sequence in which `harmed` holds (with why), or undefined.
 */
function findSequence(
  job: Pick<Job, 'if' | 'concurrency'>,
  depth: number,
  harmed: (
    groups: ConcurrencyGroups,
    actorOf: ReadonlyMap<string, Actor>,
    entered: { run: string; outcome: 'started' | 'pending' } | undefined,
  ) => string | undefined,
): string[] | undefined {
  // Run ids are 1001, 1002, ... in posting order, so each (actor, run id) is evaluated once.
  const evaluated = new Map<string, { runs: boolean; group: string }>();
  const jobFor = (actor: Actor, runId: string) => {
    const key = `${actor.name}@${runId}`;
    let found = evaluated.get(key);
    if (!found) {
      const event = sketchComment(actor.body, actor.login, 7, actor.association);
      found = { runs: jobRuns(job, event, runId), group: concurrencyGroup(job, event, runId) };
      evaluated.set(key, found);
    }
    return found;
  };
  const search = (
    groups: ConcurrencyGroups,
    actorOf: Map<string, Actor>,
    posted: number,
    path: string[],
  ): string[] | undefined => {
    if (path.length === depth) return undefined;
    for (const actor of ACTORS) {
      const runId = String(1001 + posted);
      const { runs, group } = jobFor(actor, runId);
      const next = groups.clone();
      const nextActors = new Map(actorOf);
      const step = [...path, `${actor.name} (run ${runId}${runs ? `, group ${group}` : ', no job'})`];
      let entered: { run: string; outcome: 'started' | 'pending' } | undefined;
      if (runs) {
        nextActors.set(runId, actor);
        entered = { run: runId, outcome: next.enter(runId, group) };
      }
      const why = harmed(next, nextActors, entered);
      if (why) return [...step, why];
      const found = search(next, nextActors, posted + 1, step);
      if (found) return found;
    }
    const [oldest] = groups.runningRuns();
    if (oldest !== undefined) {
      const next = groups.clone();
      next.finish(oldest);
      const step = [...path, `run ${oldest} finishes`];
      const why = harmed(next, actorOf, undefined);
      if (why) return [...step, why];
      const found = search(next, actorOf, posted, step);
      if (found) return found;
    }
    return undefined;
  };
  return search(new ConcurrencyGroups(), new Map(), 0, []);
}

/** An approval cancelled, or left waiting where a later run could cancel it. */
const approvalLostOrWaiting = (
  groups: ConcurrencyGroups,
  actorOf: ReadonlyMap<string, Actor>,
  entered: { run: string; outcome: string } | undefined,
) => {
  const lost = groups.cancelled.find((run) => isApproval(actorOf.get(run) as Actor));
  if (lost) return `approval run ${lost} was cancelled by run ${groups.replacedBy.get(lost)}`;
  if (entered && isApproval(actorOf.get(entered.run) as Actor) && entered.outcome === 'pending')
    return `approval run ${entered.run} waits in a shared pending slot`;
  return undefined;
};

/** Any run cancelled by the run of someone outside the owner, members and collaborators. */
const outsiderInterferes = (groups: ConcurrencyGroups, actorOf: ReadonlyMap<string, Actor>) => {
  for (const run of groups.cancelled) {
    const by = groups.replacedBy.get(run) ?? '';
    if (!isTrusted(actorOf.get(by) as Actor)) return `run ${run} was cancelled by ${actorOf.get(by)?.name} (run ${by})`;
  }
  return undefined;
};

/** Every command starts the job, whoever writes it (plangate checks permissions). */
function expectJobForEveryCommand(job: Pick<Job, 'if'>): void {
  // The list above is what plangate reads as its commands: the `if:` and the action agree.
  for (const body of COMMANDS) expect(parseCommentCommand(body), JSON.stringify(body)).toBeDefined();
  for (const association of [...TRUSTED, ...UNTRUSTED]) {
    for (const body of COMMANDS)
      expect(jobRuns(job, sketchComment(body, 'mona', 7, association)), `${association}: ${body}`).toBe(true);
  }
}

/** An ordinary comment starts no job, whoever writes it. */
function expectNoJobForOrdinaryComments(job: Pick<Job, 'if'>): void {
  for (const association of [...TRUSTED, ...UNTRUSTED]) {
    for (const body of NOT_COMMANDS)
      expect(jobRuns(job, sketchComment(body, 'mona', 7, association)), `${association}: ${JSON.stringify(body)}`).toBe(
        false,
      );
  }
  // plangate's own comments, and other bots', start no job unless they start with "/".
  expect(jobRuns(job, sketchComment('Thanks for the plan!', 'dependabot[bot]', 7, 'NONE'))).toBe(false);
}

describe("the quick start's if:, evaluated by GitHub's expression engine", () => {
  const [, job] = onlyJob(minimalWorkflow().workflow);

  it('starts the job for every command, whoever writes it (plangate checks permissions), and never for an ordinary comment or another tool’s command', () => {
    expectJobForEveryCommand(job);
    expectNoJobForOrdinaryComments(job);
  });

  it('starts no job for another tool’s /word: none of them is a command plangate would carry out either', () => {
    // At most a near miss (`/approved`), which plangate answers only when a job starts anyway.
    for (const body of NOT_COMMANDS)
      expect([undefined, 'unknown'], JSON.stringify(body)).toContain(parseCommentCommand(body)?.name);
  });

  it('is the if: of every example workflow that takes comments only', () => {
    for (const { file, workflow } of exampleWorkflows()) {
      const [, example] = onlyJob(workflow);
      if (Object.keys(workflow.on).length === 1) expect(example.if, file).toBe(job.if);
      expectJobForEveryCommand(example);
      expectNoJobForOrdinaryComments(example);
    }
  });
});

describe("the if: for command-prefix in docs/setup.md, evaluated by GitHub's expression engine", () => {
  const block = blocks.find((b) => b.file === 'docs/setup.md' && b.text.includes("'/plangate!'"));
  const job = z.looseObject({ if: scalar }).parse(parseYaml(block?.text ?? '', { schema: 'failsafe' }));
  const prefix = '/plangate';

  it('starts a job for every command after the prefix, and for none without it', () => {
    for (const name of COMMAND_NAMES) {
      for (const body of [`${prefix} ${name}`, `${prefix} ${name} x`, `${prefix} ${name}\r\nx`, ` ${prefix} ${name}`]) {
        expect(jobRuns(job, sketchComment(body)), JSON.stringify(body)).toBe(true);
        expect(parseCommentCommand(body, prefix), JSON.stringify(body)).toMatchObject({ name });
      }
      expect(jobRuns(job, sketchComment(`/${name} x`)), name).toBe(false);
      expect(parseCommentCommand(`/${name} x`, prefix), name).toBeUndefined();
    }
    for (const body of [...NOT_COMMANDS, '/plangates plan x', '/plangate-bot plan x'])
      expect(jobRuns(job, sketchComment(body)), JSON.stringify(body)).toBe(false);
  });
});

describe("the complete workflow's if: and concurrency, evaluated by GitHub's expression engine", () => {
  const { workflow } = setupWorkflow();
  const [, job] = onlyJob(workflow);
  const run = '9001';

  it('starts the job for every command, whoever writes it (plangate checks permissions), and for schedules and dispatches', () => {
    expectJobForEveryCommand(job);
    for (const s of workflow.on.schedule ?? []) expect(jobRuns(job, scheduleEvent(s.cron))).toBe(true);
    expect(jobRuns(job, dispatchEvent({ task: 'deps' }))).toBe(true);
  });

  it('gives an ordinary comment no job, whoever writes it', () => {
    expectNoJobForOrdinaryComments(job);
  });

  it("puts an outsider's /plan (author_association NONE) in a group of its own run, never the issue's or an approval's", () => {
    const outsider = sketchComment('/plan Take the repository over', 'mallory', 7, 'NONE');
    // The if: starts the job (plangate then refuses an author without trigger-permission, with a reply).
    expect(jobRuns(job, outsider)).toBe(true);
    expect(concurrencyGroup(job, outsider, run)).toBe(`plangate-run-${run}`);
    // So for every planning command: the issue's group only for the owner, members and collaborators.
    for (const body of ['/plan Add a farewell function', '/revise smaller steps', '/answer yes']) {
      for (const association of TRUSTED)
        expect(concurrencyGroup(job, sketchComment(body, 'mona', 7, association), run), `${association}: ${body}`).toBe(
          'plangate-issue-7',
        );
      for (const association of UNTRUSTED)
        expect(
          concurrencyGroup(job, sketchComment(body, 'mallory', 7, association), run),
          `${association}: ${body}`,
        ).toBe(`plangate-run-${run}`);
    }
    // GitHub spells the values in capitals; the comparison, like GitHub's, ignores case anyway.
    expect(concurrencyGroup(job, sketchComment('/plan x', 'mona', 7, 'collaborator'), run)).toBe('plangate-issue-7');
  });

  it("puts a writer's /approve (COLLABORATOR) in a group of its own run, which no other comment or run can enter", () => {
    for (const body of ['/approve', '/approve 1a2b3c4d', '/approve --over-budget 1a2b3c4d']) {
      const approval = sketchComment(body, 'mona', 7, 'COLLABORATOR');
      expect(jobRuns(job, approval), body).toBe(true);
      expect(concurrencyGroup(job, approval, run), body).toBe(`plangate-run-${run}`);
    }
    // Every other event, on this issue or another, by anyone, in any other run: never that group.
    const others: WorkflowEvent[] = [
      ...[7, 8].flatMap((issue) =>
        [...TRUSTED, ...UNTRUSTED].flatMap((association) =>
          [...COMMANDS, ...NOT_COMMANDS].map((body) => sketchComment(body, 'someone', issue, association)),
        ),
      ),
      ...(workflow.on.schedule ?? []).map((s) => scheduleEvent(s.cron)),
      dispatchEvent({ task: 'deps' }),
    ];
    for (const event of others) {
      for (const otherRun of ['9000', '9002', '7']) {
        // GitHub compares group names without case.
        expect(concurrencyGroup(job, event, otherRun).toLowerCase()).not.toBe(`plangate-run-${run}`);
      }
    }
  });

  it("sends a maintainer's /plan while an approval waits or runs to the issue's planning group, never the approval's", () => {
    const planning = sketchComment('/plan Add a farewell function', 'mona', 7, 'COLLABORATOR');
    const approval = sketchComment('/approve 1a2b3c4d', owner, 7, 'OWNER');
    const newerPlan = sketchComment('/plan Say goodbye in French too', 'hubot', 7, 'MEMBER');
    const outsider = sketchComment('/plan Take the repository over', 'mallory', 7, 'NONE');
    const revision = sketchComment('/revise smaller steps', 'hubot', 7, 'MEMBER');
    for (const event of [planning, approval, newerPlan, outsider, revision]) expect(jobRuns(job, event)).toBe(true);
    const groups = new ConcurrencyGroups();
    // A plan is being made (run 100) when the owner approves the earlier plan (run 101): no waiting.
    expect(groups.enter('100', concurrencyGroup(job, planning, '100'))).toBe('started');
    expect(concurrencyGroup(job, approval, '101')).toBe('plangate-run-101');
    expect(groups.enter('101', concurrencyGroup(job, approval, '101'))).toBe('started');
    // A maintainer's /plan queues behind run 100 in the issue's group; the approval is not there.
    expect(concurrencyGroup(job, newerPlan, '102')).toBe('plangate-issue-7');
    expect(groups.enter('102', concurrencyGroup(job, newerPlan, '102'))).toBe('pending');
    // An outsider's /plan cannot take its place: it runs in a group of its own (and plangate refuses it).
    expect(groups.enter('103', concurrencyGroup(job, outsider, '103'))).toBe('started');
    expect(groups.pendingIn('plangate-issue-7')).toBe('102');
    // A member's /revise does replace it, as GitHub does within a group.
    expect(groups.enter('104', concurrencyGroup(job, revision, '104'))).toBe('pending');
    expect(groups.cancelled).toEqual(['102']);
    expect(groups.finish('100')).toBe('104');
    expect(groups.runningRuns()).toEqual(['101', '103', '104']);
    // plangate's own lock, not GitHub's queue, keeps two executions on one issue apart.
    expect(prose).toMatch(/execution lock[^.]*lets one execution run per issue/);
  });

  it('never cancels a running job', () => {
    expect(typeof job.concurrency === 'object' ? job.concurrency['cancel-in-progress'] : undefined).toBe('false');
  });

  it("lets no sequence of comments cancel an approval or leave it waiting, under GitHub's one running and one pending run per group", () => {
    expect(findSequence(job, 5, approvalLostOrWaiting)).toBeUndefined();
  });

  it("lets no outsider's comment cancel anyone's waiting command", () => {
    expect(findSequence(job, 5, outsiderInterferes)).toBeUndefined();
  });

  it('finds both faults in the workflow the docs showed before, so the checks above have teeth', () => {
    expect(findSequence(PREVIOUS_JOB, 5, approvalLostOrWaiting)).toBeDefined();
    expect(findSequence(PREVIOUS_JOB, 5, outsiderInterferes)).toBeDefined();
    // The plain case: a plan is running, the owner approves, an outsider's /plan takes the pending slot.
    const groups = new ConcurrencyGroups();
    const steps: Array<[string, WorkflowEvent]> = [
      ['1', sketchComment('/plan Add a farewell function', 'mona', 7, 'COLLABORATOR')],
      ['2', sketchComment('/approve 1a2b3c4d', owner, 7, 'OWNER')],
      ['3', sketchComment('/plan Take the repository over', 'mallory', 7, 'NONE')],
    ];
    for (const [id, event] of steps) {
      expect(jobRuns(PREVIOUS_JOB, event, id)).toBe(true);
      groups.enter(id, concurrencyGroup(PREVIOUS_JOB, event, id));
    }
    expect(groups.cancelled).toEqual(['2']);
    // Keeping outsiders out of the issue's group is not enough while approvals share it: a
    // collaborator's later /plan takes the pending slot just the same.
    expect(findSequence(OUTSIDERS_OUT_ONLY, 5, outsiderInterferes)).toBeUndefined();
    expect(findSequence(OUTSIDERS_OUT_ONLY, 5, approvalLostOrWaiting)).toBeDefined();
  });

  it('queues planning commands per issue and gives every other command and event a group of its own run', () => {
    for (const body of ['/plan Add a farewell function', '/revise smaller steps', '/answer yes']) {
      expect(concurrencyGroup(job, sketchComment(body, 'mona', 7), run), body).toBe('plangate-issue-7');
    }
    expect(concurrencyGroup(job, sketchComment('/plan other', 'mona', 8), run)).toBe('plangate-issue-8');
    for (const body of ['/approve', '/status', '/cancel', '/help'])
      expect(concurrencyGroup(job, sketchComment(body), run), body).toBe(`plangate-run-${run}`);
    expect(concurrencyGroup(job, scheduleEvent('0 6 * * 1'), run)).toBe(`plangate-run-${run}`);
    expect(concurrencyGroup(job, dispatchEvent({ task: 'deps' }), run)).toBe(`plangate-run-${run}`);
  });
});

describe('the expression helpers around @actions/expressions', () => {
  const github = githubContext(sketchComment('/Plan it'), '5');

  it('evaluates with GitHub semantics', () => {
    expect(evaluateCondition("startsWith(github.event.comment.body, '/plan')", { github })).toBe(true);
    expect(
      evaluateCondition("${{ contains(github.event.comment.body, 'IT') && !(github.event_name != 'ISSUE_COMMENT') }}", {
        github,
      }),
    ).toBe(true);
    expect(evaluateCondition("github.event.no.such.path == ''", { github })).toBe(true);
    expect(
      evaluateCondition('contains(fromJSON(\'["OWNER", "COLLABORATOR"]\'), github.event.comment.author_association)', {
        github,
      }),
    ).toBe(true);
    expect(evaluateCondition('github.event.issue.number == 7 && github.event.issue.number > 6', { github })).toBe(true);
    expect(
      interpolate("x-${{ github.event.missing || github.run_id }}-${{ 'a' && github.event.issue.number }}", { github }),
    ).toBe('x-5-7');
    expect(evaluate("format('issue-{0}', github.event.issue.number)", { github }).coerceString()).toBe('issue-7');
  });

  it('fails loudly on contexts not given, unknown or status functions, bad syntax, and text mixed with ${{ }} in an if:', () => {
    const broken = [
      "secrets.TOKEN != ''",
      "vars.X == 'y'",
      "always() && startsWith(github.event.comment.body, '/')",
      "startWith(github.event.comment.body, '/')",
      "startsWith(github.event.comment.body, '/') ||",
      'github.event_name == "issue_comment"',
      'on ${{ github.event_name }}',
    ];
    for (const expression of broken) expect(() => evaluateCondition(expression, { github }), expression).toThrow();
  });

  it('reads a bare context path and builds only the contexts a value names', () => {
    expect(contextPath(parseExpression('steps.app-token.outputs.app-slug', STEP_CONTEXTS))).toEqual([
      'steps',
      'app-token',
      'outputs',
      'app-slug',
    ]);
    expect(contextPath(parseExpression("format('{0}', github.token)", STEP_CONTEXTS))).toBeUndefined();
    const asked: string[] = [];
    const contexts = resolvedContexts(
      '${{ steps.app-token.outputs.app-slug }}[bot] ${{ secrets.KEY }}',
      STEP_CONTEXTS,
      (segments) => {
        asked.push(segments.join('.'));
        return segments.at(-1);
      },
    );
    expect(asked).toEqual(['steps.app-token.outputs.app-slug', 'secrets.KEY']);
    expect(interpolate('${{ steps.app-token.outputs.app-slug }}[bot]', contexts)).toBe('app-slug[bot]');
  });
});

// ---------------------------------------------------------------------------------------------
// Following the docs end to end: the plangate step's inputs, its token's permissions, /plan, /approve.

const plan = {
  steps: [
    {
      title: 'Add a farewell function',
      detail: 'Export farewell(name) from src/greet.js.',
      files: ['src/greet.js'],
      verify: 'npm test',
    },
  ],
};
const script = () => ({
  planner: [
    toolCall('read_file', { path: 'src/greet.js' }),
    toolCall('update_context', {
      plan,
      directive: 'Append farewell(name) to src/greet.js; it returns "Goodbye " + name.',
    }),
    toolCall('update_context', { summary: 'Added farewell(name) next to greet.' }),
  ],
  executor: [appendFarewell, farewellAppended],
});

afterEach(closeOpenWorlds);

/** A workflow's job set up as the runner would run it, in a world whose token may do what the workflow grants. */
interface Followed {
  w: World;
  job: Job;
  inputs: Record<string, string>;
  botLogin: string;
  issue: number;
}

async function setUp(workflow: Workflow, fakes: Fakes): Promise<Followed> {
  const [, job] = onlyJob(workflow);
  const index = plangateIndex(job);
  // The harness hands every run the scripted model's key; a workflow must pass it itself, as on GitHub.
  const inputs: Record<string, string> = {
    'api-key': manifest.inputs['api-key']?.default ?? '',
    ...runnerInputs(job.steps, index, fakes),
  };
  const botLogin = inputs['bot-login'] ?? manifest.inputs['bot-login']?.default ?? '';
  const w = await createWorld(script());
  const grant = tokenGrant(workflow, job, job.steps[index] as Step);
  const areas: PermissionArea[] = ['contents', 'issues', 'pull-requests'];
  for (const area of areas) if (grant[area] !== 'write') w.gh.denyPermission(area);
  // A maintainer with write access, the least that trigger-permission and approve-permission ask by default.
  w.gh.setPermission('mona', 'write');
  const issue = w.gh.addIssue({ title: 'Say goodbye', body: 'We greet but never say goodbye.', login: 'mona' }).number;
  return { w, job, inputs, botLogin, issue };
}

const botComments = (f: Followed) => f.w.gh.comments(f.issue).filter((c) => c.user?.login === f.botLogin);

/** Runs the job for a new comment by mona: its `if:` must start it; a fresh checkout precedes the plangate step. */
async function runComment(f: Followed, body: string) {
  const event = commentOn(f.w, f.issue, 'mona', body);
  expect(jobRuns(f.job, event), body).toBe(true);
  f.w.freshCheckout();
  return { event, run: await f.w.runAction(event, f.inputs) };
}

/** /plan: a plan comment by bot-login, with its checks and the id to approve. */
async function planned(f: Followed): Promise<{ planId: string; event: WorkflowEvent }> {
  const { event, run } = await runComment(f, '/plan Add a farewell function\nKeep greet as it is.');
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.outputs.outcome, run.stdout).toBe('planned');
  const planId = run.outputs['plan-id'] ?? '';
  expect(planId).toMatch(/^[0-9a-f]{8}$/);
  const planComment = botComments(f)[0];
  expect(planComment?.body).toContain(`/approve ${planId}`);
  // allowed-commands, a block scalar in the workflow, reached plangate line by line (or was left out).
  const allowsNpmTest = (f.inputs['allowed-commands'] ?? '').split('\n').includes('npm test');
  expect(planComment?.body).toContain(
    allowsNpmTest ? 'every verify command is allowed' : 'Checks passed** with 1 warning',
  );

  // plangate's own comments fire issue_comment too (with an App token they start workflows): none
  // may start a job that does anything.
  for (const own of botComments(f)) {
    const ownEvent = eventFor(f.w, f.issue, own);
    if (jobRuns(f.job, ownEvent)) expect((await f.w.runAction(ownEvent, f.inputs)).outputs.outcome).toBe('ignored');
  }
  return { planId, event };
}

/** /approve <id>: the executor's change on the work branch and a pull request by bot-login. */
async function approvedWithPull(f: Followed, planId: string): Promise<WorkflowEvent> {
  const { event, run } = await runComment(f, `/approve ${planId}`);
  expect(run.code, run.stdout + run.stderr).toBe(0);
  expect(run.outputs, run.stdout).toMatchObject({
    outcome: 'done',
    'plan-id': planId,
    branch: `plangate/${f.issue}-${planId}`,
  });
  const [pull] = f.w.gh.pulls();
  expect(pull?.head.ref).toBe(`plangate/${f.issue}-${planId}`);
  expect(pull?.base.ref).toBe('main');
  expect(pull?.user?.login).toBe(f.botLogin);
  expect(run.outputs['pr-number']).toBe(String(pull?.number));
  expect(git(f.w.origin, 'show', `refs/heads/plangate/${f.issue}-${planId}:src/greet.js`)).toContain(
    "return 'Goodbye ' + name;",
  );
  expect(f.w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  return event;
}

/** The approval was never queued behind the /plan run, where a later comment could take its place: a group of its own. */
function expectOwnGroups(f: Followed, planEvent: WorkflowEvent, approveEvent: WorkflowEvent): void {
  expect(concurrencyGroup(f.job, approveEvent, '2')).toBe('plangate-run-2');
  expect(concurrencyGroup(f.job, planEvent, '1')).toBe(`plangate-issue-${f.issue}`);
}

describe('following the docs end to end', () => {
  it("the README's quick-start workflow plans on /plan and opens a pull request on /approve", async () => {
    const f = await setUp(minimalWorkflow().workflow, { appSlug: 'unused' });
    const { planId } = await planned(f);
    await approvedWithPull(f, planId);
  });

  it('the complete workflow plans on /plan, opens a pull request on /approve and ignores other bots', async () => {
    const f = await setUp(setupWorkflow().workflow, { appSlug: 'unused' });
    const { planId, event } = await planned(f);
    expectOwnGroups(f, event, await approvedWithPull(f, planId));

    // Another bot's command passes the if: (it starts with "/"); plangate then ignores it and calls no model.
    const requests = f.w.model.requests.length;
    const botCommand = commentOn(f.w, f.issue, 'dependabot[bot]', '/plan bump everything');
    expect(jobRuns(f.job, botCommand)).toBe(true);
    const ignored = await f.w.runAction(botCommand, f.inputs);
    expect(ignored.outputs.outcome).toBe('ignored');
    expect(f.w.model.requests.length).toBe(requests);
  });

  it('the App-token variant from Troubleshooting does the same with the App token', async () => {
    // The emulator acts as github-actions[bot] for its one token, so the App here is that account;
    // the static test above proves bot-login follows any other slug.
    const f = await setUp(appTokenWorkflow(), { appSlug: 'github-actions' });
    const { planId, event } = await planned(f);
    expectOwnGroups(f, event, await approvedWithPull(f, planId));
  });

  it('gives the permission check teeth: without pull-requests: write the approval opens no pull request', async () => {
    const { workflow } = setupWorkflow();
    const [jobId, job] = onlyJob(workflow);
    const permissions = { ...(job.permissions as Record<string, Level>), 'pull-requests': 'read' as const };
    const f = await setUp({ ...workflow, jobs: { [jobId]: { ...job, permissions } } }, { appSlug: 'unused' });
    const { planId } = await planned(f);
    const { run } = await runComment(f, `/approve ${planId}`);
    expect(run.outputs.outcome).not.toBe('done');
    expect(f.w.gh.pulls()).toEqual([]);
    expect(
      botComments(f)
        .map((c) => c.body ?? '')
        .join('\n'),
    ).toContain('add `pull-requests: write`');
  });
});
