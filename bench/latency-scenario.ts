import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Plan } from '../src/machine/fields.js';
import { toolCall, type RecordedRequest, type Reply } from '../test/fakes/scripted-model.js';
import { EXECUTOR, PLANNER, directive, stage, stepModule } from './scenarios.js';

/**
 * The latency scenario's conversations: a plan of five steps, step 1, then steps 2, 3 and 4 (each
 * needing only step 1, each its own file), then step 5 (needing all three), played once with the
 * order declared (`after`) and once without it, the same plan run one step at a time.
 *
 * Sessions that run at the same time send their requests in an order nobody fixes, so no reply is
 * picked by its place in a queue: each request is answered from what it holds, as a model would. The
 * step comes from the session's summoning message (the step it hands over, or the step file its
 * directive names last), the point in the step from how many turns the session has taken since, the
 * outcome from how the message asks to judge it, the planner's stage from the message's `Stage:`
 * line, the steps already done from the results the planner is shown.
 */

export const LATENCY_STEPS = 5;
/** The steps each step needs in the ordered plan: 2, 3 and 4 after 1, and 5 after those three. */
const AFTER: Record<number, number[]> = { 2: [1], 3: [1], 4: [1], 5: [2, 3, 4] };

/** `ordered`: the plan says which steps need which; otherwise it is the same plan, one step after another. */
export function latencyPlan(ordered: boolean): Plan {
  const detail: Record<number, string> = {
    1: 'Twelve small helpers the next three steps build on.',
    5: 'Twelve small helpers that close the set, once the three before it are in.',
  };
  return {
    steps: Array.from({ length: LATENCY_STEPS }, (_, i) => {
      const k = i + 1;
      const after = AFTER[k];
      return {
        title: `Add src/step-${k}.js`,
        detail: detail[k] ?? `Twelve small helpers beside step 1's, independent of the other steps.`,
        files: [`src/step-${k}.js`],
        verify: `node --check src/step-${k}.js`,
        ...(ordered && after ? { after } : {}),
      };
    }),
    assumptions: ['Helpers are pure functions; nothing imports them yet.'],
  };
}

/** The file step `k` reads before it writes its own: what it builds on. */
function readBy(k: number): string {
  if (k === 1) return 'src/greet.js';
  return k === LATENCY_STEPS ? `src/step-${LATENCY_STEPS - 1}.js` : 'src/step-1.js';
}

const resultOf = (k: number) => `Wrote src/step-${k}.js with twelve helpers; node --check exits 0.`;

function textOf(message: ChatCompletionMessageParam | undefined): string {
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => ('text' in part ? part.text : '')).join('');
}

/**
 * Where a session stands: its latest summoning message (the last user message that ends with a
 * `Stage:` line) and how many turns the model has taken since.
 */
export function sessionPoint(messages: readonly ChatCompletionMessageParam[]): { summoning: string; turns: number } {
  let at = -1;
  for (let i = messages.length - 1; i >= 0 && at < 0; i--) {
    const message = messages[i];
    if (message?.role === 'user' && /\nStage: update_context\(/.test(`\n${textOf(message)}`)) at = i;
  }
  if (at < 0) throw new Error('the request has no summoning message');
  return {
    summoning: textOf(messages[at]),
    turns: messages.slice(at + 1).filter((m) => m.role === 'assistant').length,
  };
}

/** A step's own session (one of a batch of steps, src/agents/executor.ts `stepMessage`) names its step in a heading. */
const STEP_HEADING = /^## Step (\d+) of the plan$/m;

/**
 * The step a summoning message hands over: the one its heading names in a step's own session, else
 * the last step file the message names (a cycle's directive comes after the plan, which names them all).
 */
export function stepOf(summoning: string): number {
  const heading = STEP_HEADING.exec(summoning)?.[1];
  const named = [...summoning.matchAll(/\bsrc\/step-(\d+)\.js\b/g)].map((m) => Number(m[1]));
  const k = heading === undefined ? named.at(-1) : Number(heading);
  if (k === undefined || k < 1 || k > LATENCY_STEPS) throw new Error('the summoning message names no step');
  return k;
}

/**
 * The executor: read what the step builds on, write the step's file, check it, report. A step's own
 * session is judged alone, so it reports its step done; a cycle of a run that goes one directive at
 * a time hands back to the planner while steps remain and reports done with the last, as the
 * executor's instructions ask of each.
 */
export function executorReply(request: RecordedRequest): Reply {
  const { summoning, turns } = sessionPoint(request.messages);
  const k = stepOf(summoning);
  switch (turns) {
    case 0:
      return toolCall('read_file', { path: readBy(k) });
    case 1:
      return toolCall('write_file', { path: `src/step-${k}.js`, content: stepModule(k) });
    case 2:
      return toolCall('run_command', { command: `node --check src/step-${k}.js` });
    case 3: {
      const done = STEP_HEADING.test(summoning) || k === LATENCY_STEPS;
      return stage({ result: resultOf(k), outcome: done ? 'done' : 'replan' });
    }
    default:
      throw new Error(`the executor of step ${k} was asked a ${turns + 1}th time`);
  }
}

/** The steps the planner is shown done: their results name the files they wrote. */
export function stepsDone(summoning: string): Set<number> {
  return new Set([...summoning.matchAll(/Wrote src\/step-(\d+)\.js/g)].map((m) => Number(m[1])));
}

/** The planner: look around and plan; at a replan, read the last step's file and direct the next; then sum up. */
export function plannerReply(request: RecordedRequest, ordered: boolean): Reply {
  const { summoning, turns } = sessionPoint(request.messages);
  const stageLine = summoning.slice(summoning.lastIndexOf('\nStage: ') + 1);
  if (stageLine.includes('field=plan')) {
    const look = [
      toolCall('list_files', {}),
      toolCall('read_file', { path: 'README.md' }),
      toolCall('read_file', { path: 'src/greet.js' }),
    ];
    return look[turns] ?? stage({ plan: latencyPlan(ordered), directive: directive(1) });
  }
  if (stageLine.includes('field=directive')) {
    const done = stepsDone(summoning);
    const next = Array.from({ length: LATENCY_STEPS }, (_, i) => i + 1).find((k) => !done.has(k));
    if (next === undefined) throw new Error('a replan with every step done');
    return turns === 0
      ? toolCall('read_file', { path: `src/step-${next - 1}.js` })
      : stage({ directive: directive(next) });
  }
  if (stageLine.includes('field=summary')) {
    return stage({ summary: `Added ${LATENCY_STEPS} helper modules, each syntax-checked.` });
  }
  throw new Error(`the planner was asked for something the scenario does not script: ${stageLine}`);
}

/**
 * More replies than either run takes (the planner 4 + 2 per replan + 1, the executor 4 per step):
 * each one answers from its request, so the queue only bounds how many requests a run may make.
 */
const CAPACITY = 64;

export function latencyScript(ordered: boolean): Record<string, Reply[]> {
  return {
    [PLANNER]: Array.from({ length: CAPACITY }, () => (request: RecordedRequest) => plannerReply(request, ordered)),
    [EXECUTOR]: Array.from({ length: CAPACITY }, () => executorReply),
  };
}
