import * as core from '@actions/core';
import { readFileSync } from 'node:fs';
import { commandFromIssueComment, commandFromMaintenanceEvent, type Command } from './command.js';
import { createGitHubClient, type GitHubClient } from '../github/client.js';
import { createThread } from '../github/thread.js';
import { acquireLock, releaseLock } from '../github/lock.js';
import { explainGitHubError, statusOf } from '../github/errors.js';
import { createChatClient, type ChatClient, type ModelEndpoint } from '../models/chat-client.js';
import type { Role } from '../machine/fields.js';
import { createGit } from '../repo/git.js';
import { removePersistedCredentials } from '../repo/git-credentials.js';
import { recordKey } from '../record/record-key.js';
import { openWorkTree, type WorkTree } from '../repo/work-tree.js';
import { createSandbox, type Sandbox } from '../tools/sandbox.js';
import type { TrustedBase } from '../repo/trusted-config.js';
import type { FlowResult, RunContext } from '../run/run-context.js';
import { readInputs, type ActionInputs, type Settings } from '../config/settings.js';
import { trustedSettings } from './trusted-settings.js';
import { approveFlow } from '../commands/approve.js';
import { planFlow } from '../commands/plan.js';
import { reviseFlow } from '../commands/revise.js';
import { answerFlow } from '../commands/answer.js';
import { maintainFlow } from '../commands/maintain.js';
import { statusFlow } from '../commands/status.js';
import { cancelFlow } from '../commands/cancel.js';
import { helpFlow } from '../commands/help.js';
import { redact } from '../text/redact.js';
import type { CapabilityHub, HubOptions } from '../mcp/hub.js';
import { mcpSecretValues, type McpServerSpec } from '../config/mcp-servers.js';
import { eventIgnoreReason } from '../text/comment-command.js';
import { triageEvent } from './triage.js';

/**
 * The composition root: reads the inputs, decides the command, builds the clients, reads the
 * configuration from the default branch's commit and hands the command to its flow. The only place
 * that fails the step, for any thrown value.
 */
export async function run(): Promise<void> {
  let secrets: string[] = [];
  try {
    // The entry point's own first look, repeated here so an event is ignored by one rule whichever
    // way run() is reached, and before any setting is read: a comment that is no command is not
    // the place to report a misconfiguration.
    const triage = triageEvent();
    if (triage.kind === 'ignore') {
      core.info(`Nothing to do: ${triage.reason}.`);
      setOutputs({ outcome: 'ignored' });
      return;
    }
    const inputs = readInputs();
    secrets = inputs.ownSecrets.filter(Boolean);
    const { command, payload } = readCommand(inputs);
    if (command.kind === 'ignore') {
      core.info(`Nothing to do: ${command.reason}.`);
      setOutputs({ outcome: 'ignored' });
      return;
    }
    const octokit = createGitHubClient(inputs.githubToken, inputs.runner.apiUrl);
    const auth = { token: inputs.githubToken, serverUrl: inputs.runner.serverUrl };
    const git = createGit(inputs.runner.workspace, { auth });
    // Only now, for an event that carries a command: the configuration costs a fetch of the default branch.
    const lookUpDefaultBranch = () => createThread(octokit, repoRefOf(inputs), secrets, { botLogin: inputs.botLogin }).defaultBranch();
    const { settings, trusted } = await trustedSettings(inputs, payload, git, lookUpDefaultBranch);
    const signing = recordKey({
      recordSecret: settings.recordSecret,
      apiKey: settings.planner.apiKey,
      repository: settings.runner.repositoryId ? `id ${settings.runner.repositoryId}` : `${settings.runner.owner}/${settings.runner.repo}`,
    });
    secrets = [...secrets, ...mcpSecretValues(settings.mcpServers), signing].filter(Boolean);
    // Before anything of the sandbox starts: a token the checkout left in .git/config must be gone.
    await dropPersistedCredentials(git);
    const workTree = await openWorkTree(inputs.runner.workspace, { auth });
    const sandbox = createSandbox({ isolation: settings.commandIsolation, account: settings.commandUser, workTree: workTree.path });
    const ctx = createContext(settings, secrets, { octokit, workTree, sandbox, trusted, recordKey: signing });
    try {
      await runCommand(ctx, command);
    } finally {
      // The MCP servers and the sandbox live as long as the run: stopped however it ends, so no
      // process outlives the step; the servers first, since the sandbox's close ends what remains.
      await ctx.mcp?.close();
      await sandbox.close();
      await workTree.close();
    }
  } catch (error) {
    core.setOutput('outcome', 'failed');
    core.setFailed(redact(messageOf(error), secrets));
  }
}

async function runCommand(ctx: RunContext, command: Exclude<Command, { kind: 'ignore' }>): Promise<void> {
  if (command.kind === 'maintain') {
    const result = await maintainFlow(ctx, command.trigger);
    setOutputs(result);
    if (result.outcome === 'failed') core.setFailed('plangate: one or more tasks failed; the job summary says which and why.');
    return;
  }
  let result: FlowResult;
  try {
    result = await dispatch(ctx, command);
  } catch (error) {
    await reportFailure(ctx, command, error);
    throw error;
  }
  setOutputs(result);
  if (result.outcome === 'failed') core.setFailed(`plangate: the ${command.kind} run failed; see the comment on #${command.thread.number}.`);
}

function dispatch(ctx: RunContext, command: Exclude<Command, { kind: 'ignore' | 'maintain' }>): Promise<FlowResult> {
  switch (command.kind) {
    case 'plan':
      return planFlow(ctx, command);
    case 'approve':
      return approveFlow(ctx, command);
    case 'revise':
      return reviseFlow(ctx, command);
    case 'answer':
      return answerFlow(ctx, command);
    case 'status':
      return statusFlow(ctx, command);
    case 'cancel':
      return cancelFlow(ctx, command);
    case 'help':
      return helpFlow(ctx, command);
  }
}

/** The command the event carries, and the payload it came in (absent for events plangate does not read). */
function readCommand(inputs: ActionInputs): { command: Command; payload?: unknown } {
  const { eventName, eventPath } = inputs.runner;
  const notCarried = eventIgnoreReason(eventName);
  if (notCarried !== undefined) return { command: { kind: 'ignore', reason: notCarried } };
  let payload: unknown;
  try {
    payload = JSON.parse(readFileSync(eventPath, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the event payload at ${eventPath}: ${messageOf(error)}`, { cause: error });
  }
  const command =
    eventName === 'issue_comment'
      ? commandFromIssueComment(payload, inputs.botLogin, inputs.allowedBots)
      : commandFromMaintenanceEvent(eventName, payload);
  return { command, payload };
}

const repoRefOf = ({ runner }: ActionInputs) => ({ owner: runner.owner, repo: runner.repo });

/** Removes credentials actions/checkout persisted; what it cannot judge is named in the log. */
async function dropPersistedCredentials(git: ReturnType<typeof createGit>): Promise<void> {
  const credentials = await removePersistedCredentials(git);
  if (credentials.removed.length) core.info(`Removed persisted git credentials (${credentials.removed.join(', ')}); plangate passes its token to its own fetch and push only.`);
  if (credentials.kept.length) core.warning(`Git configuration plangate left in place may hold credentials the executor's commands can read: ${credentials.kept.join(', ')}.`);
}

interface RunParts {
  octokit: GitHubClient;
  recordKey: string;
  workTree: WorkTree;
  sandbox: Sandbox;
  trusted: TrustedBase;
}

function createContext(settings: Settings, secrets: string[], parts: RunParts): RunContext {
  const { runner } = settings;
  const { octokit, workTree, sandbox, trusted, recordKey } = parts;
  const { git } = workTree;
  const repoRef = repoRefOf(settings);
  const runUrl = runner.runId ? `${runner.serverUrl}/${runner.owner}/${runner.repo}/actions/runs/${runner.runId}` : '';
  return {
    settings,
    secrets,
    recordKey,
    thread: createThread(octokit, repoRef, secrets, { botLogin: settings.botLogin }),
    lock: {
      async acquire(issue) {
        const attempt = await acquireLock({ git, octokit, repoRef, issue, runId: runner.runId || `local-${process.pid}`, runUrl });
        if (!attempt.acquired) return attempt;
        if (attempt.lock.tookOverFrom) core.info(`Took over the lock of #${issue} from run ${attempt.lock.tookOverFrom.runId}, which is no longer running.`);
        return {
          acquired: true,
          release: async () => {
            await releaseLock({ git, lock: attempt.lock }).catch((error: unknown) => core.warning(`Could not release the lock of #${issue}: ${messageOf(error)}`));
          },
        };
      },
    },
    git,
    reader: workTree.reader,
    sandbox,
    trusted,
    // Nothing starts until a team first needs the servers: refusals and status replies start none.
    mcp: capabilityHub(settings.mcpServers, { sandbox, secrets }),
    planner: lazyClient('planner', settings.planner),
    executor: lazyClient('executor', settings.executor),
    runUrl,
    writeSummary: async (markdown) => {
      if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(redact(markdown, secrets), true).write();
    },
  };
}

/**
 * The run's MCP servers. The MCP SDK (with its JSON Schema validator) is a large part of the bundle
 * and most runs configure no server, so the hub's module is imported only when one is configured;
 * with none there is no hub, which the flows and the team treat as a hub without servers.
 */
function capabilityHub(specs: readonly McpServerSpec[], options: HubOptions): CapabilityHub | undefined {
  if (specs.length === 0) return undefined;
  const hub = import('../mcp/hub.js').then(({ createCapabilityHub }) => createCapabilityHub(specs, options));
  return { start: () => hub.then((h) => h.start()), close: () => hub.then((h) => h.close()) };
}

/**
 * Creates the model client on first use: a refusal (say, for a missing key) must be able to answer
 * before any client exists, and a run that never calls a model builds none.
 */
function lazyClient(role: Role, endpoint: ModelEndpoint): ChatClient {
  let client: ChatClient | undefined;
  return {
    role,
    model: endpoint.model,
    complete: (request) => (client ??= createChatClient(role, endpoint)).complete(request),
  };
}

/** Tells the thread that a command failed, so a failure is never silent; best effort. */
async function reportFailure(ctx: RunContext, command: Exclude<Command, { kind: 'ignore' | 'maintain' }>, error: unknown): Promise<void> {
  const link = ctx.runUrl ? ` See the [job log](${ctx.runUrl}).` : '';
  try {
    await ctx.thread.postComment(command.thread.number, `@${command.author} \`/${command.kind}\` failed: ${messageOf(error).replace(/\.$/, '')}.${link}`);
    await ctx.thread.react(command.commentId, '-1');
  } catch (reportError) {
    core.warning(`Could not report the failure on the thread: ${messageOf(reportError)}`);
  }
}

function setOutputs(result: FlowResult): void {
  core.setOutput('outcome', result.outcome);
  if (result.planId) core.setOutput('plan-id', result.planId);
  if (result.branch) core.setOutput('branch', result.branch);
  if (result.prNumber !== undefined) core.setOutput('pr-number', String(result.prNumber));
  if (result.prUrl) core.setOutput('pr-url', result.prUrl);
  if (result.usage) {
    core.setOutput('cost-usd', result.usage.costUsd === null ? '' : result.usage.costUsd.toFixed(6));
    core.setOutput('prompt-tokens', String(result.usage.promptTokens));
    core.setOutput('cached-tokens', String(result.usage.cachedTokens));
    core.setOutput('completion-tokens', String(result.usage.completionTokens));
  }
}

/** What went wrong, in words a user can act on: GitHub errors name the setting or permission to fix. */
function messageOf(error: unknown): string {
  if (statusOf(error) !== undefined) return explainGitHubError(error).message;
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
