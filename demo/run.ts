/**
 * `npm run demo`: the whole plangate loop on this machine, with no account and no key. A local
 * GitHub emulator, a local bare repository as origin with a small sample project, and a scripted
 * model play their parts; the bundled action runs exactly as the Actions runner would start it.
 * Set PLANGATE_API_KEY (and optionally PLANGATE_BASE_URL, PLANGATE_PLANNER_MODEL,
 * PLANGATE_EXECUTOR_MODEL) to let a real OpenAI-compatible endpoint do the planning and the work.
 */
import { createWorld, git, owner, repo, type ActionRun, type World } from '../test/e2e/harness.js';
import {
  commentEvent,
  demoInputs,
  lastCommentWith,
  objective,
  openDemoIssue,
  priceScriptedModels,
  script,
} from './scenario.js';

const real = process.env.PLANGATE_API_KEY;
const out = (text = '') => process.stdout.write(`${text}\n`);
const rule = (title: string) => out(`\n${'─'.repeat(8)} ${title} ${'─'.repeat(Math.max(4, 70 - title.length))}`);
const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n');

function comment(world: World, issue: number, login: string, body: string) {
  const event = commentEvent(world, issue, login, body);
  out(`\n💬 @${login} commented on #${issue}:`);
  out(quote(body));
  return event;
}

function report(run: ActionRun): void {
  out(`\n⚙️  action finished (exit ${run.code}); outputs: ${JSON.stringify(run.outputs)}`);
  if (run.code !== 0) out(run.stdout + run.stderr);
}

function lastBotComment(world: World, issue: number, marker: string): string {
  return lastCommentWith(world, issue, marker) ?? '(none)';
}

/** Hides the hidden record's payload: it is for machines, and long. */
const readable = (body: string) =>
  body.replace(/<!-- plangate:record v1 [A-Za-z0-9_-]+ -->/, '<!-- plangate:record v1 … (hidden plan record) -->');

const world = await createWorld(real ? {} : script);
try {
  const inputs: Record<string, string> = { ...demoInputs };
  if (real) {
    inputs['api-key'] = real;
    inputs['base-url'] = process.env.PLANGATE_BASE_URL ?? 'https://api.openai.com/v1';
    inputs['planner-model'] = process.env.PLANGATE_PLANNER_MODEL ?? 'gpt-4.1';
    inputs['executor-model'] = process.env.PLANGATE_EXECUTOR_MODEL ?? 'gpt-4.1-mini';
  }
  rule('plangate demo');
  out(
    real
      ? `Models: the real endpoint ${inputs['base-url']} (${inputs['planner-model']} plans, ${inputs['executor-model']} executes).`
      : 'Models: SCRIPTED. A local fake plays planner and executor from a fixed script; no model, account or key is used.',
  );
  out(`GitHub: a local emulator of GitHub's REST API at ${world.gh.url}.`);
  out(`Repository: ${owner}/${repo}, a bare git repository on this machine as origin: ${world.origin}`);
  out('The action runs as the Actions runner starts it: node dist/index.js with the event file and INPUT_* variables.');

  // The scripted models have no list price; these make the demo show what a run of gpt-4.1 / gpt-4.1-mini would cost.
  if (!real) priceScriptedModels(world);
  const issue = openDemoIssue(world);
  rule(`issue #${issue} opened by @mona`);

  world.freshCheckout();
  const planned = await world.runAction(comment(world, issue, 'mona', `/plan ${objective}`), inputs);
  report(planned);
  rule('the plan comment, as GitHub would show it');
  out(quote(readable(lastBotComment(world, issue, 'plangate:record'))));
  const planId = planned.outputs['plan-id'];
  if (!planId) throw new Error('No plan was posted; see the output above.');

  world.freshCheckout();
  const approved = await world.runAction(comment(world, issue, 'mona', `/approve ${planId}`), inputs);
  report(approved);
  rule('the progress comment');
  out(quote(lastBotComment(world, issue, 'plangate:progress')));

  const branch = approved.outputs.branch;
  if (branch) {
    rule(`branch ${branch} on origin`);
    out(quote(git(world.origin, 'log', '--format=%h %an: %s', `main..${branch}`)));
    out(quote(git(world.origin, 'diff', '--stat', `main...${branch}`)));
  }
  const pull = world.gh.pulls()[0];
  if (pull) {
    rule(`pull request #${pull.number}: ${pull.title}`);
    out(quote(pull.body ?? ''));
  }
  rule('done');
  out(
    `Outcome: ${approved.outputs.outcome ?? 'unknown'}.${real ? '' : ' Run it against a real model with PLANGATE_API_KEY=… npm run demo.'}`,
  );
  if (approved.outputs.outcome !== 'done') process.exitCode = 1;
} finally {
  await world.close();
}
