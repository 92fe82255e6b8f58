/**
 * The demo's story, shared by `npm run demo` (demo/run.ts, which narrates it) and the pictures in the
 * docs (demo/capture.ts, which keeps what plangate posted): the scripted model's part, the sample
 * issue, and the comments that command plangate.
 */
import { toolCall } from '../test/fakes/scripted-model.js';
import { issueCommentPayload } from '../test/fakes/payloads.js';
import { owner, repo, type World } from '../test/e2e/harness.js';

export const objective =
  'Add a farewell(name) function beside greet(name) in src/greet.js, and mention it in the README.';

export const script = {
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

/**
 * The inputs of the demo's runs: the executor may check the syntax and run the tests. The network is
 * left open so the demo (and the pictures rendered from it) are the same on a machine without
 * nftables; its commands reach nothing either way.
 */
export const demoInputs: Readonly<Record<string, string>> = {
  'allowed-commands': 'node --check *\nnode --test',
  network: 'open',
};

/** Gives the scripted models prices, so the demo shows what a run of gpt-4.1 / gpt-4.1-mini would cost. */
export function priceScriptedModels(world: World): void {
  world.pushToOrigin(
    'main',
    {
      '.github/plangate.yml':
        'prices:\n  planner: { input: 2, cached-input: 0.5, output: 8 }\n  executor: { input: 0.4, cached-input: 0.1, output: 1.6 }\n',
    },
    'Demo prices for the scripted models',
  );
}

/** @mona, a maintainer, opens the issue the demo plans for; answers its number. */
export function openDemoIssue(world: World): number {
  world.gh.setPermission('mona', 'maintain');
  return world.gh.addIssue({
    title: 'Say goodbye too',
    body: 'greet() says hello; nothing says goodbye.',
    login: 'mona',
  }).number;
}

/** A new comment on the issue, and the issue_comment event it fires. */
export function commentEvent(world: World, issue: number, login: string, body: string) {
  const data = world.gh.issue(issue);
  if (!data) throw new Error(`no issue ${issue}`);
  const created = world.gh.addComment(issue, { login, body });
  return { name: 'issue_comment', payload: issueCommentPayload({ owner, repo, issue: data, comment: created }) };
}

/** The newest comment on the issue holding `marker` (plangate's hidden marks tell its comments apart). */
export function lastCommentWith(world: World, issue: number, marker: string): string | undefined {
  return world.gh
    .comments(issue)
    .filter((c) => c.body?.includes(marker))
    .at(-1)?.body;
}
