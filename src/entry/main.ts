import * as core from '@actions/core';
import { createGitHubClient, type GitHubClient } from '../github/client.js';
import { createThread } from '../github/thread.js';
import { failureMessage } from '../github/errors.js';
import {
  createChatClient,
  type ChatClient,
  type ChatClientOptions,
  type ModelEndpoint,
} from '../models/chat-client.js';
import type { Role } from '../machine/fields.js';
import { createGit } from '../repo/git.js';
import { findPrograms, type Programs } from '../repo/programs.js';
import { removePersistedCredentials } from '../repo/git-credentials.js';
import { recordKey } from '../record/record-key.js';
import { openWorkTree, type WorkTree } from '../repo/work-tree.js';
import { createSandbox, type Sandbox } from '../sandbox/sandbox.js';
import type { TrustedBase } from '../repo/trusted-config.js';
import { createPushGate, type PushGate } from '../repo/push-gate.js';
import { maskedText } from '../repo/credential-mask.js';
import type { RunContext } from '../run/run-context.js';
import { readInputs, type ActionInputs, type Settings } from '../config/settings.js';
import { trustedSettings } from './trusted-settings.js';
import { carryOut, setOutputs } from './dispatch.js';
import { readCommand } from './read-command.js';
import { redact } from '../text/redact.js';
import type { CapabilityHub, HubOptions } from '../mcp/hub.js';
import { mcpSecretValues, type McpServerSpec } from '../config/mcp-servers.js';
import { triageEvent, type Triage } from './triage.js';
import { readGateInputs, type GateInputs } from '../config/gate-inputs.js';
import { runUrlOf } from '../config/runner-environment.js';
import { escapeProse } from '../text/markdown.js';
import { reportSetupFailure } from './setup-failure.js';
import { stopNetworkGraceMs, stopOnTermination } from './termination.js';
import { settlesWithin } from '../text/settles-within.js';
import { executionLocks, type HeldExecutionLocks } from './execution-locks.js';
import { stopHooks, type StopHooks } from './stop-hooks.js';
import { stopGate, type StopGate } from './stop-gate.js';

/**
 * The composition root: reads what it takes to answer a command, decides the command, then reads the
 * rest of the inputs and the configuration from the default branch's commit, builds the clients and
 * hands the command to its flow. A mistake in the settings is found only after the command is known,
 * so it is answered on the command's thread. The only place that fails the step, for any thrown value.
 */
export async function run(triaged?: Triage): Promise<void> {
  // Every secret collected so far: whatever fails, its message is redacted with these.
  const secrets: string[] = [];
  // Every program the host starts is found on the PATH it started with, absolute entries only (programs.ts).
  const programs = findPrograms(process.env.PATH);
  try {
    // The entry point's first look (taken here when run() is reached without one), so an event is
    // ignored by one rule whichever way run() is reached, and before any setting is read: a comment
    // that is no command is not the place to report a misconfiguration.
    const triage = triaged ?? triageEvent();
    if (triage.kind === 'ignore') {
      core.info(`Nothing to do: ${triage.reason}.`);
      setOutputs({ outcome: 'ignored' });
      return;
    }
    const gate = readGateInputs();
    secrets.push(...gate.secrets.filter(Boolean));
    const { command, payload } = readCommand(gate, triage.kind === 'undecided' ? triage.event : undefined);
    if (command.kind === 'ignore') {
      core.info(`Nothing to do: ${command.reason}.`);
      setOutputs({ outcome: 'ignored' });
      return;
    }
    // Closed by a stop signal: from then on only the stop's own work writes to GitHub or pushes.
    const writes = stopGate();
    const octokit = createGitHubClient(gate.githubToken, gate.runner.apiUrl, { mayWrite: writes.allows });
    let parts: RunParts;
    try {
      parts = await prepare(gate, payload, octokit, secrets, { programs, writes });
    } catch (error) {
      if (command.kind !== 'maintain') await reportSetupFailure(gate, octokit, command, error, secrets);
      throw error;
    }
    const stops = stopHooks();
    const ctx = createContext(parts, secrets, stops, writes);
    // The MCP servers and the sandbox live as long as the run: stopped however it ends (a stop
    // signal included), so no process outlives the step; the servers first, since the sandbox's
    // close ends what remains.
    const stopProcesses = async () => {
      await ctx.mcp?.close();
      await parts.sandbox.close();
    };
    const release = stopOnTermination(
      async (signal) => {
        // From here on the flow writes nothing: only what the stop says and undoes goes out.
        writes.close();
        await writes.asStop(async () => {
          // Said on the thread while the processes stop.
          const told = stops.run(signal);
          await stopProcesses();
          // Within the runner's grace before it kills the step; the work tree goes either way.
          await settlesWithin(Promise.allSettled([ctx.lock.releaseHeld(), told]), stopNetworkGraceMs);
        });
        parts.workTree.discard();
      },
      { fail: (message) => core.setFailed(message) },
    );
    try {
      const failure = await carryOut(ctx, command);
      if (failure) core.setFailed(failure);
    } finally {
      release();
      await stopProcesses();
      await parts.workTree.close();
    }
  } catch (error) {
    await failStep(redact(failureMessage(error), secrets));
  }
}

/** Fails the step with `message`, which the job summary says too (a scheduled run has no thread to say it on). */
async function failStep(message: string): Promise<void> {
  core.setOutput('outcome', 'failed');
  core.setFailed(message);
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  await core.summary
    .addRaw(`### plangate could not run\n\n${escapeProse(message)}\n`, true)
    .write()
    .catch((error: unknown) => core.warning(`Could not write the job summary: ${failureMessage(error)}`));
}

/**
 * Everything the run needs that can fail for a reason the user must fix: the inputs, the config file
 * at the default branch's commit, the work tree and the sandbox. Adds the secrets it learns of
 * (MCP server variables, the record key) to `secrets` as soon as it knows them.
 */
async function prepare(
  gate: GateInputs,
  payload: unknown,
  octokit: GitHubClient,
  secrets: string[],
  { programs, writes }: { programs: Programs; writes: StopGate },
): Promise<RunParts> {
  const inputs = readInputs();
  const auth = { token: inputs.githubToken, serverUrl: inputs.runner.serverUrl };
  // Every push of the job, whichever git makes it, goes through the one gate; the run binds its approval to it.
  const pushGate = createPushGate();
  const git = createGit(inputs.runner.workspace, { auth, programs, beforePush: pushGate.check });
  // Only now, for an event that carries a command: the configuration costs a fetch of the default branch.
  const lookUpDefaultBranch = () =>
    createThread(octokit, repoRefOf(inputs), secrets, { botLogin: gate.botLogin }).defaultBranch();
  const { settings, trusted } = await trustedSettings(inputs, payload, git, lookUpDefaultBranch);
  const signing = recordKey({
    recordSecret: settings.recordSecret,
    apiKey: settings.planner.apiKey,
    repository: settings.runner.repositoryId
      ? `id ${settings.runner.repositoryId}`
      : `${settings.runner.owner}/${settings.runner.repo}`,
  });
  secrets.push(...[...mcpSecretValues(settings.mcpServers), signing].filter(Boolean));
  // Before anything of the sandbox starts: a token the checkout left in .git/config must be gone.
  await dropPersistedCredentials(git);
  const workTree = await openWorkTree(inputs.runner.workspace, {
    auth,
    programs,
    mayPush: writes.allows,
    beforePush: pushGate.check,
  });
  const sandbox = createSandbox({
    isolation: settings.commandIsolation,
    account: settings.commandUser,
    workTree: workTree.path,
    enclosure: workTree.enclosure,
    // No toolchain's folder is opened to the account where that would lead it to these.
    keepClosed: [inputs.runner.workspace, inputs.runner.temp].filter((f) => f !== ''),
    deps: { programs },
    network: { mode: settings.network, destinations: settings.allowedDestinations },
  });
  return { settings, octokit, workTree, sandbox, trusted, recordKey: signing, pushGate };
}

const repoRefOf = ({ runner }: Pick<ActionInputs, 'runner'>) => ({ owner: runner.owner, repo: runner.repo });

/** Removes credentials actions/checkout persisted; what it cannot judge is named in the log. */
async function dropPersistedCredentials(git: ReturnType<typeof createGit>): Promise<void> {
  const credentials = await removePersistedCredentials(git);
  if (credentials.removed.length)
    core.info(
      `Removed persisted git credentials (${credentials.removed.join(', ')}); plangate passes its token to its own fetch and push only.`,
    );
  if (credentials.kept.length)
    core.warning(
      `Git configuration plangate left in place may hold credentials the executor's commands can read: ${credentials.kept.join(', ')}.`,
    );
}

interface RunParts {
  settings: Settings;
  octokit: GitHubClient;
  recordKey: string;
  workTree: WorkTree;
  sandbox: Sandbox;
  trusted: TrustedBase;
  pushGate: PushGate;
}

function createContext(
  parts: RunParts,
  secrets: string[],
  stops: StopHooks,
  writes: StopGate,
): RunContext & { lock: HeldExecutionLocks } {
  const { settings, octokit, workTree, sandbox, trusted, recordKey, pushGate } = parts;
  const { runner } = settings;
  const { git } = workTree;
  const repoRef = repoRefOf(settings);
  const runUrl = runUrlOf(runner);
  const runId = runner.runId || `local-${process.pid}`;
  return {
    settings,
    secrets,
    recordKey,
    thread: createThread(octokit, repoRef, secrets, { botLogin: settings.botLogin }),
    lock: executionLocks({ git, octokit, repoRef, runId, runUrl }),
    git,
    reader: workTree.reader,
    sandbox,
    forkTree: workTree.fork,
    pushGate,
    trusted,
    // Nothing starts until a team first needs the servers: refusals and status replies start none.
    mcp: capabilityHub(settings.mcpServers, { sandbox, secrets }),
    planner: lazyClient('planner', settings.planner, modelOptions(settings)),
    executor: lazyClient('executor', settings.executor, modelOptions(settings)),
    runUrl,
    now: () => Date.now(),
    writeSummary: async (markdown) => {
      if (process.env.GITHUB_STEP_SUMMARY)
        await core.summary.addRaw(await maskedText(redact(markdown, secrets)), true).write();
    },
    // A flow that registers after the signal is told at once: what it says then is the stop's too.
    onStop: (hook) => stops.register((signal) => writes.asStop(async () => hook(signal))),
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
function lazyClient(role: Role, endpoint: ModelEndpoint, options: ChatClientOptions): ChatClient {
  let client: ChatClient | undefined;
  return {
    role,
    model: endpoint.model,
    complete: (request) => (client ??= createChatClient(role, endpoint, options)).complete(request),
  };
}

/** `model-retries` and `model-timeout` as the chat client takes them. */
const modelOptions = (settings: Settings): ChatClientOptions => ({
  maxRetries: settings.modelRetries,
  timeoutMs: settings.modelTimeoutSeconds * 1000,
});
