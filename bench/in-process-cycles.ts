import { readRepositoryInstructions } from '../src/agents/repository-instructions.js';
import { drive } from '../src/agents/drive.js';
import { RunState } from '../src/agents/run-state.js';
import { createTeam } from '../src/agents/team.js';
import { defaultPolicy, initialSnapshot, plannerExecutorMachine } from '../src/machine/planner-executor.js';
import type { Snapshot } from '../src/machine/types.js';
import { createChatClient } from '../src/models/chat-client.js';
import { createGit } from '../src/repo/git.js';
import { untrusted } from '../src/text/untrusted.js';
import { apiKey, createWorld } from '../test/e2e/harness.js';
import type { RecordedRequest } from '../test/fakes/scripted-model.js';
import { benchInputs, cyclesScript, EXECUTOR, PLANNER } from './scenarios.js';
import { createSandbox } from '../src/sandbox/sandbox.js';

/**
 * The model-cost part of the cycle scenarios without the bundled action: the same scripts, sample
 * repository, objective, thread and settings the action would use, played through createTeam in
 * this process. It answers "what does a change to the agents' messages do to the cache" in seconds,
 * without a bundle; the lead's full `npm run bench` stays the figure of record.
 */

/** What the /plan comment in the benchmark asks, and the issue it is written on. */
const objective = 'Add the step helpers described in this issue.';
const issue = { number: 1, title: 'Step helpers', body: 'We need small helper modules, one per step.' };
/** The action's defaults the benchmark leaves alone (action.yml). */
const protectedPaths = ['.github/workflows/**'];
const stallLimit = 8;
const commandTimeoutMs = 10 * 60 * 1000;

/**
 * Plays /plan then /approve with `cycles` execute cycles and returns each action run's model
 * requests, in order, as bench/model-cost.ts `modelCost` takes them.
 */
export async function playCyclesInProcess(cycles: number): Promise<RecordedRequest[][]> {
  const world = await createWorld(cyclesScript(cycles));
  try {
    const endpoint = (model: string) => ({ model, baseURL: world.model.url, apiKey });
    const allowedCommands = [benchInputs['allowed-commands'] ?? ''];
    // One action run: a fresh checkout, fresh clients and a fresh team, as a new job has.
    const actionRun = async (
      snapshot: Snapshot,
      until?: (s: Snapshot) => boolean,
    ): Promise<{ snapshot: Snapshot; requests: RecordedRequest[] }> => {
      world.freshCheckout();
      const before = world.model.requests.length;
      const run = new RunState(plannerExecutorMachine, snapshot);
      const team = createTeam({
        run,
        planner: createChatClient('planner', endpoint(PLANNER), { maxRetries: 0 }),
        executor: createChatClient('executor', endpoint(EXECUTOR), { maxRetries: 0 }),
        sandbox: createSandbox({ isolation: 'none', workTree: world.workspace }),
        allowedCommands,
        protectedPaths,
        commandTimeoutMs,
        stallLimit,
        instructions: await readRepositoryInstructions(createGit(world.workspace), 'HEAD'),
        onUsage: () => undefined,
      });
      const final = await drive(run, team, until ? { until } : {});
      return { snapshot: final, requests: world.model.requests.slice(before) };
    };

    // The action's default allows 8 cycles; a longer scenario gets the max-iterations it needs.
    const start = initialSnapshot(objective, {
      ...defaultPolicy,
      maxIterations: Math.max(defaultPolicy.maxIterations, cycles),
    });
    start.context.thread = untrusted(`issue #${issue.number}: title and body`, `${issue.title}\n\n${issue.body}`);
    const planned = await actionRun(start, (s) => s.state !== 'plan');
    if (planned.snapshot.state !== 'execute') throw new Error(`/plan ended in ${planned.snapshot.state}, not execute`);
    // The approve run starts from the snapshot the plan record carried, as JSON.
    const approved = await actionRun(JSON.parse(JSON.stringify(planned.snapshot)) as Snapshot);
    if (approved.snapshot.state !== 'done' || approved.snapshot.abortReason !== undefined) {
      throw new Error(
        `/approve ended in ${approved.snapshot.state}${approved.snapshot.abortReason ? `: ${approved.snapshot.abortReason}` : ''}`,
      );
    }
    const left = Object.entries(world.model.remaining()).filter(([, n]) => n > 0);
    if (left.length > 0) throw new Error(`scripted replies left unused: ${JSON.stringify(Object.fromEntries(left))}`);
    return [planned.requests, approved.requests];
  } finally {
    await world.close();
  }
}
