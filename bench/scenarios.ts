import { issueCommentPayload } from '../test/fakes/payloads.js';
import { toolCall, type Reply } from '../test/fakes/scripted-model.js';
import { owner, repo, type World } from '../test/e2e/harness.js';

/**
 * The scripted conversations the benchmark plays. Every cycle does the same amount of work (read a
 * file, write one, check it, report), so growth in cycles measures plangate, not the script.
 */

/** Model names the harness gives each role; the scripted model routes on them. */
export const PLANNER = 'planner';
export const EXECUTOR = 'executor';

/** Inputs every benchmark run passes: the executor may syntax-check the files it writes. */
export const benchInputs: Record<string, string> = { 'allowed-commands': 'node --check *' };

/** A comment by `login` on the thread, as GitHub stores it, and the webhook event it fires. */
export function comment(world: World, issue: number, login: string, body: string): { name: string; payload: unknown } {
  const data = world.gh.issue(issue);
  if (!data) throw new Error(`no issue ${issue}`);
  const created = world.gh.addComment(issue, { login, body });
  return { name: 'issue_comment', payload: issueCommentPayload({ owner, repo, issue: data, comment: created }) };
}

export const stage = (fields: Record<string, unknown>): Reply => toolCall('update_context', fields);

/** What step `k` writes: twelve one-line helpers, the same amount of work in every step. */
export function stepModule(k: number): string {
  const lines = [`/** Step ${k}: a helper the plan asked for, checked with node --check. */`];
  for (let i = 1; i <= 12; i++) lines.push(`export const step${k}Value${i} = (input) => input * ${k} + ${i};`);
  return `${lines.join('\n')}\n`;
}

/** The planner's directive for step `k`; it names no other step's file. */
export const directive = (k: number) =>
  `Create src/step-${k}.js exporting twelve helpers step${k}Value1..12 (input * ${k} + i), then run \`node --check src/step-${k}.js\` and report.`;

/** The plan comment's plan for `cycles` steps, one step per cycle. */
function planFor(cycles: number) {
  return {
    steps: Array.from({ length: cycles }, (_, i) => ({
      title: `Add src/step-${i + 1}.js`,
      detail: `Twelve small helpers for step ${i + 1}, next to greet.`,
      files: [`src/step-${i + 1}.js`],
      verify: `node --check src/step-${i + 1}.js`,
    })),
    assumptions: ['Helpers are pure functions; nothing imports them yet.'],
  };
}

/** The planner's /plan conversation: look around, then stage the plan and the first directive. */
function planning(cycles: number): Reply[] {
  return [
    toolCall('list_files', {}),
    toolCall('read_file', { path: 'README.md' }),
    toolCall('read_file', { path: 'src/greet.js' }),
    stage({ plan: planFor(cycles), directive: directive(1) }),
  ];
}

/**
 * /plan then /approve with `cycles` execute cycles: each cycle but the last ends in a replan, where
 * a fresh planner reads the previous cycle's file before staging the next directive.
 */
export function cyclesScript(cycles: number): Record<string, Reply[]> {
  const planner = planning(cycles);
  const executor: Reply[] = [];
  for (let k = 1; k <= cycles; k++) {
    executor.push(
      toolCall('read_file', { path: 'src/greet.js' }),
      toolCall('write_file', { path: `src/step-${k}.js`, content: stepModule(k) }),
      toolCall('run_command', { command: `node --check src/step-${k}.js` }),
      stage({
        result: `Wrote src/step-${k}.js with twelve helpers; node --check exits 0.`,
        outcome: k < cycles ? 'replan' : 'done',
      }),
    );
    if (k < cycles)
      planner.push(toolCall('read_file', { path: `src/step-${k}.js` }), stage({ directive: directive(k + 1) }));
  }
  planner.push(stage({ summary: `Added ${cycles} helper module(s), each syntax-checked.` }));
  return { [PLANNER]: planner, [EXECUTOR]: executor };
}

/** /plan alone, followed by an outsider's /approve (refused) and a bot's comment (ignored). */
export function planOnlyScript(): Record<string, Reply[]> {
  return { [PLANNER]: planning(1), [EXECUTOR]: [] };
}

/** The executor-only policy: /plan runs the executor straight away, one cycle, no planner. */
export function executorOnlyScript(): Record<string, Reply[]> {
  return {
    [PLANNER]: [],
    [EXECUTOR]: [
      toolCall('list_files', {}),
      toolCall('read_file', { path: 'src/greet.js' }),
      toolCall('write_file', { path: 'src/step-1.js', content: stepModule(1) }),
      toolCall('run_command', { command: 'node --check src/step-1.js' }),
      stage({ result: 'Wrote src/step-1.js with twelve helpers; node --check exits 0.', outcome: 'done' }),
    ],
  };
}
