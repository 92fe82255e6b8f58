import type { Plan, Role, StagedFields, StepReport } from '../machine/fields.js';
import { oneStepMachine, oneStepSnapshot } from '../machine/one-step.js';
import type { ChatClient } from '../models/chat-client.js';
import type { TokenUsage } from '../models/usage.js';
import { noCapabilities, type CapabilityHub } from '../mcp/capability-hub.js';
import { createCapabilityTools } from '../mcp/capability-tools.js';
import { commandEnvironment } from '../tools/command-env.js';
import { createReadTools } from '../tools/read-tools.js';
import { createRunCommandTool } from '../tools/run-command.js';
import type { RefusedDestination } from '../sandbox/sandbox.js';
import { createToolbox, type Toolbox } from '../tools/toolbox.js';
import { createUpdateContextTool } from '../tools/update-context.js';
import { createWriteTools } from '../tools/write-tools.js';
import type { ApprovedScope } from '../scope/approved-scope.js';
import { formatDestination, type Destination } from '../scope/network-destinations.js';
import type { NetworkAllowance } from '../tools/refused-text.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { Git } from '../repo/git.js';
import type { Notices } from './notices.js';
import type { WorkshopFacts } from './context-text.js';
import { executorMessage, executorSystemPrompt, stepMessage } from './executor.js';
import { plannerMessage, plannerSystemPrompt } from './planner.js';
import type { Budget } from './budget.js';
import { RunState } from './run-state.js';
import { Session } from './session.js';
import { ExecutorSessions } from './executor-window.js';
import { redact } from '../text/redact.js';
import { summon } from './summon.js';
import { workspaceRulesText } from './workspace-rules.js';

/**
 * Planner and executor for one run: separate clients, separate tool sets, separate sessions. The
 * planner's toolbox holds no write or command tool at all, so it cannot act however it is prompted.
 */
export interface Team {
  /** Summons the agent the machine's current state asks for; the budget reaches every model request. */
  summonCurrent(options?: SummonOptions): Promise<void>;
  /**
   * Runs one plan step of a batch in an executor session of its own (a fresh session with the
   * executor's frozen prefix, so the provider's cache serves every step after the first), in the
   * step's own work tree, held to the step's scope. Returns what it staged, or undefined when the
   * session stopped before staging an outcome (the job is being stopped, the approved budget is spent).
   */
  summonStep(step: StepSummons, options?: SummonOptions): Promise<StepReport | undefined>;
}

/** One step of a batch, where it works and what it is told (run/step-batch.ts). */
export interface StepSummons {
  /** The plan step, numbered from 1. */
  step: number;
  /** The steps of the batch, this one included, in plan order. */
  together: readonly number[];
  directive: string;
  /** The sandbox's view on the step's work tree; its work tree is the session's workspace. */
  sandbox: Sandbox;
  /** git for the read tools, bound to the step's work tree. */
  reader: Git;
  /** The step's scope: the run's, with the paths of this step alone. Absent: none. */
  scope?: ApprovedScope;
  /** The host's check after every command of what the step's commit would keep out. */
  afterCommand?: () => Promise<string | undefined>;
  /** Told every command the step ran. */
  onCommand?: (command: string, refused: readonly RefusedDestination[]) => void;
  /** What the host says besides the directive, e.g. why the step runs again. */
  note?: string;
}

export interface SummonOptions {
  budget?: Budget;
  /** The host stopped the run: the turn asks the model nothing more and runs no more tools. */
  halted?: () => boolean;
}

export interface TeamOptions {
  run: RunState;
  planner: ChatClient;
  executor: ChatClient;
  allowedCommands: string[];
  protectedPaths: string[];
  commandTimeoutMs: number;
  /** Idle executor exchanges in a row before it is nudged; twice as many stop it (see stall-guard). */
  stallLimit: number;
  /** Where and as whom commands run; its work tree is the agents' workspace. */
  sandbox: Sandbox;
  /** git for the read tools, bound to the work tree; default: git discovered in the workspace. */
  reader?: Git;
  /** What the host tells the executor in its next tool result (e.g. changes kept out of a commit). */
  notices?: Notices;
  /** The host's check after every command of what it changed; its words end the command's result. */
  afterCommand?: () => Promise<string | undefined>;
  /** Extra environment variable names commands receive. */
  commandEnv?: string[];
  /** Largest file write_file and edit_file may produce. */
  maxWriteBytes?: number;
  /** The approved scope the executor's write tools and commands are held to; absent: none. */
  scope?: ApprovedScope;
  /** Told every command the executor ran. */
  onCommand?: (command: string, refused: readonly RefusedDestination[]) => void;
  /** Secrets the host knows; tool output is scrubbed of them (and of token shapes) before a model sees it. */
  secrets?: readonly string[];
  /**
   * The repository's instructions for agents (readRepositoryInstructions at the base commit); empty or
   * absent when it has none. Both roles get them in every session, right behind the frozen prefix.
   */
  instructions?: string;
  /**
   * The run's MCP servers, shared by both roles. Absent: none. The capability tools are in both
   * toolboxes either way, so the frozen prefix never depends on which servers are configured.
   */
  capabilities?: CapabilityHub;
  /**
   * What `allowed-domains` allows where the network is sealed: the planner is told it (a step names
   * what it needs of it), and a refused destination's words say whether a revision can ask for it.
   * Absent: the network is open.
   */
  allowedNetwork?: readonly Destination[];
  onUsage(role: Role, model: string, tokens: TokenUsage): void;
}

function stager(run: RunState, role: Role) {
  return (fields: StagedFields): string => {
    const before = run.snapshot.state;
    const after = run.dispatch({ type: 'stage', agent: role, fields }).state;
    const names = Object.keys(fields).join(', ');
    if (after !== before) return `Staged ${names}. The ${before} stage is complete; stop here.`;
    const pending = run.pending;
    return pending.length ? `Staged ${names}. Still required: ${pending.join(', ')}.` : `Staged ${names}.`;
  };
}

/** Where an executor session works: the run or step it stages into, its tree, its scope, what the host checks. */
type Workplace = Pick<
  TeamOptions,
  'run' | 'sandbox' | 'reader' | 'scope' | 'notices' | 'afterCommand' | 'onCommand'
> & {
  /** Whose scope a refusal names; default: the run's. */
  scopeName?: string;
};

/** The executor's tools: reading, writing and commands held to the protected paths and the approved scope. */
function executorToolbox(
  options: TeamOptions,
  where: Workplace,
  capabilities: CapabilityHub,
  toolboxOptions: { redact: (text: string) => string },
): Toolbox {
  const { run, sandbox } = where;
  const workspace = sandbox.workTree;
  const scope = where.scope ? { scope: where.scope } : {};
  const network = networkAllowance(options);
  return withNotices(
    where.notices,
    createToolbox(
      [
        ...createReadTools(workspace, where.reader),
        ...createWriteTools(workspace, {
          protectedPaths: options.protectedPaths,
          maxWriteBytes: options.maxWriteBytes,
          ...scope,
          ...(where.scopeName ? { scopeName: where.scopeName } : {}),
        }),
        createRunCommandTool({
          allowedCommands: options.allowedCommands,
          timeoutMs: options.commandTimeoutMs,
          env: commandEnvironment(process.env, options.commandEnv),
          sandbox,
          ...(where.afterCommand ? { afterCommand: where.afterCommand } : {}),
          ...(where.onCommand ? { onRun: where.onCommand } : {}),
          ...(network ? { network } : {}),
          ...scope,
        }),
        ...createCapabilityTools('executor', capabilities, network),
        createUpdateContextTool('executor', stager(run, 'executor')),
      ],
      toolboxOptions,
    ),
  );
}

/** What the executor may reach: the workflow's ceiling, and what the approval took of it (all of it without a scope). */
function networkAllowance(options: TeamOptions): NetworkAllowance | undefined {
  const allowed = options.allowedNetwork;
  if (!allowed) return undefined;
  return { allowed, approved: options.scope?.network ?? allowed.map(formatDestination) };
}

export function createTeam(options: TeamOptions): Team {
  const { run, sandbox } = options;
  const workspace = sandbox.workTree;
  const capabilities = options.capabilities ?? noCapabilities;
  const scrub = (text: string) => redact(text, options.secrets ?? []);
  // Results are masked before they are cut to size, so no cut can split a secret past its mask.
  const toolboxOptions = { redact: scrub };
  const plannerTools: Toolbox = createToolbox(
    [
      ...createReadTools(workspace, options.reader),
      ...createCapabilityTools('planner', capabilities),
      createUpdateContextTool('planner', stager(run, 'planner')),
    ],
    toolboxOptions,
  );
  const executorTools = executorToolbox(options, options, capabilities, toolboxOptions);
  const facts: WorkshopFacts = {
    executorTools: executorTools.specs.map((spec) => spec.function.name),
    ...(options.scope ? { scope: options.scope } : {}),
  };
  // Per-repository rules and instructions travel in user messages, never in the frozen prefix. They
  // open every session's first message, before anything per-run, so that leading text is the same
  // bytes in every session of the repository and the provider caches it along with the prefix.
  const rules = workspaceRulesText({
    allowedCommands: options.allowedCommands,
    protectedPaths: options.protectedPaths,
    commandTimeoutMs: options.commandTimeoutMs,
    ...(options.allowedNetwork ? { allowedNetwork: options.allowedNetwork } : {}),
  });
  // Scrubbed like a file read_file returns: committed text can hold a token shape too.
  const standing = options.instructions ? `${rules}\n\n${scrub(options.instructions)}` : rules;
  const executorSessions = new ExecutorSessions(
    () => new Session('executor', executorSystemPrompt, executorTools.specs),
  );
  // The plan as the run's execution began with it. Every later planner message shows it in the same
  // place, ahead of the history, so a replan that revises the plan does not change the bytes that
  // consecutive planner sessions share; the revision goes after the history.
  let began = run.snapshot.context.plan;

  return {
    async summonCurrent(limits: SummonOptions = {}) {
      const role = run.agent;
      began ??= run.snapshot.context.plan;
      if (role === 'planner') {
        // A fresh planner session per planning state, with the same prefix as every other one.
        await summon({
          session: new Session('planner', plannerSystemPrompt, plannerTools.specs),
          client: options.planner,
          toolbox: plannerTools,
          run,
          // Every planner session is fresh, so each one is told the rules (for the directives' checks).
          message: `${standing}\n\n${plannerMessage(run.snapshot, facts, began)}`,
          onUsage: (tokens) => options.onUsage('planner', options.planner.model, tokens),
          redact: scrub,
          ...limits,
        });
      } else if (role === 'executor') {
        // The session carries over between cycles while it has room; then this cycle opens a compacted
        // one: the same frozen prefix and opening, the earlier cycles as their recorded results.
        const { session, fresh, shown } = executorSessions.next(run.snapshot.context.plan);
        const handoff = executorMessage(run.snapshot, facts, fresh, { began, shown });
        await summon({
          session,
          client: options.executor,
          toolbox: executorTools,
          run,
          // An opening tells the rules; a continuing session keeps them, and repeating them would only cost tokens.
          message: fresh ? `${standing}\n\n${handoff}` : handoff,
          onUsage: (tokens) => options.onUsage('executor', options.executor.model, tokens),
          redact: scrub,
          stallLimit: options.stallLimit,
          ...limits,
        });
      }
    },
    summonStep(step, limits: SummonOptions = {}) {
      began ??= run.snapshot.context.plan;
      return summonStep(options, { capabilities, toolboxOptions, facts, standing, began }, step, limits);
    },
  };
}

/** What every session of a run shares: the tools' wiring, the workshop facts, the standing rules, the plan as begun. */
interface SessionBasis {
  capabilities: CapabilityHub;
  toolboxOptions: { redact: (text: string) => string };
  facts: WorkshopFacts;
  standing: string;
  began: Plan | undefined;
}

/** One step of a batch in a session of its own (Team.summonStep). */
async function summonStep(
  options: TeamOptions,
  basis: SessionBasis,
  step: StepSummons,
  limits: SummonOptions,
): Promise<StepReport | undefined> {
  const { run } = options;
  const own = new RunState(oneStepMachine, oneStepSnapshot(run.snapshot.context, step.directive, run.snapshot.policy));
  const where: Workplace = {
    run: own,
    sandbox: step.sandbox,
    reader: step.reader,
    ...(step.scope ? { scope: step.scope } : {}),
    ...(step.afterCommand ? { afterCommand: step.afterCommand } : {}),
    ...(step.onCommand ? { onCommand: step.onCommand } : {}),
    scopeName: `step ${step.step}'s scope (the run's approved scope holds each step to the files it lists)`,
  };
  const tools = executorToolbox(options, where, basis.capabilities, basis.toolboxOptions);
  const facts: WorkshopFacts = { ...basis.facts, ...(step.scope ? { scope: step.scope } : {}) };
  await summon({
    // The same system prompt and tool specs as every executor session: one cached prefix for all.
    session: new Session('executor', executorSystemPrompt, tools.specs),
    client: options.executor,
    toolbox: tools,
    run: own,
    message: `${basis.standing}\n\n${stepMessage(own.snapshot, facts, basis.began, step)}`,
    onUsage: (tokens) => options.onUsage('executor', options.executor.model, tokens),
    redact: basis.toolboxOptions.redact,
    stallLimit: options.stallLimit,
    ...limits,
  });
  const { context, abortReason } = own.snapshot;
  if (context.outcome === undefined && abortReason === undefined) return undefined;
  return {
    step: step.step,
    ...(step.together.length > 1 ? { together: [...step.together] } : {}),
    directive: step.directive,
    result: context.result ?? `(no result reported; the step was stopped: ${abortReason ?? 'no reason given'})`,
    outcome: context.outcome ?? 'abort',
    ...(step.note ? { note: step.note } : {}),
  };
}

/** A toolbox whose every result ends with what the host posted since the last one. */
function withNotices(notices: Notices | undefined, toolbox: Toolbox): Toolbox {
  if (!notices) return toolbox;
  return {
    specs: toolbox.specs,
    async call(name, rawArguments) {
      const outcome = await toolbox.call(name, rawArguments);
      const said = notices.take();
      return said === undefined ? outcome : { ...outcome, output: `${outcome.output}\n\n${said}` };
    },
  };
}
