import * as core from '@actions/core';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ChatClient } from '../models/chat-client.js';
import type { TokenUsage } from '../models/usage.js';
import type { Toolbox } from '../tools/toolbox.js';
import type { RunState } from './run-state.js';
import type { Session } from './session.js';
import { stageLine } from './stage-line.js';

/**
 * One agent's turn in one state: the tool-calling loop. It ends when the agent's staged fields move
 * the machine on, or when the machine stops it (a bound becomes an abort). The loop never decides
 * control flow itself: it only reports exchanges and staged fields to the machine and watches it.
 */
export interface Summons {
  session: Session;
  client: ChatClient;
  toolbox: Toolbox;
  run: RunState;
  /** The user message that summons the agent; its last line is the `Stage:` line. */
  message: string;
  onUsage(tokens: TokenUsage): void;
}

const notRun = (why: string) => `Not run: ${why}`;

export async function summon({ session, client, toolbox, run, message, onUsage }: Summons): Promise<void> {
  const role = client.role;
  const startState = run.snapshot.state;
  await core.group(`${role} · ${startState} · prefix ${session.prefixHash}`, async () => {
    session.append({ role: 'user', content: message });
    while (run.snapshot.state === startState && !run.finished) {
      const turn = await client.complete({ messages: session.messages, tools: [...session.tools] });
      onUsage(turn.usage);
      core.info(
        `${role} answered (${turn.finishReason}): prompt ${turn.usage.promptTokens}, cached ${turn.usage.cachedTokens}, completion ${turn.usage.completionTokens} tokens`,
      );
      const calls = turn.message.tool_calls ?? [];
      session.append(turn.message as ChatCompletionMessageParam);
      run.dispatch({ type: 'exchange', agent: role });
      for (const call of calls) {
        if (call.type !== 'function') continue;
        // Every call gets an answer, so the session stays well-formed even when the state already moved.
        if (run.snapshot.state !== startState) {
          session.append({ role: 'tool', tool_call_id: call.id, content: notRun(`the ${startState} stage is over.`) });
          continue;
        }
        const outcome = await toolbox.call(call.function.name, call.function.arguments);
        core.info(`${role} → ${call.function.name}: ${outcome.ok ? 'ok' : 'refused'}`);
        session.append({ role: 'tool', tool_call_id: call.id, content: outcome.output });
      }
      if (calls.length === 0 && run.snapshot.state === startState && !run.finished) {
        // The model stopped talking without staging what the state needs: say so, in the same form.
        session.append({
          role: 'user',
          content: `You have not staged everything this stage requires. Use the update_context tool.\n${stageLine(run.pending)}`,
        });
      }
    }
  });
}
