import { NOTIFICATION_PACING, WRITE_PACING } from '../src/github/write-pacing.js';
import { DEFAULT_OUTPUT_LIMIT } from '../src/tools/truncate.js';
import type { CommandFigures, ScenarioFigures } from './aggregate.js';
import type { LatencyFigures } from './latency.js';
import { perCycleCalls } from './api-calls.js';
import { approveReductions } from './call-purposes.js';
import type { NpmInstallFigures } from './npm-through-proxy.js';
import type { BenchResults } from './results.js';

/**
 * The issue's targets, judged from the figures of this run. A missed target names its gap and why,
 * in terms of the measured numbers, so the report stays true whatever the next run measures.
 */

export interface TargetResult {
  target: string;
  measured: string;
  met: boolean;
  /** For a missed target: how far off, and why. */
  gap: string | null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const times = (x: number) => `${x.toFixed(2)}×`;
const ms = (x: number) => `${Math.round(x)} ms`;
const mib = (x: number) => `${x.toFixed(1)} MiB`;
const seconds = (x: number) => `${(x / 1000).toFixed(1)} s`;

/** The whole run must stay under this: the issue's 10 minutes on a 2-core machine. */
const RUN_LIMIT_SECONDS = 600;
/** What the sealed network may cost an `npm ci`: at most this times the install without the proxy. */
const NPM_PROXY_LIMIT = 1.2;
/** Independent steps run at once: at most this share of the wall time of the same plan one step at a time… */
const LATENCY_WALL_LIMIT = 0.5;
/** …for at most this times its billed-equivalent prompt tokens. */
const LATENCY_BILLED_LIMIT = 1.15;

function scenario(results: BenchResults, name: string): ScenarioFigures {
  const found = results.scenarios.find((s) => s.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
}

function command(s: ScenarioFigures, name: string): CommandFigures {
  const found = s.commands.find((c) => c.command === name);
  if (!found) throw new Error(`no ${name} in ${s.name}`);
  return found;
}

function target(target: string, measured: string, met: boolean, gap: () => string): TargetResult {
  return { target, measured, met, gap: met ? null : gap() };
}

export function evaluateTargets(results: BenchResults): TargetResult[] {
  const out: TargetResult[] = [];

  // Model cost.
  const sessions = results.scenarios.flatMap((s) =>
    s.model.sessions.map((session, i) => ({ scenario: s.name, i, ...session })),
  );
  const judged = sessions.filter((s) => s.prefixEfficiency !== null);
  const worst = Math.min(...judged.map((s) => s.prefixEfficiency ?? 1));
  out.push(
    target(
      'Prefix efficiency ≥ 0.99 in every session',
      `lowest ${worst.toFixed(3)} over ${judged.length} sessions (${sessions.length - judged.length} with nothing cacheable)`,
      worst >= 0.99,
      () => {
        const low = judged.filter((s) => (s.prefixEfficiency ?? 1) < 0.99);
        return `${low.length} session(s) below: ${low.map((s) => `${s.scenario} #${s.i + 1} ${s.role} ${s.prefixEfficiency?.toFixed(3)}`).join(', ')}`;
      },
    ),
  );
  const twelve = results.costPerCycle?.points.find((p) => p.cycles === 12);
  for (const cycles of [3, 6]) {
    const s = scenario(results, `plan + ${cycles} cycles`);
    const hit = s.model.total.cacheHitRatio;
    out.push(
      target(
        `Cache-hit ratio ≥ 90 % on the ${cycles}-cycle scenario`,
        `${pct(hit)} (${s.model.total.cachedTokens} of ${s.model.total.promptTokens} prompt tokens)`,
        hit >= 0.9,
        () => {
          const { appendedTokens, roundingTokens, bestHitRatio } = s.model.ceiling;
          const prompt = s.model.total.promptTokens;
          return (
            `${pct(0.9 - hit)} short. Prefix efficiency is ${s.model.prefixEfficiency?.toFixed(3)}: the provider served every token these prompts could share, ` +
            `and the best any cache reaches on them is ${pct(bestHitRatio)}. The rest is new to the provider: ${appendedTokens} tokens (${pct(appendedTokens / prompt)}) ` +
            `are what the requests add (tool results, each session's summoning message past what an earlier one shared, and the first request of each role, which ` +
            `nothing earlier can serve in a scenario played alone: the planner's at /plan, the executor's at /approve, their models caching apart), and ${roundingTokens} ` +
            `(${pct(roundingTokens / prompt)}) are lost to the provider's 128-token reporting blocks and 1,024-token minimum. ` +
            `A higher ratio would take re-sending more: the ratio and the bill rise together, since what is re-sent is what the cache serves. The executor's session ` +
            `carries over for three cycles and then compacts (src/agents/executor-window.ts), which keeps the billed tokens per cycle flat at every published discount (section 1b); ` +
            `the ratio rises with run length${twelve ? ` (${pct(twelve.cacheHitRatio)} at 12 cycles)` : ''} and with a provider cache warmed by earlier runs.`
          );
        },
      ),
    );
  }
  const cost = results.costPerCycle;
  if (cost) {
    const rising = cost.verdicts.filter((v) => !v.flat);
    const show = (v: (typeof cost.verdicts)[number]) =>
      `${v.model} ${Object.entries(v.ratios)
        .map(([cycles, r]) => `${r >= 1 ? '+' : ''}${(100 * (r - 1)).toFixed(1)} % at ${cycles}`)
        .join(', ')}`;
    out.push(
      target(
        'Billed-equivalent prompt tokens per cycle flat or falling from 3 to 12 cycles, at every published cache discount',
        cost.verdicts.map(show).join('; ') + ' (against 3 cycles; flat: within +10 %)',
        rising.length === 0,
        () =>
          `${rising.map(show).join('; ')}. The per-cycle cost rises where the cached share is high: every request carries the plan, which has as many steps as ` +
          `the scenario has cycles, and the planner's messages carry the whole history (DESIGN.md), so a longer scenario's requests are larger whatever the session layout.`,
      ),
    );
  }

  // GitHub API calls.
  const plans = results.scenarios.filter((s) => s.name !== 'executor-only').map((s) => command(s, '/plan'));
  const worstPlan = Math.max(...plans.map((c) => c.api.total));
  out.push(
    target(
      '/plan: at most 6 GitHub API calls',
      `${worstPlan} (${plans[0]?.api.reads} reads, ${plans[0]?.api.writes} writes)`,
      worstPlan <= 6,
      () => `${worstPlan - 6} over`,
    ),
  );
  const approveOne = command(scenario(results, 'plan + 1 cycle'), '/approve');
  const approveSix = command(scenario(results, 'plan + 6 cycles'), '/approve');
  const perCycle = perCycleCalls(approveOne.api, approveSix.api, 6);
  const perCycleTotal = Object.values(perCycle).reduce((sum, k) => sum + k, 0);
  const fixed = approveOne.api.total - perCycleTotal;
  const reductions = approveReductions(approveOne.api, perCycle);
  const savedFixed = reductions.filter((r) => !r.perCycle).reduce((sum, r) => sum + r.saves, 0);
  const savedPerCycle = reductions.filter((r) => r.perCycle).reduce((sum, r) => sum + r.saves, 0);
  for (const cycles of [1, 3, 6]) {
    const s = scenario(results, `plan + ${cycles} cycle${cycles === 1 ? '' : 's'}`);
    const approve = command(s, '/approve');
    const limit = 10 + cycles;
    out.push(
      target(
        `/approve with ${cycles} cycle${cycles === 1 ? '' : 's'}: at most ${limit} calls`,
        `${approve.api.total} (${approve.api.reads} reads, ${approve.api.writes} writes, ${approve.api.graphql} GraphQL)`,
        approve.api.total <= limit,
        () =>
          `${approve.api.total - limit} over: ${fixed} fixed calls against 10, and ${perCycleTotal} per cycle against 1 ` +
          `(${Object.entries(perCycle)
            .map(([name, k]) => `${k}× \`${name}\``)
            .join(', ')}). The changes listed under "What would bring /approve to 10 + 1 per cycle" ` +
          `would leave ${fixed - savedFixed} + ${perCycleTotal - savedPerCycle} per cycle = ${fixed - savedFixed + (perCycleTotal - savedPerCycle) * cycles} here.`,
      ),
    );
  }
  const refusal = command(scenario(results, 'plan only'), 'refusal');
  out.push(
    target(
      'A refusal: at most 3 calls',
      `${refusal.api.total} (${refusal.api.reads} reads, ${refusal.api.writes} writes)`,
      refusal.api.total <= 3,
      () => `${refusal.api.total - 3} over`,
    ),
  );

  // Overhead.
  const baseline = results.baseline;
  const ignored = command(scenario(results, 'plan only'), 'ignored');
  out.push(
    target(
      'Cold start on an ignored event ≤ 3× `node -e 0`',
      `${times(ignored.wallRatio)} (${ms(ignored.wallMs)} vs ${ms(baseline.wallMs)}; CPU ${times(ignored.cpuRatio)})`,
      ignored.wallRatio <= 3,
      () =>
        `${times(ignored.wallRatio - 3)} over. The ignored event makes no call and runs no git; the time is starting node and loading what dist/index.js imports before it decides ` +
        `(${(results.bundle.ignoredPathBytes / 1024).toFixed(1)} KiB: ${results.bundle.ignoredPathFiles.join(', ')}; ${ms(ignored.selfCpuMs)} of CPU against ${ms(baseline.selfCpuMs)} for node -e 0). ` +
        `src/index.ts decides "ignored" with src/triage.ts, which imports no dependency, and loads main.ts's chunk only for a command: look for a dependency that crept into that path.`,
    ),
  );
  const broken = results.brokenStart;
  if (broken) {
    out.push(
      target(
        'A broken runner environment fails within 1.5× `node -e 0`',
        `${times(broken.wallRatio)} (${ms(broken.start.wallMs)} vs ${ms(broken.baseline.wallMs)}; CPU ${times(broken.cpuRatio)})`,
        broken.wallRatio <= 1.5,
        () =>
          `${times(broken.wallRatio - 1.5)} over. src/entry/index.ts checks the runner environment and the event file with src/entry/runner-check.ts, ` +
          `which imports no dependency, and reports the failure itself (src/entry/early-failure.ts) before main.ts's chunk loads: look for an import that crept into that path.`,
      ),
    );
  }
  const planCmd = command(scenario(results, 'plan + 3 cycles'), '/plan');
  const planAll = plans;
  const planWall = planCmd.wallRatio;
  out.push(
    target(
      '`/plan` overhead ≤ 5× `node -e 0` (zero-latency model)',
      `wall ${times(planWall)} (${ms(planCmd.wallMs)}); net of write pacing ${times(planCmd.netOfPacingRatio)}; CPU ${times(planCmd.cpuRatio)}`,
      planWall <= 5,
      () =>
        `${times(planWall - 5)} over on wall time. ${ms(planCmd.api.pacingFloorMs)} of the ${ms(planCmd.wallMs)} is write pacing (src/github/write-pacing.ts, over ${planCmd.api.writes} writes: ` +
        `past a run's first ${WRITE_PACING.burst} writes and ${NOTIFICATION_PACING.burst} notifying ones, one a second as GitHub asks of many writes; no faster code removes that). Net of it, /plan takes ${ms(planCmd.netOfPacingMs)} = ${times(planCmd.netOfPacingRatio)}: ` +
        `about ${ms(ignored.wallMs)} of that is node starting and the entry's first look (the ignored row), the rest is loading main.ts's chunk, ${planCmd.api.total} API round trips, ` +
        `the planner's model requests and git (${ms(planCmd.childCpuMs)} of child CPU). The chunk is the floor: ${(results.bundle.totalBytes / 1024 / 1024).toFixed(1)} MiB of dist/ in all, most of it ` +
        `the openai client, zod and yaml, which /plan needs (they talk to the model and validate every boundary) and which are evaluated before the first request; ` +
        `undici, the MCP SDK and the proxy support are already kept off this path, and each git process /plan runs costs a few ms more. ` +
        `5× would mean dropping those libraries, which plangate will not trade for a fraction of a second on a job that then waits seconds to minutes for its model. ` +
        `Over all ${planAll.length} /plan scenarios the wall ratio ranges ${times(Math.min(...planAll.map((c) => c.wallRatio)))}–${times(Math.max(...planAll.map((c) => c.wallRatio)))}.`,
    ),
  );

  // The sealed network.
  const npm = results.npmProxy;
  if (npm) {
    const worst = Math.max(...npm.installs.map((i) => i.ratio));
    const show = (i: NpmInstallFigures) =>
      `${i.protocol.toUpperCase()} (${i.through}): ${times(i.ratio)} (rounds ${i.roundRatios.map(times).join(', ')}; ` +
      `medians ${ms(i.proxiedMedian.wallMs)} vs ${ms(i.directMedian.wallMs)}; CPU ${times(i.cpuRatio)}, the proxy's own ${ms(i.proxyCpuMs)} = ${pct(i.proxyCpuShare)})`;
    out.push(
      target(
        `\`npm ci\` through the egress proxy ≤ ${times(NPM_PROXY_LIMIT)} direct`,
        `${npm.packages} packages from a registry on loopback; ${npm.installs.map(show).join('; ')}`,
        worst <= NPM_PROXY_LIMIT,
        () =>
          `${times(worst - NPM_PROXY_LIMIT)} over. ` +
          npm.installs
            .map(
              (i) =>
                `Over ${i.protocol}, the registry accepted ${i.registryConnections.proxied} connections per install through the proxy against ` +
                `${i.registryConnections.direct} direct, and the proxy resolved and vetted the destination ${i.proxyLookups} times`,
            )
            .join('; ') +
          '. Each of those is a lookup and a connection, and plain HTTP forwards one request per upstream connection (src/sandbox/network/egress-forward.ts). ' +
          'Compare the CPU ratio and the rounds: a CPU ratio near 1 and a spread of rounds wider than the gap are the shared machine, not the proxy.',
      ),
    );
  }

  if (results.latency) out.push(...latencyTargets(results.latency));

  // Repository scale.
  const largest = results.scale.at(-1);
  if (largest) {
    const searches = largest.tools.filter((t) => t.name.startsWith('search'));
    const worstSearch = Math.max(...searches.map((t) => t.ratio));
    out.push(
      target(
        `\`search\` ≤ 1.5× raw \`git grep\` on ${largest.files} files`,
        searches.map((t) => `${t.name}: ${times(t.ratio)} (${ms(t.toolMs)} vs ${ms(t.rawMs)})`).join('; '),
        worstSearch <= 1.5,
        () =>
          `${times(worstSearch - 1.5)} over. search also searches new untracked files (git grep --untracked walks the working tree), which plain git grep skips; ` +
          `against the same git command it is ${searches.map((t) => times(t.likeForLikeRatio ?? Number.NaN)).join(' / ')}.`,
      ),
    );
    const list = largest.tools.find((t) => t.name === 'list_files');
    if (list) {
      const like = list.likeForLikeRatio ?? Number.POSITIVE_INFINITY;
      const afterChange = list.afterChangeMs ?? Number.NaN;
      out.push(
        target(
          `\`list_files\` ≤ 1.5× \`git ls-files --cached --others --exclude-standard\` on ${largest.files} files`,
          `${times(like)} (${ms(list.toolMs)} vs ${ms(list.likeForLikeMs ?? Number.NaN)}); first call after a tree change ${ms(afterChange)} ` +
            `(${times(afterChange / (list.likeForLikeMs ?? Number.NaN))}); plain \`git ls-files\`, the index alone, ${ms(list.rawMs)}`,
          like <= 1.5,
          () =>
            `${times(like - 1.5)} over the git command that lists the same files. list_files reads the index on every call and keeps git's walk for ` +
            `untracked files until a tool changes the tree (src/tools/file-listing.ts), then merges the two sorted lists only as far as it shows paths ` +
            `and stats only those. What is left is git reading the index (${ms(list.rawMs)}) and spawning it; look for a full pass over the paths that crept in.`,
        ),
      );
    }
    const bounded = results.scale.flatMap((s) =>
      s.tools.map((t) => ({
        files: s.files,
        t,
        ok:
          t.ok &&
          t.output.chars <= DEFAULT_OUTPUT_LIMIT &&
          !t.output.cutInMiddle &&
          (t.output.notice !== null || t.complete),
      })),
    );
    const unbounded = bounded.filter((b) => !b.ok);
    out.push(
      target(
        'Tool output bounded, with a "narrow your query" notice',
        `largest output ${Math.max(...bounded.map((b) => b.t.output.chars))} characters (limit ${DEFAULT_OUTPUT_LIMIT}); ${bounded.filter((b) => b.t.output.notice !== null).length} of ${bounded.length} calls capped with their notice, none cut in the middle`,
        unbounded.length === 0,
        () =>
          `${unbounded.map((b) => `${b.t.name} at ${b.files} files (${b.t.output.chars} characters${b.t.output.cutInMiddle ? ', cut in the middle' : ''}${b.t.output.notice ? '' : ', no notice'})`).join('; ')}`,
      ),
    );
  }
  const rss = [
    ...results.scenarios.flatMap((s) => s.commands.map((c) => ({ what: `${s.name} ${c.command}`, mib: c.maxRssMiB }))),
    ...results.scale.map((s) => ({ what: `/plan on ${s.files} files`, mib: s.plan.maxRssMiB })),
  ];
  const peak = rss.reduce((a, b) => (b.mib > a.mib ? b : a));
  out.push(
    target(
      'Peak RSS of the action ≤ 200 MB',
      `${mib(peak.mib)} (${peak.what})`,
      peak.mib * 1.048576 <= 200,
      () => `${(peak.mib * 1.048576 - 200).toFixed(1)} MB over`,
    ),
  );

  // Growth.
  const prompt = results.growth.cycles.find((g) => g.label.startsWith('prompt tokens'));
  if (prompt) {
    const uncached = results.growth.cycles.find((g) => g.label.startsWith('uncached'));
    out.push(
      target(
        'Prompt tokens grow no worse than linearly in cycles',
        `${prompt.points.map((p) => `${p.y} at ${p.x}`).join(', ')}: ${prompt.verdict} (marginal ratio ${prompt.marginalRatio.toFixed(2)})`,
        prompt.verdict === 'linear or better',
        () =>
          `each added cycle costs ${prompt.marginalRatio.toFixed(2)}× the prompt tokens the first added cycles did. Every request re-sends its session; the executor's ` +
          `session carries over for three cycles before it compacts (src/agents/executor-window.ts), so within a window each cycle re-sends the ones before it, and ` +
          `every request carries the plan (one step per cycle here) and the planner's the whole history. What is billed at full price is the uncached part: ` +
          `${uncached ? `${uncached.points.map((p) => `${p.y} at ${p.x}`).join(', ')}, ${uncached.verdict} (marginal ratio ${uncached.marginalRatio.toFixed(2)})` : 'n/a'}. ` +
          `What a cycle costs once cached tokens are priced is in section 1b.`,
      ),
    );
  }
  const judgedTools = results.growth.size.filter((g) => g.label.endsWith('tool call') && g.notJudged === undefined);
  for (const g of judgedTools) {
    const raw = results.growth.size.find((r) => r.raw === true && r.tool === g.tool);
    const ratios = results.scale
      .map((s) => s.tools.find((t) => t.name === g.tool))
      .map((t) => (t ? times(t.ratio) : 'n/a'));
    out.push(
      target(
        `${g.label}: latency no worse than linear in repository size`,
        `${g.points.map((p) => `${ms(p.y)} at ${p.x}`).join(', ')}: ${g.verdict} (last/first cost per file ${g.marginalRatio.toFixed(2)})`,
        g.verdict === 'linear or better',
        () =>
          `each file added between 10k and 50k costs ${g.marginalRatio.toFixed(2)}× what one did between 1k and 10k. ` +
          (raw === undefined
            ? ''
            : `The raw command alone: ${raw.points.map((p) => `${ms(p.y)} at ${p.x}`).join(', ')} (${raw.marginalRatio.toFixed(2)}, ${raw.verdict}); tool / raw: ` +
              `${ratios.join(', ')} at ${results.scale.map((s) => s.files).join(', ')} files. ` +
              (raw.verdict === 'worse than linear'
                ? `git's own cost per file rises at 50k files on this machine (a walk and reads over 2,000 directories and ~60 MB), and the tool follows it; ` +
                  'no processing of git’s output in src/tools can make git itself linear.'
                : 'git grows linearly, so the extra growth is in the tool’s own processing of git’s output.')),
      ),
    );
  }
  out.push(
    target(
      `\`npm run bench\` under 10 minutes on ${results.machine.nproc} cores`,
      `${(results.wallSeconds / 60).toFixed(1)} min`,
      results.wallSeconds < RUN_LIMIT_SECONDS,
      () => `${((results.wallSeconds - RUN_LIMIT_SECONDS) / 60).toFixed(1)} min over; lower PLANGATE_BENCH_REPEAT`,
    ),
  );
  // Provider faults: the retry policy must outlast a provider's overload episode, within its cap.
  const five = results.recovery?.find((f) => f.failures === 5 && f.kind === 'backoff');
  if (five) {
    out.push(
      target(
        'One model request recovers from 5 transient failures with the defaults, waiting ≤ 2 min',
        `${five.recovered ? 'recovered' : 'did not recover'} after ${five.requests} requests, ${(five.waitedMs / 1000).toFixed(1)} s of waits`,
        five.recovered && five.waitedMs <= 120_000,
        () =>
          five.recovered ? 'the waits exceeded the 2 min cap' : 'the retries ran out before the provider answered',
      ),
    );
  }
  return out;
}

/** The latency scenario's two targets: wall time, and what running steps apart costs in tokens. */
function latencyTargets(l: LatencyFigures): TargetResult[] {
  const { sequential: seq, parallel: par } = l;
  const waitRatio = par.modelWaitMs / seq.modelWaitMs;
  const hostWork = (r: LatencyFigures['sequential']) => r.wallMs - r.modelWaitMs;
  const [s0, p0] = [seq.samples[0], par.samples[0]];
  const requests = (r: typeof s0) => (r ? `${r.requests.planner} + ${r.requests.executor}` : 'n/a');
  const ranAs = (r: typeof s0) => (r ? ranAsText(r.ranTogether) : 'n/a');
  // With the host work measured, what the ratio would be were each request `perRequestMs` long.
  const at = (perRequestMs: number) => {
    const scale = perRequestMs / l.delayMs;
    return (par.modelWaitMs * scale + hostWork(par)) / (seq.modelWaitMs * scale + hostWork(seq));
  };
  const wall = target(
    `Latency scenario: independent steps at once ≤ ${LATENCY_WALL_LIMIT}× the wall time of the same plan one step at a time`,
    `${times(l.wallRatio)} (rounds ${l.roundRatios.map(times).join(', ')}; /approve medians ${seconds(par.wallMs)} vs ${seconds(seq.wallMs)} ` +
      `at ${l.delayMs} ms a model request); steps ran as ${ranAs(p0)}, executor requests in flight at most ${par.peakExecutorInFlight} ` +
      `(one at a time: ${seq.peakExecutorInFlight}); waiting on the model ${seconds(par.modelWaitMs)} vs ${seconds(seq.modelWaitMs)} (${times(waitRatio)})`,
    l.wallRatio <= LATENCY_WALL_LIMIT,
    () =>
      par.peakExecutorInFlight <= 1
        ? `${times(l.wallRatio - LATENCY_WALL_LIMIT)} over. The action ran the ordered plan's steps one at a time (${ranAs(p0)}): never more than one executor ` +
          `request was in flight, and the plans made ${requests(p0)} and ${requests(s0)} requests (planner + executor), so the ratio is the host's and the ` +
          `machine's, not the model's. The host runs a plan's independent steps together only where it can give each a work tree and a sandbox view of its ` +
          `own (src/run/step-batch.ts): look for what kept them apart.`
        : `${times(l.wallRatio - LATENCY_WALL_LIMIT)} over. The steps ran together (${ranAs(p0)}, up to ${par.peakExecutorInFlight} executor requests in flight) and the ` +
          `time spent waiting on the model fell to ${times(waitRatio)}; what is left is the host's own work, wall time less model waiting: ${seconds(hostWork(par))} ` +
          `for the ordered plan against ${seconds(hostWork(seq))} one step at a time (the action starting, git, commits and merges, pushes, the progress comment; ` +
          `the ordered /approve made ${p0?.apiCalls ?? 'n/a'} GitHub calls against ${s0?.apiCalls ?? 'n/a'}, which write pacing spreads over at least ` +
          `${seconds(p0?.pacingFloorMs ?? 0)} against ${seconds(s0?.pacingFloorMs ?? 0)}). ` +
          `That work does not shrink with the model's speed: with it as measured, the ratio would be ${times(at(2000))} at 2 s a request and ` +
          `${times(at(10_000))} at 10 s, a provider's usual range for an agent's turn.`,
  );
  const worst = Math.max(...Object.values(l.billedRatios));
  const show = Object.entries(l.billedRatios)
    .map(([model, r]) => `${model} ${times(r)}`)
    .join(', ');
  const billed = target(
    `Latency scenario: billed-equivalent prompt tokens of independent steps at once ≤ ${LATENCY_BILLED_LIMIT}× one step at a time, at every published cache discount`,
    `${show} (prompt ${p0?.promptTokens ?? 'n/a'} vs ${s0?.promptTokens ?? 'n/a'}, cached ${p0?.cachedTokens ?? 'n/a'} vs ${s0?.cachedTokens ?? 'n/a'}; ` +
      `requests ${requests(p0)} vs ${requests(s0)}, planner + executor)`,
    worst <= LATENCY_BILLED_LIMIT,
    () =>
      `${times(worst - LATENCY_BILLED_LIMIT)} over at the worst discount. Each step runs in a session of its own, whose first request the provider can serve only up to ` +
      `the prefix the sessions share (system prompt, tools, plan, history); sessions started together cannot serve one another, as none has been answered when the ` +
      `others are sent. Compare the cached tokens: what the ordered plan sends uncached beyond the other is what running steps apart costs.`,
  );
  return [wall, billed];
}

/** Groups of steps that ran together, in the order they ran: `1 → {2, 3, 4} → 5`. */
export function ranAsText(groups: readonly (readonly number[])[]): string {
  return groups.map((g) => (g.length > 1 ? `{${g.join(', ')}}` : `${g[0]}`)).join(' → ');
}
