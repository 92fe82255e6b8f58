import path from 'node:path';
import type { RequestLogEntry } from '../test/fakes/github-emulator.js';
import type { RecordedRequest, Reply } from '../test/fakes/scripted-model.js';
import { createWorld, type World } from '../test/e2e/harness.js';
import { timeAction, timeNodeNoop, type ProcessCost } from './process-timing.js';
import { benchInputs, comment, cyclesScript, executorOnlyScript, planOnlyScript } from './scenarios.js';

/**
 * Plays the scripted scenarios end to end against the bundled action, recording for every command
 * what it cost, which GitHub calls it made and what the model was sent. A `node -e 0` baseline is
 * timed right before each command, so baseline and action share the machine's mood of the moment.
 */

/** One command as the action ran it. */
export interface CommandRecord {
  scenario: string;
  /** `/plan`, `/approve`, `refusal` or `ignored`. */
  command: string;
  outcome: string;
  cost: ProcessCost;
  api: RequestLogEntry[];
  model: RecordedRequest[];
}

export interface ScenarioPlay {
  commands: CommandRecord[];
  baselines: ProcessCost[];
}

interface Step {
  command: string;
  login: string;
  body: string;
  outcome: string;
  inputs?: Record<string, string>;
}

export interface ScenarioSpec {
  name: string;
  script: () => Record<string, Reply[]>;
  steps: Step[];
}

const plan: Step = {
  command: '/plan',
  login: 'mona',
  body: '/plan Add the step helpers described in this issue.',
  outcome: 'planned',
};
const approve: Step = { command: '/approve', login: 'mona', body: '/approve', outcome: 'done' };

/** The scenarios of the issue, plus 6 cycles for growth. */
export const scenarioSpecs: ScenarioSpec[] = [
  {
    name: 'plan only',
    script: planOnlyScript,
    steps: [
      plan,
      { command: 'refusal', login: 'stranger', body: '/approve', outcome: 'refused' },
      { command: 'ignored', login: 'dependabot[bot]', body: '/plan bump everything', outcome: 'ignored' },
    ],
  },
  { name: 'plan + 1 cycle', script: () => cyclesScript(1), steps: [plan, approve] },
  { name: 'plan + 3 cycles', script: () => cyclesScript(3), steps: [plan, approve] },
  { name: 'plan + 6 cycles', script: () => cyclesScript(6), steps: [plan, approve] },
  {
    name: 'executor-only',
    script: executorOnlyScript,
    steps: [{ ...plan, outcome: 'done', inputs: { policy: 'executor-only' } }],
  },
];

/** Plays one scenario in a world of its own and checks every command ended as scripted. */
export async function playScenario(spec: ScenarioSpec, probeDir: string): Promise<ScenarioPlay> {
  const world: World = await createWorld(spec.script());
  try {
    world.gh.setPermission('mona', 'maintain');
    const issue = world.gh.addIssue({
      title: 'Step helpers',
      body: 'We need small helper modules, one per step.',
      login: 'mona',
    }).number;
    const commands: CommandRecord[] = [];
    const baselines: ProcessCost[] = [];
    for (const step of spec.steps) {
      world.freshCheckout();
      baselines.push(await timeNodeNoop(world.workspace, path.join(probeDir, 'noop')));
      const apiBefore = world.gh.requests.length;
      const modelBefore = world.model.requests.length;
      const event = comment(world, issue, step.login, step.body);
      const { run, cost } = await timeAction(
        world,
        event,
        { ...benchInputs, ...step.inputs },
        path.join(probeDir, 'action'),
      );
      const outcome = run.outputs.outcome ?? '(none)';
      if (outcome !== step.outcome) {
        throw new Error(
          `${spec.name}: ${step.command} ended "${outcome}", not "${step.outcome}" (exit ${run.code})\n${run.stdout.slice(-4000)}\n${run.stderr.slice(-2000)}`,
        );
      }
      commands.push({
        scenario: spec.name,
        command: step.command,
        outcome,
        cost,
        api: world.gh.requests.slice(apiBefore),
        model: world.model.requests.slice(modelBefore),
      });
    }
    const left = Object.entries(world.model.remaining()).filter(([, n]) => n > 0);
    if (left.length > 0)
      throw new Error(`${spec.name}: scripted replies left unused: ${JSON.stringify(Object.fromEntries(left))}`);
    return { commands, baselines };
  } finally {
    await world.close();
  }
}
