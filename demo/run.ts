/**
 * `npm run demo`: the whole plangate loop on this machine, with no account and no key. A local
 * GitHub emulator, a local bare repository as origin with a small sample project, and a scripted
 * model play their parts; the bundled action runs exactly as the Actions runner would start it.
 * Set PLANGATE_API_KEY (and optionally PLANGATE_BASE_URL, PLANGATE_PLANNER_MODEL,
 * PLANGATE_EXECUTOR_MODEL) to let a real OpenAI-compatible endpoint do the planning and the work.
 */
import { toolCall } from '../test/fakes/scripted-model.js';
import { issueCommentPayload } from '../test/fakes/payloads.js';
import { createWorld, git, owner, repo, type ActionRun, type World } from '../test/e2e/harness.js';

const real = process.env.PLANGATE_API_KEY;
const out = (text = '') => process.stdout.write(`${text}\n`);
const rule = (title: string) => out(`\n${'─'.repeat(8)} ${title} ${'─'.repeat(Math.max(4, 70 - title.length))}`);
const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n');

const objective = 'Add a farewell(name) function beside greet(name) in src/greet.js, and mention it in the README.';

const script = {
  planner: [
    toolCall('list_files', {}),
    toolCall('read_file', { path: 'src/greet.js' }),
    toolCall('update_context', {
      plan: {
        steps: [
          { title: 'Add farewell(name) to src/greet.js', files: ['src/greet.js'], verify: 'node --check src/greet.js' },
          { title: 'Mention farewell in the README', files: ['README.md'] },
        ],
        assumptions: ['farewell mirrors greet: it returns a string and prints nothing.'],
      },
      directive:
        "Append `export function farewell(name) { return 'Goodbye ' + name; }` to src/greet.js, then run `node --check src/greet.js`.",
    }),
    toolCall('update_context', {
      directive: 'Add a line "- farewell(name): says goodbye" under a new "## API" heading at the end of README.md.',
    }),
    toolCall('update_context', {
      summary:
        'Added farewell(name) beside greet(name) and documented both in a new API section of the README. `node --check` passes.',
    }),
  ],
  executor: [
    toolCall('read_file', { path: 'src/greet.js' }),
    toolCall('edit_file', {
      path: 'src/greet.js',
      old: "  return 'Hello ' + name;\n}\n",
      new: "  return 'Hello ' + name;\n}\n\nexport function farewell(name) {\n  return 'Goodbye ' + name;\n}\n",
    }),
    toolCall('run_command', { command: 'node --check src/greet.js' }),
    toolCall('update_context', {
      result: 'Appended farewell to src/greet.js; `node --check src/greet.js` exited 0.',
      outcome: 'replan',
    }),
    toolCall('edit_file', {
      path: 'README.md',
      old: 'A tiny project for plangate scenarios.\n',
      new: 'A tiny project for plangate scenarios.\n\n## API\n\n- greet(name): says hello\n- farewell(name): says goodbye\n',
    }),
    toolCall('update_context', {
      result: 'README.md now has an API section listing greet and farewell.',
      outcome: 'done',
    }),
  ],
};

function comment(world: World, issue: number, login: string, body: string) {
  const data = world.gh.issue(issue);
  if (!data) throw new Error(`no issue ${issue}`);
  const created = world.gh.addComment(issue, { login, body });
  out(`\n💬 @${login} commented on #${issue}:`);
  out(quote(body));
  return {
    name: 'issue_comment',
    payload: issueCommentPayload({ owner, repo, issue: data, comment: created }),
  };
}

function report(run: ActionRun): void {
  out(`\n⚙️  action finished (exit ${run.code}); outputs: ${JSON.stringify(run.outputs)}`);
  if (run.code !== 0) out(run.stdout + run.stderr);
}

function lastBotComment(world: World, issue: number, marker: string): string {
  return (
    world.gh
      .comments(issue)
      .filter((c) => c.body?.includes(marker))
      .at(-1)?.body ?? '(none)'
  );
}

/** Hides the hidden record's payload: it is for machines, and long. */
const readable = (body: string) =>
  body.replace(/<!-- plangate:record v1 [A-Za-z0-9_-]+ -->/, '<!-- plangate:record v1 … (hidden plan record) -->');

const world = await createWorld(real ? {} : script);
try {
  const inputs: Record<string, string> = { 'allowed-commands': 'node --check *\nnode --test' };
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

  if (!real) {
    // The scripted models have no list price; these make the demo show what a run of gpt-4.1 / gpt-4.1-mini would cost.
    world.pushToOrigin(
      'main',
      {
        '.github/plangate.yml':
          'prices:\n  planner: { input: 2, cached-input: 0.5, output: 8 }\n  executor: { input: 0.4, cached-input: 0.1, output: 1.6 }\n',
      },
      'Demo prices for the scripted models',
    );
  }
  world.gh.setPermission('mona', 'maintain');
  const issue = world.gh.addIssue({
    title: 'Say goodbye too',
    body: 'greet() says hello; nothing says goodbye.',
    login: 'mona',
  }).number;
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
