/**
 * The demo's story, shared by `npm run demo` (demo/run.ts, which narrates it) and the pictures in the
 * docs (demo/capture.ts, which keeps what plangate posted): the scripted model's part, the sample
 * issue, and the comments that command plangate.
 */
import { toolCall } from '../test/fakes/scripted-model.js';
import { issueCommentPayload } from '../test/fakes/payloads.js';
import { owner, repo, type World } from '../test/e2e/harness.js';
import { inputDefaults } from '../src/config/defaults.js';

export const objective =
  'Add a farewell(name) function beside greet(name) in src/greet.js, and mention it in the README.';

/**
 * The models the scripted fake answers as: the action's defaults, so the comments name real models
 * and the built-in price table prices them as a run of those models would be priced.
 */
export const plannerModel = inputDefaults['planner-model'];
export const executorModel = inputDefaults['executor-model'];

export const script = {
  [plannerModel]: [
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
  [executorModel]: [
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
 * The inputs of the demo's runs: the scripted models' names, and the executor may check the syntax and
 * run the tests. The network is left open so the demo (and the pictures rendered from it) are the same
 * on a machine without nftables; its commands reach nothing either way.
 */
export const demoInputs: Readonly<Record<string, string>> = {
  'planner-model': plannerModel,
  'executor-model': executorModel,
  'allowed-commands': 'node --check *\nnode --test',
  network: 'open',
};

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

/** The Markdown as GitHub shows it: without the HTML comments that hold plangate's marks and signed records. */
export function asShown(body: string): string {
  return body
    .replace(/\n?<!--[\s\S]*?-->/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}

const reactionEmoji: Readonly<Record<string, string>> = {
  '+1': '👍',
  '-1': '👎',
  laugh: '😄',
  confused: '😕',
  heart: '❤️',
  hooray: '🎉',
  rocket: '🚀',
  eyes: '👀',
};

/** The reactions on a comment, as the emoji GitHub shows under it, in the order they were added. */
export function reactionsOn(world: World, commentId: number): string[] {
  return world.gh.reactions(commentId).map((r) => reactionEmoji[r.content] ?? r.content);
}

/**
 * The progress comment as it read while the run worked, from the edits the action sent: the last one
 * with steps both ticked off and still open. The comment is edited in place, so what GitHub shows at
 * the end is only its last state.
 */
export function progressWhileRunning(world: World, planId: string): string | undefined {
  const mark = `<!-- plangate:progress ${planId} -->`;
  const bodies = world.gh.requests
    .filter((r) => r.api === 'rest' && /\/issues\/(\d+\/)?comments/.test(r.path) && r.status < 300)
    .map((r) => (r.body as { body?: unknown } | undefined)?.body)
    .filter((body): body is string => typeof body === 'string' && body.includes(mark));
  return bodies.filter((body) => body.includes('- [x] ') && body.includes('- [ ] ')).at(-1);
}
