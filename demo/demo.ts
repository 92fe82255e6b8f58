/**
 * `npm run demo`: the whole plangate loop on this machine, with no account and no key. A local
 * GitHub emulator, a local bare repository as origin with a small sample project, and a scripted
 * model play their parts; the bundled action runs exactly as the Actions runner would start it.
 * With a key (PLANGATE_API_KEY, and optionally PLANGATE_BASE_URL, PLANGATE_PLANNER_MODEL,
 * PLANGATE_EXECUTOR_MODEL) a real OpenAI-compatible endpoint does the planning and the work.
 *
 * It shows what a maintainer would see: the comments on the issue and the pull request. The action's
 * own log (workflow commands for the runner) is not shown; a failed run is told by its error line and
 * by the bot's reply on the thread. The key never reaches the output, whatever the endpoint answers.
 */
import { createWorld, git, owner, repo, type ActionRun, type World } from '../test/e2e/harness.js';
import { bot } from '../test/e2e/thread-helpers.js';
import { translateActionsLine } from '../src/cli/actions-log.js';
import { redact } from '../src/text/redact.js';
import {
  asShown,
  commentEvent,
  demoInputs,
  objective,
  openDemoIssue,
  progressWhileRunning,
  reactionsOn,
  script,
} from './scenario.js';

/** A real endpoint to use instead of the scripted model; absent: the script plays both models. */
export interface DemoModels {
  apiKey: string;
  baseUrl?: string;
  plannerModel?: string;
  executorModel?: string;
}

/** Where the demo writes each line; the key is scrubbed before it gets here. */
export type DemoOut = (text?: string) => void;

/** The models from the environment npm run demo is started in. */
export function demoModelsFrom(env: NodeJS.ProcessEnv): DemoModels | undefined {
  const apiKey = env.PLANGATE_API_KEY?.trim();
  if (!apiKey) return undefined;
  return {
    apiKey,
    ...(env.PLANGATE_BASE_URL ? { baseUrl: env.PLANGATE_BASE_URL } : {}),
    ...(env.PLANGATE_PLANNER_MODEL ? { plannerModel: env.PLANGATE_PLANNER_MODEL } : {}),
    ...(env.PLANGATE_EXECUTOR_MODEL ? { executorModel: env.PLANGATE_EXECUTOR_MODEL } : {}),
  };
}

const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => `  │ ${line}`)
    .join('\n');

/** The demo's run against a world: each step says what a maintainer would see on GitHub. */
class Demo {
  private seen = 0;

  constructor(
    private readonly world: World,
    private readonly issue: number,
    private readonly out: DemoOut,
  ) {}

  rule(title: string): void {
    this.out(`\n${'─'.repeat(8)} ${title} ${'─'.repeat(Math.max(4, 70 - title.length))}`);
  }

  /** Mona's comment on the issue, run through the action as the runner would start it. */
  async command(body: string, inputs: Record<string, string>): Promise<ActionRun> {
    const { world, issue } = this;
    const event = commentEvent(world, issue, 'mona', body);
    const comments = world.gh.comments(issue);
    this.seen = comments.length;
    const commentId = comments.at(-1)?.id;
    this.out(`\n💬 @mona commented on #${issue}:`);
    this.out(quote(body));
    world.freshCheckout();
    const run = await world.runAction(event, inputs);
    this.report(run, commentId);
    return run;
  }

  /**
   * How the run ended, as the Actions page shows it (its error line, never the raw log of workflow
   * commands), the reactions the bot put on the command, then every comment the bot posted as GitHub
   * shows it: its replies are what a maintainer reads. A progress comment is shown twice: as it read
   * while the run worked, and as the run left it.
   */
  private report(run: ActionRun, commentId: number | undefined): void {
    const outcome = run.outputs.outcome ?? 'none';
    this.out(`\n⚙️  the action ${run.code === 0 ? 'finished' : `failed (exit ${run.code})`}; outcome: ${outcome}`);
    for (const line of `${run.stdout}\n${run.stderr}`.split('\n')) {
      if (line.startsWith('::error')) this.out(`   ${translateActionsLine(line) ?? ''}`);
    }
    const reactions = commentId === undefined ? [] : reactionsOn(this.world, commentId);
    if (reactions.length > 0) this.out(`   @${bot} reacted to the comment: ${reactions.join(' ')}`);
    const working = run.outputs['plan-id'] ? progressWhileRunning(this.world, run.outputs['plan-id']) : undefined;
    const replies = this.world.gh
      .comments(this.issue)
      .slice(this.seen)
      .filter((c) => c.user?.login === bot);
    for (const reply of replies) {
      const body = reply.body ?? '';
      const progress = body.includes('plangate:progress');
      if (progress && working) {
        this.rule('the progress comment while the run works');
        this.out(quote(asShown(working)));
      }
      this.rule(
        body.includes('plangate:record')
          ? 'the plan comment'
          : progress
            ? working
              ? 'the same comment, edited as the run ended'
              : 'the progress comment'
            : `@${bot} replied`,
      );
      this.out(quote(asShown(body)));
    }
  }
}

/** The inputs of the workflow step: the sample's commands, and the real endpoint when there is one. */
function stepInputs(models: DemoModels | undefined): Record<string, string> {
  const inputs: Record<string, string> = { ...demoInputs };
  if (models) {
    inputs['api-key'] = models.apiKey;
    inputs['base-url'] = models.baseUrl ?? 'https://api.openai.com/v1';
    // demoInputs name the action's default models; a real endpoint may name others.
    if (models.plannerModel) inputs['planner-model'] = models.plannerModel;
    if (models.executorModel) inputs['executor-model'] = models.executorModel;
  }
  return inputs;
}

/**
 * Runs the demo, writing to `write`; answers the exit code (0 once the plan was carried out). The key
 * is scrubbed from every line written, so no answer of an endpoint can echo it to the terminal.
 */
export async function runDemo(models: DemoModels | undefined, write: DemoOut): Promise<number> {
  const out: DemoOut = (text = '') => write(models ? redact(text, [models.apiKey]) : text);
  const world = await createWorld(models ? {} : script);
  try {
    const inputs = stepInputs(models);
    out(`\n${'─'.repeat(8)} plangate demo ${'─'.repeat(57)}`);
    out(
      models
        ? `Models: the real endpoint ${inputs['base-url']} (${inputs['planner-model']} plans, ${inputs['executor-model']} executes).`
        : `Models: SCRIPTED. A local fake answers as ${inputs['planner-model']} (planner) and ${inputs['executor-model']} (executor) from a fixed script, priced at their list prices; no real model, account or key is used.`,
    );
    out(`GitHub: a local emulator of GitHub's REST API at ${world.gh.url}.`);
    out(`Repository: ${owner}/${repo}, a bare git repository on this machine as origin: ${world.origin}`);
    out(
      'The action runs as the Actions runner starts it: node dist/index.js with the event file and INPUT_* variables.',
    );
    out('Comments show as GitHub shows them: the signed records plangate keeps in HTML comments are not shown.');
    const issue = openDemoIssue(world);
    const demo = new Demo(world, issue, out);
    demo.rule(`issue #${issue} opened by @mona`);

    const planned = await demo.command(`/plan ${objective}`, inputs);
    const planId = planned.outputs['plan-id'];
    if (!planId) {
      demo.rule('no plan');
      out('No plan was posted: the bot’s reply above says why and what to do.');
      return 1;
    }
    const approved = await demo.command(`/approve ${planId}`, inputs);
    showWork(world, approved, demo, out);
    demo.rule('done');
    out(
      `Outcome: ${approved.outputs.outcome ?? 'unknown'}.${models ? '' : ' Run it against a real model with PLANGATE_API_KEY=… npm run demo.'}`,
    );
    return approved.outputs.outcome === 'done' ? 0 : 1;
  } finally {
    await world.close();
  }
}

/** The branch the run pushed and the pull request it opened: title and body, as a reviewer sees them. */
function showWork(world: World, approved: ActionRun, demo: Demo, out: DemoOut): void {
  const branch = approved.outputs.branch;
  if (branch) {
    demo.rule(`branch ${branch} on origin`);
    out(quote(git(world.origin, 'log', '--format=%h %an: %s', `main..${branch}`)));
    out(quote(git(world.origin, 'diff', '--stat', `main...${branch}`)));
  }
  const pull = world.gh.pulls()[0];
  if (pull) {
    demo.rule(`pull request #${pull.number}: ${pull.title}`);
    out(quote(asShown(pull.body ?? '')));
  }
}
