import type {
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import { expect } from 'vitest';
import type { WorkshopFacts } from '../../src/agents/context-text.js';
import { executorMessage, executorSystemPrompt } from '../../src/agents/executor.js';
import { plannerMessage, plannerSystemPrompt } from '../../src/agents/planner.js';
import { RunState } from '../../src/agents/run-state.js';
import { Session } from '../../src/agents/session.js';
import { summon, type Summons } from '../../src/agents/summon.js';
import { createTeam, type Team, type TeamOptions } from '../../src/agents/team.js';
import type { Plan, Role } from '../../src/machine/fields.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../../src/machine/planner-executor.js';
import type { ChatClient, ChatRequest, ChatTurn } from '../../src/models/chat-client.js';
import type { TokenUsage } from '../../src/models/usage.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import type { Tool } from '../../src/tools/tool.js';
import type { Toolbox } from '../../src/tools/toolbox.js';
import { createUpdateContextTool } from '../../src/tools/update-context.js';

/**
 * What the agent tests share: a scripted chat client that records its requests, a summoned agent's
 * run, toolbox and session, one call that summons it, and the check that a session stays well-formed.
 */

/** One scripted answer: text, tool calls, or a failure the client throws. */
export type StubReply = { say?: string; calls?: Array<[name: string, args: unknown]>; usage?: TokenUsage } | Error;

export interface StubClient extends ChatClient {
  requests: ChatRequest[];
}

export interface StubClientOptions {
  model?: string;
  /** The usage of a reply that names none. */
  usage?: TokenUsage;
  /** Runs as each request arrives: where a test moves its fake clock, as a slow model would. */
  onRequest?: () => void;
}

/** A ChatClient that plays a script and records every request as it was sent. */
export function stubClient(role: Role, replies: StubReply[], options: StubClientOptions = {}): StubClient {
  const { model = `${role}-model`, usage = { promptTokens: 100, cachedTokens: 60, completionTokens: 10 } } = options;
  const requests: ChatRequest[] = [];
  let callId = 0;
  return {
    role,
    model,
    requests,
    async complete(request) {
      requests.push(structuredClone(request));
      options.onRequest?.();
      const reply = replies[requests.length - 1];
      if (reply === undefined) throw new Error(`the ${role} script has no reply #${requests.length}`);
      if (reply instanceof Error) throw reply;
      const toolCalls: ChatCompletionMessageFunctionToolCall[] = (reply.calls ?? []).map(([name, args]) => ({
        id: `${role}-call-${++callId}`,
        type: 'function',
        function: { name, arguments: JSON.stringify(args) },
      }));
      const turn: ChatTurn = {
        message: {
          role: 'assistant',
          content: reply.say ?? null,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        usage: reply.usage ?? usage,
        finishReason: toolCalls.length ? 'tool_calls' : 'stop',
      };
      return turn;
    },
  };
}

/** An update_context call staging these fields. */
export const stage = (fields: Record<string, unknown>): [string, unknown] => ['update_context', fields];
/** A call that reads and changes nothing. */
export const look: [string, unknown] = ['list_files', {}];

/** An agent about to be summoned: the run it moves, its toolbox and a fresh session. */
export interface AgentTurn {
  run: RunState;
  toolbox: Toolbox;
  session: Session;
}

/** The update_context tool of `role`, dispatching into the run as the team wires it. */
export function stagingTool(run: RunState, role: Role): Tool {
  return createUpdateContextTool(role, (fields) => {
    run.dispatch({ type: 'stage', agent: role, fields });
    return `staged; pending: ${run.pending.join(', ') || 'nothing'}`;
  });
}

/** A fresh run whose planner staged `plan` with its first directive: the executor's turn is next. */
export function executingRun(plan: Plan): RunState {
  const run = new RunState(plannerExecutorMachine, initialSnapshot('Add a CHANGELOG', defaultPolicy));
  run.dispatch({ type: 'stage', agent: 'planner', fields: { plan, directive: 'Create CHANGELOG.md.' } });
  return run;
}

/** A fresh session for `role` with its system prompt and the toolbox's tools. */
export function openTurn(role: Role, run: RunState, toolbox: Toolbox): AgentTurn {
  const systemPrompt = role === 'planner' ? plannerSystemPrompt : executorSystemPrompt;
  return { run, toolbox, session: new Session(role, systemPrompt, toolbox.specs) };
}

/**
 * Summons the turn's agent once with its opening message (the planner's, or the executor's first of
 * a session); usage is dropped unless `options` takes it.
 */
export function summonTurn(
  turn: AgentTurn,
  client: ChatClient,
  facts: WorkshopFacts,
  options: Partial<Omit<Summons, keyof AgentTurn | 'client' | 'message'>> = {},
): Promise<void> {
  const { run, session } = turn;
  const message =
    session.role === 'planner' ? plannerMessage(run.snapshot, facts) : executorMessage(run.snapshot, facts, true);
  return summon({ ...turn, client, message, onUsage: () => undefined, ...options });
}

/** Every tool call is answered by exactly one tool message, right after the assistant message that made it. */
export function expectWellFormed(messages: ChatCompletionMessageParam[]): void {
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i];
    expect(message?.role, `message ${i} answers no call`).not.toBe('tool');
    if (message?.role !== 'assistant' || !message.tool_calls?.length) continue;
    const ids = message.tool_calls.map((call) => call.id);
    const answers = messages.slice(i + 1, i + 1 + ids.length);
    expect(answers.map((a) => (a.role === 'tool' ? a.tool_call_id : `not a tool message: ${a.role}`))).toEqual(ids);
    i += ids.length;
  }
}

/**
 * A team of the two stub clients over `workTree`, wired as the flows wire it but with no command
 * allowed and nothing protected unless `options` says so.
 */
export function stubTeam(
  run: RunState,
  planner: StubClient,
  executor: StubClient,
  workTree: string,
  options: Partial<Pick<TeamOptions, 'protectedPaths' | 'stallLimit' | 'onUsage'>> = {},
): Team {
  return createTeam({
    run,
    planner,
    executor,
    sandbox: createSandbox({ isolation: 'none', workTree }),
    allowedCommands: [],
    protectedPaths: [],
    commandTimeoutMs: 5_000,
    stallLimit: 8,
    onUsage: () => undefined,
    ...options,
  });
}
