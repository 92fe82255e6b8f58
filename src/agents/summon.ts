import * as core from '@actions/core';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatClient, ChatRequest } from '../models/chat-client.js';
import type { TokenUsage } from '../models/usage.js';
import { stateWords } from '../machine/reader-words.js';
import type { Toolbox } from '../tools/toolbox.js';
import { enforceBudget, type Budget } from './budget.js';
import { nextRequestTokens } from './request-size.js';
import { cacheShortfall, checkPrefix, describeCacheShortfall, describePrefixBreaks } from './cache-diagnosis.js';
import type { RunState } from './run-state.js';
import type { Session } from './session.js';
import { stageLine } from './stage-line.js';
import { DEFAULT_STALL_LIMIT, madeProgress, observeExchange, stallAbortReason, stallNudge } from './stall-guard.js';
import type { CallResult } from './stall-guard.js';

/**
 * One agent's turn in one state: the tool-calling loop. It ends when the agent's staged fields move
 * the machine on, or when the machine stops it (a bound becomes an abort). The loop never decides
 * control flow itself: it only reports exchanges and staged fields to the machine and watches it;
 * the one exception is the executor's stall guard, which speaks to the machine the way the host
 * does, with an abort and its reason.
 */
export interface Summons {
  session: Session;
  client: ChatClient;
  toolbox: Toolbox;
  run: RunState;
  /** The user message that summons the agent; its last line is the `Stage:` line. */
  message: string;
  onUsage(tokens: TokenUsage): void;
  /**
   * Idle exchanges in a row before an executor is nudged; twice as many stop it. Ignored for the
   * planner, whose work is reading. Defaults to DEFAULT_STALL_LIMIT.
   */
  stallLimit?: number;
  /** Applied to every tool output before it enters the session: no secret ever reaches a model. */
  redact?: (text: string) => string;
  /**
   * Checked before every model request in a working state; when spent, the run aborts with its
   * reason and the turn ends, so no request is made that the budget no longer covers.
   */
  budget?: Budget;
  /**
   * Checked before every model request and every tool call: once the host stops the run, the turn
   * ends where it is, and the calls it has not run are answered as not run.
   */
  halted?: () => boolean;
}

const notRun = (why: string) => `Not run: ${why}`;

export async function summon({
  session,
  client,
  toolbox,
  run,
  message,
  onUsage,
  stallLimit,
  redact = (t) => t,
  budget,
  halted = () => false,
}: Summons): Promise<void> {
  const role = client.role;
  const startState = run.snapshot.state;
  const guarded = session.role === 'executor';
  const limit = stallLimit ?? DEFAULT_STALL_LIMIT;
  let idle = 0;
  await core.group(`${role} · ${stateWords[startState]}`, async () => {
    // The prefix fingerprint is for diagnosing the prompt cache, not for a reader of the log.
    core.debug(`${role} session prefix ${session.prefixHash}`);
    session.append({ role: 'user', content: message });
    while (run.snapshot.state === startState && !run.finished) {
      // Every earlier call is answered by now, so stopping here leaves the session well-formed.
      const request: ChatRequest = { messages: session.messages, tools: [...session.tools] };
      const nextTokens = nextRequestTokens(session, request);
      if (halted() || enforceBudget(budget, run, nextTokens) !== undefined) break;
      const previous = session.lastRequest;
      const breaks = checkPrefix(request, session, previous?.messages);
      if (breaks.length > 0) core.warning(describePrefixBreaks(role, session.prefixHash, breaks));

      const turn = await sendReserved(client, request, { budget, tokens: nextTokens, onUsage });
      session.recordRequest(request.messages, turn.usage.promptTokens);
      core.info(
        `${role} answered (${turn.finishReason}): prompt ${turn.usage.promptTokens}, cached ${turn.usage.cachedTokens}, completion ${turn.usage.completionTokens} tokens`,
      );
      // Only an intact prefix lets a shortfall be put down to the provider.
      const shortfall = breaks.length === 0 ? cacheShortfall(previous?.promptTokens, turn.usage.cachedTokens) : null;
      if (shortfall) core.info(describeCacheShortfall(role, shortfall));

      const calls = turn.message.tool_calls ?? [];
      session.append(turn.message as ChatCompletionMessageParam);
      run.dispatch({ type: 'exchange', agent: role });
      const results: CallResult[] = [];
      for (const call of calls) {
        if (call.type !== 'function') continue;
        // Every call gets an answer, so the session stays well-formed even when the state already moved.
        if (run.snapshot.state !== startState) {
          session.append({ role: 'tool', tool_call_id: call.id, content: notRun(`the ${startState} stage is over.`) });
          continue;
        }
        if (halted()) {
          session.append({ role: 'tool', tool_call_id: call.id, content: notRun('the job is being stopped.') });
          continue;
        }
        const outcome = await toolbox.call(call.function.name, call.function.arguments);
        core.info(`${role} → ${call.function.name}: ${outcome.ok ? 'ok' : 'refused'}`);
        session.append({ role: 'tool', tool_call_id: call.id, content: redact(outcome.output) });
        results.push({ name: call.function.name, ok: outcome.ok });
      }
      // Stopped: no nudge and no stall verdict, which would speak to the machine after the host ended the run.
      if (run.snapshot.state !== startState || run.finished || halted()) break;

      if (guarded) {
        const step = observeExchange(idle, madeProgress(results), limit);
        idle = step.idle;
        if (step.verdict === 'abort') {
          const reason = stallAbortReason(idle);
          core.warning(reason);
          run.dispatch({ type: 'abort', reason });
          break;
        }
        if (step.verdict === 'nudge') {
          // The stall nudge names the pending fields itself, so it replaces the silent-turn nudge below.
          session.append({ role: 'user', content: stallNudge(idle, run.pending) });
          continue;
        }
      }
      if (calls.length === 0) {
        // The model stopped talking without staging what the state needs: say so, in the same form.
        session.append({
          role: 'user',
          content: `You have not staged everything this stage requires. Use the update_context tool.\n${stageLine(run.pending)}`,
        });
      }
    }
  });
}

/**
 * Sends one request with its tokens held in the budget from the check (just before: no await between
 * the two) until its usage is in the ledger, so sessions running together count each other's.
 */
async function sendReserved(
  client: ChatClient,
  request: ChatRequest,
  { budget, tokens, onUsage }: { budget: Budget | undefined; tokens: number; onUsage: (usage: TokenUsage) => void },
): Promise<Awaited<ReturnType<ChatClient['complete']>>> {
  const release = budget?.reserve(tokens);
  try {
    const turn = await client.complete(request);
    onUsage(turn.usage);
    return turn;
  } finally {
    release?.();
  }
}
