import { summarizeCalls, type CommandCalls } from './api-calls.js';
import { modelCost, type ModelCost } from './model-cost.js';
import type { ProcessCost } from './process-timing.js';
import type { ScenarioPlay } from './scenario-runs.js';
import { median, ratio } from './stats.js';

/**
 * Folds repeated plays of the scenarios into one figure per command: medians for timings (the
 * machine is shared and noisy), the maximum for peak memory, and the first play's request logs for
 * counts, after checking every play made the same calls and sent the same tokens.
 */

export interface TimingFigures {
  samples: number;
  wallMs: number;
  /** Self + children CPU time. */
  cpuMs: number;
  selfCpuMs: number;
  childCpuMs: number;
  maxRssMiB: number;
}

export interface CommandFigures extends TimingFigures {
  command: string;
  outcome: string;
  api: CommandCalls;
  /** Wall time minus the write-pacing floor: what the command costs apart from GitHub's etiquette. */
  netOfPacingMs: number;
  wallRatio: number;
  netOfPacingRatio: number;
  cpuRatio: number;
}

export interface ScenarioFigures {
  name: string;
  plays: number;
  /** Whether every play made the same GitHub calls and the same model requests with the same tokens. */
  repeatable: boolean;
  model: ModelCost;
  commands: CommandFigures[];
}

export function timingOf(costs: readonly ProcessCost[]): TimingFigures {
  return {
    samples: costs.length,
    wallMs: median(costs.map((c) => c.wallMs)),
    cpuMs: median(costs.map((c) => c.selfCpuMs + c.childCpuMs)),
    selfCpuMs: median(costs.map((c) => c.selfCpuMs)),
    childCpuMs: median(costs.map((c) => c.childCpuMs)),
    maxRssMiB: Math.max(...costs.map((c) => c.maxRssMiB)),
  };
}

function fingerprint(play: ScenarioPlay): string {
  return JSON.stringify(
    play.commands.map((c) => ({
      calls: summarizeCalls(c.api).sequence,
      tokens: c.model.map((r) => [r.model, r.usage?.prompt_tokens, r.usage?.prompt_tokens_details.cached_tokens]),
    })),
  );
}

export function aggregateScenario(
  name: string,
  plays: readonly ScenarioPlay[],
  baseline: TimingFigures,
): ScenarioFigures {
  const [first] = plays;
  if (first === undefined) throw new Error(`no plays of ${name}`);
  const commands = first.commands.map((command, i): CommandFigures => {
    const timing = timingOf(plays.map((p) => (p.commands[i] as (typeof p.commands)[number]).cost));
    const api = summarizeCalls(command.api);
    const netOfPacingMs = Math.max(0, timing.wallMs - api.pacingFloorMs);
    return {
      command: command.command,
      outcome: command.outcome,
      api,
      ...timing,
      netOfPacingMs,
      wallRatio: ratio(timing.wallMs, baseline.wallMs),
      netOfPacingRatio: ratio(netOfPacingMs, baseline.wallMs),
      cpuRatio: ratio(timing.cpuMs, baseline.cpuMs),
    };
  });
  const reference = fingerprint(first);
  return {
    name,
    plays: plays.length,
    repeatable: plays.every((p) => fingerprint(p) === reference),
    model: modelCost(first.commands.map((c) => c.model)),
    commands,
  };
}
