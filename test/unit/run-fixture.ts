import { createHash } from 'node:crypto';
import type {
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { RepoRole } from '../../src/config/permissions.js';
import { readSettings, type Settings } from '../../src/config/settings.js';
import type { ApprovalState, Comment, PullRequest, Reaction, Thread } from '../../src/github/thread.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import type { ChatClient, ChatRequest, ChatTurn } from '../../src/models/chat-client.js';
import type { TokenUsage } from '../../src/models/usage.js';
import { botIdentity, GitError, type Git } from '../../src/repo/git.js';
import type { ExecutionLocks, RunContext } from '../../src/run/run-context.js';
import type { CommandSource } from '../../src/run/command.js';
import type { Execution } from '../../src/run/execution.js';
import { renderRecord } from '../../src/run/live-record.js';
import { hashIssue, type PlanRecord } from '../../src/record/plan-record.js';
import { makeRecord } from './record-fixture.js';
import type { Sandbox } from '../../src/sandbox/account/sandbox-types.js';
import { githubBodyLimit } from '../../src/text/limits.js';

/**
 * An in-memory RunContext for the engine's unit tests: GitHub as a thread that keeps comments, pull
 * requests and refs in memory and behaves as GitHub does where the engine relies on it (who last
 * edited a comment, the body limit, a second pull request from one head refused), git as a small
 * model of one repository and its origin that answers the commands the host's git layer sends, and
 * models that answer whatever `Stage:` line they are summoned with. No process, no network, no file.
 */

export const owner = 'octo';
export const repo = 'widgets';
export const botLogin = 'github-actions[bot]';
export const baseSha = sha('base');

/** A stable 40-hex id for a name. */
export function sha(name: string): string {
  return createHash('sha1').update(name).digest('hex');
}

// ---------------------------------------------------------------------------------------------- git

interface FakeCommit {
  parent: string | undefined;
  message: string;
  author: { name: string; email: string };
  files: string[];
}

/** One repository with its origin: branches and plangate's refs on origin, a work tree of changed paths. */
export interface FakeRepo {
  git: Git;
  /** Refs on origin (`refs/heads/...`, `refs/plangate/...`) and the commit each points at. */
  origin: Map<string, string>;
  commits: Map<string, FakeCommit>;
  /** A file the executor (or anyone) changed in the work tree since the last commit. */
  write(path: string): void;
  /** Commits on an origin branch since the base, oldest first. */
  branchLog(branch: string): FakeCommit[];
  /** A commit pushed to an origin branch by someone other than plangate. */
  pushAs(branch: string, author: { name: string; email: string }, message: string): string;
}

export function createFakeRepo(): FakeRepo {
  const commits = new Map<string, FakeCommit>([
    [baseSha, { parent: undefined, message: 'base', author: { name: 'octo', email: 'octo@example.com' }, files: [] }],
  ]);
  const origin = new Map<string, string>([['refs/heads/main', baseSha]]);
  const tracking = new Map<string, string>();
  const pending = new Set<string>();
  const staged = new Set<string>();
  let head = baseSha;
  let counter = 0;
  const newCommit = (commit: FakeCommit) => {
    const id = sha(`commit ${++counter} ${commit.message}`);
    commits.set(id, commit);
    return id;
  };
  const between = (from: string, to: string): FakeCommit[] => {
    const out: FakeCommit[] = [];
    for (let at: string | undefined = to; at !== undefined && at !== from; at = commits.get(at)?.parent) {
      const commit = commits.get(at);
      if (commit) out.unshift(commit);
    }
    return out;
  };
  const afterDashes = (args: readonly string[]) => args.slice(args.indexOf('--') + 1);
  /** A commit named as the host names one: HEAD, a sha, or a fetched remote-tracking ref. */
  const resolve = (rev: string): string | undefined =>
    rev === 'HEAD' ? head : commits.has(rev) ? rev : tracking.get(rev.replace('^{commit}', ''));
  /** A tree stands for every path its commits added since the base. */
  const treeOf = (commit: string) =>
    sha(
      `tree ${between(baseSha, commit)
        .flatMap((c) => c.files)
        .sort()
        .join('\0')}`,
    );

  const git: Git = async (input) => {
    const args = [...input];
    const config = new Map<string, string>();
    while (args[0] === '-c') {
      const [key = '', value = ''] = (args[1] ?? '').split(/=(.*)/s);
      config.set(key, value);
      args.splice(0, 2);
    }
    if (args[0] === '--literal-pathspecs') args.shift();
    const [command, ...rest] = args;
    const fail = (message: string, code = 128): never => {
      throw new GitError(`git ${command} failed: ${message}`, code, message);
    };
    switch (command) {
      case 'cat-file':
        if (rest[0] === '-e')
          return commits.has((rest[1] ?? '').replace('^{commit}', '')) ? '' : fail('not a valid object');
        // The size of a staged file, for the credential check (which then finds nothing in it).
        if (rest[0] === '-s') return '10';
        break;
      case 'fetch': {
        const spec = rest.find((r) => r.startsWith('+refs/heads/'));
        if (!spec) return '';
        const [source = '', target = ''] = spec.slice(1).split(':');
        const at = origin.get(source);
        if (!at) return fail(`couldn't find remote ref ${source}`);
        tracking.set(target, at);
        return '';
      }
      case 'rev-parse': {
        if (rest[0] === '--show-prefix') return '';
        if (rest[0] === 'HEAD' || rest.includes('HEAD^{commit}')) return head;
        const rev = rest[0] ?? '';
        if (rev.endsWith('^{tree}')) {
          const commit = resolve(rev.slice(0, -'^{tree}'.length));
          return commit ? treeOf(commit) : fail(`unknown revision ${rev}`);
        }
        if (rev.endsWith('^@')) {
          const commit = resolve(rev.slice(0, -2));
          return commit ? (commits.get(commit)?.parent ?? '') : fail(`unknown revision ${rev}`);
        }
        const at = tracking.get(rev.replace('^{commit}', ''));
        return at ?? fail(`unknown revision ${rev}`);
      }
      case 'checkout': {
        if (rest.includes('-B') || rest.includes('--detach')) {
          head = rest.at(-1) ?? head;
          return '';
        }
        for (const path of afterDashes(rest)) pending.delete(path);
        return '';
      }
      case 'clean':
        for (const path of afterDashes(rest)) pending.delete(path);
        return '';
      case 'status':
        return [...pending].map((path) => `? ${path}\0`).join('');
      case 'hash-object':
      case 'ls-tree':
        return '';
      case 'add':
        for (const path of afterDashes(rest)) {
          if (pending.delete(path)) staged.add(path);
        }
        return '';
      case 'reset':
      case 'rm':
        for (const path of afterDashes(rest)) {
          if (staged.delete(path)) pending.add(path);
        }
        return '';
      case 'diff': {
        if (rest.includes('--cached')) {
          if (rest.includes('--quiet')) return staged.size > 0 ? fail('changes staged', 1) : '';
          return [...staged].map((path) => `:000000 100644 ${'0'.repeat(40)} ${sha(path)} A\0${path}\0`).join('');
        }
        const range = rest.find((r) => r.includes('..')) ?? '';
        const [from = '', to = ''] = range.split('..');
        const files = between(from, to).flatMap((c) => c.files);
        return files.map((path) => ` ${path} | 1 +`).join('\n');
      }
      case 'commit': {
        const message = rest[rest.indexOf('-m') + 1] ?? '';
        const author = { name: config.get('user.name') ?? '', email: config.get('user.email') ?? '' };
        head = newCommit({ parent: head, message, author, files: [...staged] });
        staged.clear();
        return '';
      }
      case 'commit-tree': {
        const message = rest[rest.indexOf('-m') + 1] ?? '';
        const parent = rest[rest.indexOf('-p') + 1];
        const author = { name: config.get('user.name') ?? '', email: config.get('user.email') ?? '' };
        return newCommit({ parent, message, author, files: [] });
      }
      case 'update-ref': {
        // The host moves only the checked-out work branch, from where HEAD is.
        if (rest[2] !== undefined && rest[2] !== head) return fail(`cannot lock ref '${rest[0]}'`);
        head = rest[1] ?? head;
        return '';
      }
      case 'push': {
        const target = rest.at(-1) ?? '';
        if (target.startsWith(':')) {
          origin.delete(target.slice(1));
          return '';
        }
        const lease = rest.find((r) => r.startsWith('--force-with-lease='))?.slice('--force-with-lease='.length) ?? '';
        const [leased = '', expected = ''] = lease.split(':');
        if ((origin.get(leased) ?? '') !== expected) return fail(`! [rejected] ${leased} (stale info)`, 1);
        const [source = '', destination = ''] = target.split(':');
        origin.set(destination, source === 'HEAD' ? head : source);
        return '';
      }
      case 'ls-remote': {
        const ref = rest[1] ?? '';
        const at = origin.get(ref);
        return at ? `${at}\t${ref}` : '';
      }
      case 'log': {
        const [from = '', to = ''] = (rest.find((r) => r.includes('..')) ?? '').split('..');
        return between(from, to)
          .map((c) => `${c.author.name} <${c.author.email}>`)
          .join('\n');
      }
      default:
        break;
    }
    throw new Error(`the fake git does not know: git ${input.join(' ')}`);
  };

  return {
    git,
    origin,
    commits,
    write: (path) => void pending.add(path),
    branchLog: (branch) => {
      const tip = origin.get(`refs/heads/${branch}`);
      return tip ? between(baseSha, tip) : [];
    },
    pushAs(branch, author, message) {
      const ref = `refs/heads/${branch}`;
      const id = newCommit({ parent: origin.get(ref) ?? baseSha, message, author, files: [`${author.name}.txt`] });
      origin.set(ref, id);
      return id;
    },
  };
}

// ------------------------------------------------------------------------------------------- GitHub

export interface FakePull extends PullRequest {
  draft: boolean;
  /** Closed by plangate (a run that ended with nothing to land). */
  closed?: boolean;
  labels: string[];
  reviewers: string[];
}

export interface FakeThread extends Thread {
  readonly comments: (Comment & { issue: number })[];
  readonly pulls: FakePull[];
  readonly reactions: { commentId: number; content: Reaction }[];
  /** Each issue's title and body; issue 7 exists from the start. */
  readonly issues: Map<number, { title: string; body: string; author: string }>;
  /** Repository roles; anyone not listed has `read`. */
  readonly roles: Map<string, RepoRole>;
  /** A person edits a comment, as GitHub records it. */
  editAs(login: string, commentId: number, body: string): void;
  /** A person posts a comment. */
  commentAs(login: string, issue: number, body: string): Comment;
  /** Makes the next call of `method` throw `error` (once). */
  failNext(method: keyof Thread, error: unknown): void;
  /** The bot's comments on an issue, oldest first. */
  botComments(issue: number): Comment[];
  /** The fake GitHub's clock (ms): the time of its latest write, which moves one second per write. */
  now(): number;
  /** Moves the fake GitHub's clock on, as days passing between a comment and a run. */
  advance(ms: number): void;
}

export function createFakeThread(repoModel: FakeRepo): FakeThread {
  const comments: (Comment & { issue: number })[] = [];
  const pulls: FakePull[] = [];
  const reactions: { commentId: number; content: Reaction }[] = [];
  const issues = new Map([[7, { title: 'Add a CHANGELOG', body: 'We have none.', author: 'maintainer' }]]);
  const roles = new Map<string, RepoRole>([
    ['maintainer', 'admin'],
    ['reviewer', 'write'],
  ]);
  const failures = new Map<string, unknown>();
  let nextId = 1000;
  let clock = Date.parse('2025-01-01T00:00:00Z');
  const tick = () => new Date((clock += 1000)).toISOString();
  const url = (path: string) => `https://github.com/${owner}/${repo}/${path}`;
  const failing = (method: string) => {
    if (!failures.has(method)) return;
    const error = failures.get(method);
    failures.delete(method);
    throw error;
  };
  const within = (body: string) => {
    // GitHub refuses a longer body with a 422; plangate must cut before it posts.
    if (body.length > githubBodyLimit)
      throw Object.assign(new Error('Validation Failed: body is too long'), { status: 422 });
    return body;
  };
  const find = (id: number) => {
    const comment = comments.find((c) => c.id === id);
    if (!comment) throw Object.assign(new Error('Not Found'), { status: 404 });
    return comment;
  };
  const post = (issue: number, body: string, author: string): Comment & { issue: number } => {
    const at = tick();
    const id = ++nextId;
    const comment = {
      id,
      nodeId: `IC_${id}`,
      body: within(body),
      author,
      url: url(`issues/${issue}#issuecomment-${id}`),
      createdAt: at,
      updatedAt: at,
      editor: null,
      issue,
    };
    comments.push(comment);
    return comment;
  };
  const edit = (login: string, id: number, body: string) => {
    const comment = find(id);
    comment.body = within(body);
    comment.updatedAt = tick();
    comment.editor = login;
    return comment;
  };
  // REST answers carry no editor; only the listing (GraphQL) does.
  const rest = ({ issue: _issue, editor: _editor, ...comment }: Comment & { issue: number }): Comment => ({
    ...comment,
  });
  const pullOf = (number: number) => {
    const pull = pulls.find((p) => p.number === number);
    if (!pull) throw Object.assign(new Error('Not Found'), { status: 404 });
    return pull;
  };

  const thread: FakeThread = {
    repoRef: { owner, repo },
    comments,
    pulls,
    reactions,
    issues,
    roles,
    editAs: (login, id, body) => void edit(login, id, body),
    commentAs: (login, issue, body) => rest(post(issue, body, login)),
    failNext: (method, error) => void failures.set(method, error),
    botComments: (issue) => comments.filter((c) => c.issue === issue && c.author === botLogin).map(rest),
    now: () => clock,
    advance: (ms) => void (clock += ms),
    async permissionOf(login) {
      failing('permissionOf');
      return roles.get(login) ?? 'read';
    },
    async react(commentId, content) {
      failing('react');
      reactions.push({ commentId, content });
    },
    async postComment(issue, body) {
      failing('postComment');
      return rest(post(issue, body, botLogin));
    },
    async updateComment(id, body) {
      failing('updateComment');
      return rest(edit(botLogin, id, body));
    },
    async listComments(issue) {
      failing('listComments');
      return comments.filter((c) => c.issue === issue).map(({ issue: _issue, ...c }) => ({ ...c }));
    },
    async getComment(id) {
      failing('getComment');
      return rest(find(id));
    },
    async approvalState(issue, nodeId): Promise<ApprovalState> {
      failing('approvalState');
      const text = issues.get(issue) ?? { title: '', body: '' };
      if (nodeId === undefined) return { title: text.title, body: text.body };
      const comment = comments.find((c) => c.nodeId === nodeId);
      return {
        commentBody: comment?.body ?? null,
        commentEditor: comment?.editor ?? null,
        title: text.title,
        body: text.body,
      };
    },
    async lastEditor(nodeId) {
      failing('lastEditor');
      const comment = comments.find((c) => c.nodeId === nodeId);
      return { editor: comment?.editor ?? null, editedAt: comment?.editor ? comment.updatedAt : null };
    },
    async getIssue(number) {
      const text = issues.get(number);
      if (!text) throw Object.assign(new Error('Not Found'), { status: 404 });
      return { ...text };
    },
    async defaultBranch() {
      return 'main';
    },
    // A pull request's review as the unit flows see it: nothing said, no checks.
    pullRequestFiles: async () => [],
    reviewComments: async () => [],
    reviewThreadStates: async () => [],
    reviews: async () => [],
    failingChecks: async () => ({ readable: true, failing: [] }),
    reviewCommandText: async () => undefined,
    async pullRequest(number) {
      return pullOf(number);
    },
    async findOpenPullRequest(head, base) {
      return pulls.find((p) => p.headRef === head && p.baseRef === base);
    },
    async createPullRequest(input) {
      failing('createPullRequest');
      // As GitHub: one open pull request per head and base; a second create is refused.
      if (pulls.some((p) => !p.closed && p.headRef === input.head && p.baseRef === input.base)) {
        throw Object.assign(new Error(`Validation Failed: A pull request already exists for ${owner}:${input.head}.`), {
          status: 422,
        });
      }
      const number = ++nextId;
      const headSha = repoModel.origin.get(`refs/heads/${input.head}`) ?? '';
      const pull: FakePull = {
        number,
        nodeId: `PR_${number}`,
        url: url(`pull/${number}`),
        title: input.title,
        body: within(input.body),
        headRef: input.head,
        headSha,
        baseRef: input.base,
        sameRepo: true,
        author: 'github-actions[bot]',
        draft: input.draft,
        labels: [],
        reviewers: [],
      };
      pulls.push(pull);
      return { ...pull };
    },
    async updatePullRequest(number, input) {
      failing('updatePullRequest');
      const pull = pullOf(number);
      if (input.title !== undefined) pull.title = input.title;
      if (input.body !== undefined) pull.body = within(input.body);
      if (input.state !== undefined) pull.closed = input.state === 'closed';
      return { ...pull };
    },
    async markPullRequestReady(nodeId) {
      failing('markPullRequestReady');
      const pull = pulls.find((p) => p.nodeId === nodeId);
      if (!pull) throw Object.assign(new Error(`Could not resolve to a node with the global id of '${nodeId}'.`), {});
      pull.draft = false;
    },
    async requestReviewers(number, reviewers) {
      const pull = pullOf(number);
      pull.reviewers.push(...reviewers);
      return [...pull.reviewers];
    },
    async addLabels(number, labels) {
      const pull = pullOf(number);
      pull.labels.push(...labels);
      return [...pull.labels];
    },
    async findOpenIssue() {
      return undefined;
    },
    async createIssue(input) {
      const number = ++nextId;
      issues.set(number, { title: input.title, body: input.body, author: botLogin });
      return { number, title: input.title, body: input.body, url: url(`issues/${number}`) };
    },
    async listOpenPullRequests() {
      return pulls.map((p) => ({ ...p }));
    },
    async createRef(ref, at) {
      failing('createRef');
      if (repoModel.origin.has(ref)) return false;
      repoModel.origin.set(ref, at);
      return true;
    },
  };
  return thread;
}

// ------------------------------------------------------------------------------------------- models

/** What one scripted turn stages, and what happens in the world while the model "works". */
export interface Turn {
  fields: Record<string, unknown>;
  /** Runs before the answer is returned: a file written, a /cancel posted, time passing. */
  meanwhile?: () => void | Promise<void>;
  usage?: TokenUsage;
  /** Thrown instead of answering: a provider failure. */
  error?: Error;
}

export interface FakeModel extends ChatClient {
  /** Every request, with the fields its `Stage:` line asked for. */
  readonly asked: string[][];
  /** The last user message of every request: what the agent was told to do. */
  readonly prompts: string[];
}

const defaultUsage: TokenUsage = { promptTokens: 1000, cachedTokens: 0, completionTokens: 100 };

/** The last user message of a request, as text. */
function lastUserText(messages: readonly ChatCompletionMessageParam[]): string {
  const message = messages.findLast((m) => m.role === 'user');
  if (!message) return '';
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => ('text' in part ? part.text : '')).join('');
}

/** The fields the `Stage:` line ending the last user message asks for, e.g. ['result', 'outcome']. */
export function stagedFields(messages: readonly ChatCompletionMessageParam[]): string[] {
  const line =
    lastUserText(messages)
      .split('\n')
      .findLast((l) => l.startsWith('Stage:')) ?? '';
  return [...line.matchAll(/field=(\w+)/g)].map((m) => m[1] ?? '');
}

/**
 * A model that answers each summons with one update_context call. `script` decides per request what
 * to stage from what is asked; a planner that is asked for a summary always gets one.
 */
export function fakeModel(role: Role, model: string, script: (asked: string[], index: number) => Turn): FakeModel {
  const asked: string[][] = [];
  const prompts: string[] = [];
  let calls = 0;
  return {
    role,
    model,
    asked,
    prompts,
    async complete(request: ChatRequest): Promise<ChatTurn> {
      const fields = stagedFields(request.messages);
      asked.push(fields);
      prompts.push(lastUserText(request.messages));
      const turn = script(fields, asked.length - 1);
      await turn.meanwhile?.();
      if (turn.error) throw turn.error;
      const call: ChatCompletionMessageFunctionToolCall = {
        id: `${role}-${++calls}`,
        type: 'function',
        function: { name: 'update_context', arguments: JSON.stringify(turn.fields) },
      };
      return {
        message: { role: 'assistant', content: null, refusal: null, tool_calls: [call] },
        usage: turn.usage ?? defaultUsage,
        finishReason: 'tool_calls',
      };
    },
  };
}

/** A planner that plans, revises the directive when asked, and writes the summary. */
export function fakePlanner(model = 'gpt-4.1'): FakeModel {
  return fakeModel('planner', model, (asked) => {
    if (asked.includes('summary')) return { fields: { summary: 'The run is over; see the history.' } };
    if (asked.includes('plan'))
      return {
        fields: {
          plan: { steps: [{ title: 'Add CHANGELOG.md', files: ['CHANGELOG.md'] }] },
          directive: 'Create CHANGELOG.md.',
        },
      };
    return { fields: { directive: 'Carry on with the next step.' } };
  });
}

/** An executor that plays its turns in order; past the end it reports done. */
export function fakeExecutor(turns: Turn[], model = 'gpt-4.1-mini'): FakeModel {
  return fakeModel(
    'executor',
    model,
    (_asked, index) => turns[index] ?? { fields: { result: 'Nothing left to do.', outcome: 'done' } },
  );
}

// -------------------------------------------------------------------------------------- the context

/** Settings as the action reads them from its inputs, with the given inputs set. */
export function testSettings(inputs: Record<string, string> = {}): Settings {
  const saved = { ...process.env };
  try {
    for (const key of Object.keys(process.env)) if (key.startsWith('INPUT_')) delete process.env[key];
    for (const [name, value] of Object.entries({
      'api-key': 'sk-test-key',
      'github-token': 'ghs_testToken',
      ...inputs,
    })) {
      process.env[`INPUT_${name.toUpperCase()}`] = value;
    }
    return readSettings({
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: '/nonexistent/event.json',
      GITHUB_REPOSITORY: `${owner}/${repo}`,
      GITHUB_WORKSPACE: '/nonexistent/workspace',
      GITHUB_API_URL: 'https://api.github.com',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_RUN_ID: '4242',
    });
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
}

/** A sandbox where nothing may run: the engine's tests never start a process. */
const noProcesses: Sandbox = {
  account: undefined,
  workTree: '/nonexistent/workspace',
  ready: async () => {
    throw new Error('the fake sandbox runs no process');
  },
  refusal: async () => undefined,
  plan: () => {
    throw new Error('the fake sandbox runs no process');
  },
  lend: async (work) => work(),
  sweep: async () => undefined,
  keep: () => () => undefined,
  refusedSince: async () => [],
  limitNetwork: () => undefined,
  close: async () => undefined,
};

/** The lock the action takes per issue, in memory: held issues answer with the holder. */
export function fakeLocks(): ExecutionLocks & { held: Set<number> } {
  const held = new Set<number>();
  return {
    held,
    async acquire(issue) {
      if (held.has(issue))
        return {
          acquired: false,
          holder: { runId: '99', runUrl: `https://github.com/${owner}/${repo}/actions/runs/99`, status: 'in_progress' },
        };
      held.add(issue);
      return { acquired: true, release: async () => void held.delete(issue) };
    },
  };
}

export interface World {
  ctx: RunContext;
  thread: FakeThread;
  repo: FakeRepo;
  summaries: string[];
  locks: ReturnType<typeof fakeLocks>;
}

/** A context over fresh fakes; `parts` replaces any of its pieces. */
export function fakeWorld(
  parts: {
    settings?: Settings;
    planner?: ChatClient;
    executor?: ChatClient;
    repo?: FakeRepo;
    thread?: FakeThread;
  } = {},
): World {
  const repoModel = parts.repo ?? createFakeRepo();
  const thread = parts.thread ?? createFakeThread(repoModel);
  const summaries: string[] = [];
  const locks = fakeLocks();
  const ctx: RunContext = {
    settings: parts.settings ?? testSettings(),
    thread,
    git: repoModel.git,
    reader: repoModel.git,
    sandbox: noProcesses,
    trusted: { ref: 'main', sha: baseSha },
    planner: parts.planner ?? fakePlanner(),
    executor: parts.executor ?? fakeExecutor([]),
    recordKey: 'test-record-key',
    secrets: ['sk-test-key', 'ghs_testToken'],
    lock: locks,
    runUrl: `https://github.com/${owner}/${repo}/actions/runs/4242`,
    // The action's clock reads GitHub's: a run acts right after the comment it answers.
    now: () => thread.now(),
    writeSummary: async (markdown) => void summaries.push(markdown),
  };
  return { ctx, thread, repo: repoModel, summaries, locks };
}

/** The bot's identity on commits, as the host's git writes it. */
export const bot = botIdentity(botLogin);

/** A command comment by `author` on issue 7, as the engine takes it. */
export function commandOn(world: World, body: string, author = 'maintainer'): CommandSource {
  const text = world.thread.issues.get(7) ?? { title: '', body: '' };
  const comment = world.thread.commentAs(author, 7, body);
  return {
    thread: { number: 7, isPullRequest: false, title: text.title, body: text.body },
    commentId: comment.id,
    commentUrl: comment.url,
    author,
    body,
  };
}

/**
 * A plan the bot posted on issue 7 and `/approve` put into execution, as approveFlow hands it to
 * execute(): the record marked executing, its plan comment, the approval, the thread as read. `plan`
 * (default: the record fixture's) is what the approval allows the run to change and run.
 */
export async function approvedExecution(
  world: World,
  { plan, ...overrides }: Partial<PlanRecord> & { plan?: Plan } = {},
  now?: () => number,
): Promise<Execution> {
  const text = world.thread.issues.get(7) ?? { title: '', body: '' };
  const record = makeRecord({
    ...(plan ? { plan } : {}),
    overrides: {
      repository: `${owner}/${repo}`,
      base: { ref: 'main', sha: baseSha },
      issueHash: hashIssue(text.title, text.body),
      postedAt: new Date(0).toISOString(),
      ...overrides,
    },
  });
  const planComment = await world.thread.postComment(7, renderRecord(world.ctx, record));
  const source = commandOn(world, '/approve');
  const executing = {
    ...record,
    status: 'executing' as const,
    approvedBy: 'maintainer',
    branch: `plangate/7-${record.planId}`,
  };
  return {
    record: executing,
    planComment,
    source,
    comments: await world.thread.listComments(7),
    ...(now ? { now } : {}),
  };
}
