import { NOTIFICATION_PACING, WRITE_PACING } from '../src/github/write-pacing.js';
import type { CommandFigures, ScenarioFigures } from './aggregate.js';
import { perCycleCalls } from './api-calls.js';
import { approveReductions, CALL_PURPOSE } from './call-purposes.js';
import type { GrowthSeries } from './growth-figures.js';
import { recoverySection } from './fault-recovery.js';
import type { CostPerCycle } from './cost-per-cycle.js';
import type { LatencyFigures, LatencyRunFigures } from './latency.js';
import type { BenchResults } from './results.js';
import { ranAsText } from './targets.js';

/**
 * bench/RESULTS.md: every figure of the run as tables, the targets with met / not met, the gap and
 * why, and enough about the machine and the method to reproduce or distrust each number.
 */

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number) => `${Math.round(x)} ms`;
const times = (x: number | null) => (x === null || Number.isNaN(x) ? 'n/a' : `${x.toFixed(2)}×`);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

function modelSection(scenarios: readonly ScenarioFigures[]): string {
  const rows: string[][] = [];
  for (const s of scenarios) {
    for (const [role, usage] of [...Object.entries(s.model.roles), ['total', s.model.total] as const]) {
      if (!usage) continue;
      rows.push([
        role === 'total' ? `**${s.name}**` : s.name,
        role,
        n(usage.requests),
        n(usage.promptTokens),
        n(usage.cachedTokens),
        n(usage.completionTokens),
        pct(usage.cacheHitRatio),
        role === 'total'
          ? `${s.model.prefixEfficiency?.toFixed(3) ?? 'n/a'} (lowest session ${Math.min(...s.model.sessions.map((x) => x.prefixEfficiency ?? 1)).toFixed(3)})`
          : '',
        role === 'total' ? pct(s.model.ceiling.bestHitRatio) : '',
      ]);
    }
  }
  const sessionRows = scenarios.flatMap((s) =>
    s.model.sessions.map((x, i) => [
      s.name,
      `${i + 1}`,
      x.role,
      `${x.requests}`,
      n(x.reported),
      n(x.achievable),
      x.prefixEfficiency?.toFixed(3) ?? 'n/a (nothing cacheable)',
    ]),
  );
  return [
    '## 1. Model cost per scenario',
    '',
    'Scripted scenarios against the bundled action (commands run as the Actions runner starts them), the scripted model emulating a provider prompt cache ' +
      '(hits from 1,024 shared tokens, reported in 128-token blocks, 4 characters per token). Tokens cover every action run of the scenario (/plan, then /approve). ' +
      '*Prefix efficiency* = cached tokens reported / cached tokens an ideal provider cache would report for what was sent (for each request, the longest prefix it shares ' +
      "with any earlier request of its role, and for a request that continues a session at least that session's whole previous request). A provider serves only a prefix " +
      'it has seen, so the figure is at most 1 by construction; below 1 means a session rewrote what it had sent, or the provider served less than it could. ' +
      '*Best possible* = that achievable cache as a share of all prompt tokens.',
    '',
    table(
      [
        'scenario',
        'role',
        'requests',
        'prompt',
        'cached',
        'completion',
        'cache hit',
        'prefix efficiency',
        'best possible',
      ],
      rows,
    ),
    '',
    '<details><summary>Per session</summary>',
    '',
    table(['scenario', 'session', 'role', 'requests', 'cached', 'achievable', 'prefix efficiency'], sessionRows),
    '',
    '</details>',
  ].join('\n');
}

function costSection(cost: CostPerCycle | undefined): string {
  if (!cost) return '## 1b. Cost per cycle\n\n(not measured in this run)';
  const rows = cost.points.map((p) => [
    `${p.cycles}`,
    n(p.requests),
    n(p.promptTokens),
    n(p.cachedTokens),
    pct(p.cacheHitRatio),
    ...cost.discounts.map((d) => n(p.billedPerCycle[d.model] ?? Number.NaN)),
    p.matchesBundled === null ? 'no bundled scenario' : p.matchesBundled ? 'same tokens' : 'DIFFERS',
  ]);
  const verdicts = cost.verdicts.map(
    (v) =>
      `${v.model}: ${Object.entries(v.ratios)
        .map(([cycles, r]) => `${cycles} cycles ${(100 * (r - 1)).toFixed(1)} %`)
        .join(', ')} (${v.flat ? 'flat or falling' : 'rising'})`,
  );
  return [
    '## 1b. Cost per cycle',
    '',
    'The cycle scenarios at 1, 3, 6 and 12 cycles played in process (bench/in-process-cycles.ts: the same team, scripts, sample repository and settings as the action; ' +
      'the last column checks them against the bundled scenarios of section 1). *Billed per cycle* = (uncached prompt tokens + cached ones at the cached share of the input ' +
      'price) / cycles, for the whole scenario, /plan included; completion tokens are the script’s and left out. The executor’s session carries over for ' +
      'three cycles, then a compacted session opens (src/agents/executor-window.ts).',
    '',
    table(
      [
        'cycles',
        'requests',
        'prompt',
        'cached',
        'cache hit',
        ...cost.discounts.map((d) => `billed per cycle, ${d.model}`),
        'bundled action',
      ],
      rows,
    ),
    '',
    `Change of the billed tokens per cycle against 3 cycles: ${verdicts.join('; ')}.`,
    '',
    'Cache discounts (cached input price as a share of the uncached one, from src/config/prices.ts):',
    '',
    table(
      ['provider', 'model', 'cached share', 'source'],
      cost.discounts.map((d) => [d.provider, d.model, pct(d.cachedShare), d.source]),
    ),
  ].join('\n');
}

function latencySection(l: LatencyFigures | undefined, cost: CostPerCycle | undefined): string {
  const title = '## 1c. Latency: independent steps at once';
  if (!l) return `${title}\n\n(not measured in this run)`;
  const seconds = (x: number) => `${(x / 1000).toFixed(1)} s`;
  const models = (cost?.discounts ?? []).map((d) => d.model);
  const row = (name: string, r: LatencyRunFigures): string[] => {
    const first = r.samples[0];
    return [
      name,
      first ? ranAsText(first.ranTogether) : 'n/a',
      r.samples.map((x) => seconds(x.wallMs)).join(', '),
      `**${seconds(r.wallMs)}**`,
      seconds(r.modelWaitMs),
      seconds(r.wallMs - r.modelWaitMs),
      seconds(r.cpuMs),
      first ? `${first.requests.planner} + ${first.requests.executor}` : 'n/a',
      `${r.peakExecutorInFlight}`,
      n(first?.promptTokens ?? Number.NaN),
      n(first?.cachedTokens ?? Number.NaN),
      ...models.map((m) => n(first?.billed[m] ?? Number.NaN)),
      first ? `${first.apiCalls} (${ms(first.pacingFloorMs)})` : 'n/a',
    ];
  };
  const { sequential: seq, parallel: par } = l;
  const [s0, p0] = [seq.samples[0], par.samples[0]];
  const of = (pick: (r: LatencyRunFigures) => number) => times(pick(par) / pick(seq));
  const ratios = [
    '**ratio**',
    '',
    l.roundRatios.map((r) => times(r)).join(', '),
    `**${times(l.wallRatio)}** (median of the rounds)`,
    of((r) => r.modelWaitMs),
    of((r) => r.wallMs - r.modelWaitMs),
    of((r) => r.cpuMs),
    times(l.requestRatio),
    '',
    s0 && p0 ? times(p0.promptTokens / s0.promptTokens) : 'n/a',
    s0 && p0 ? times(p0.cachedTokens / s0.cachedTokens) : 'n/a',
    ...models.map((m) => `**${times(l.billedRatios[m] ?? Number.NaN)}**`),
    '',
  ];
  const waitShare = seq.modelWaitMs / seq.wallMs;
  const perHundredMs = (l.rounds * (seq.modelWaitMs + par.modelWaitMs)) / l.delayMs / 10;
  return [
    title,
    '',
    `A plan of ${l.steps} steps: step 1; steps 2, 3 and 4, each \`after: [1]\` and each writing a file of its own; step 5 \`after: [2, 3, 4]\`. ` +
      'Played through the bundled action twice, as the cycle scenarios are (bench/latency-scenario.ts, bench/latency.ts): with that order, and as the same plan without ' +
      '`after`, which runs one step at a time. At /plan the planner looks around and stages the plan and the first directive; at /approve each step’s executor reads the ' +
      'file its step builds on, writes its own, runs `node --check` on it and stages result and outcome; the plan without order hands back to the planner after every step ' +
      '(it reads the last file and stages the next directive), as every plan without `after` does; the planner writes the summary. Each run is checked to have landed ' +
      "every step's file on its branch, with four executor turns a step and its `node --check` passed. The action runs with the benchmark's inputs, so at most the " +
      'default `parallel-steps` run at once.',
    '',
    `The scripted model waits **${l.delayMs} ms** before each answer: real waiting on its side, so requests sent together are in flight together. Its emulated cache ` +
      'serves a prompt only once it has answered it, so sessions started together do not serve one another. It answers every request from what the request holds (the step ' +
      'its summoning message hands over, the turns the session took since, the `Stage:` line, the results the planner is shown), never from the order requests arrive in, ' +
      `so sessions that run at once are answered right whoever asks first. Why ${l.delayMs} ms: providers take from under a second (a short completion) to tens of ` +
      'seconds a request (a long completion, a reasoning model); a tool-calling turn of the default models on a real repository takes a few seconds, so this is a ' +
      'typical request, not a slow one: the host’s own work still weighs against the waiting that running steps together saves. It makes waiting ' +
      `${pct(waitShare)} of the plan run one step at a time (${seconds(seq.modelWaitMs)} of ${seconds(seq.wallMs)}${waitShare < 0.5 ? '; less than half: the machine was slow in this run' : ''}) ` +
      `and kept the scenario to ${l.wallSeconds.toFixed(0)} s of this run; each 100 ms more a request would add about ${perHundredMs.toFixed(0)} s to its /approve runs alone, and \`npm run bench\` ` +
      'must stay under 10 minutes on 2 cores. Where the wall-time target is missed, its gap gives the ratio the measured host work would leave at slower models.',
    '',
    (l.rounds === 1
      ? 'One round (a round of model waiting is minutes long): both plans back to back, each in a world of its own, the plan without order first, and the judged ' +
        "wall-time figure is that round's ratio; the model's waits are exact, so what varies between runs is the host's work alone. "
      : `${l.rounds} rounds; each plays both plans back to back in a world of their own, the order flipped every round, and the judged wall-time figure is the median of ` +
        `the rounds' ratios. Requests and tokens are the first round's (${seq.repeatable && par.repeatable ? 'the same in every round: checked' : 'NOT the same in every round: see results.json'}). `) +
      '*Steps ran as*: the steps whose executor requests were in flight at the same time, group after group (first round, from the model’s log); ' +
      '*waiting on the model*: the time at least one model request was in flight; *host work*: wall time less that (git, commits and merges, GitHub calls, the action ' +
      'starting); *in flight*: the most executor requests the model had received and not yet answered at one instant (from its log). *Billed* = uncached prompt tokens + cached ' +
      'ones at the cached share of the input price (section 1b’s discounts), over every request of the /approve run. The last column: GitHub API calls of the /approve and the ' +
      'least time write pacing spreads them over.',
    '',
    table(
      [
        'plan',
        'steps ran as',
        '/approve wall per round',
        'median',
        'waiting on the model',
        'host work',
        'CPU',
        'requests (planner + executor)',
        'executor requests in flight at most',
        'prompt',
        'cached',
        ...models.map((m) => `billed, ${m}`),
        'GitHub calls (pacing floor)',
      ],
      [row('one step at a time (no `after`)', seq), row('independent steps at once (`after`)', par), ratios],
    ),
  ].join('\n');
}

function callsSection(results: BenchResults): string {
  const rows: string[][] = [];
  const limits: Record<string, (cycles: number) => number> = {
    '/plan': () => 6,
    '/approve': (c) => 10 + c,
    refusal: () => 3,
  };
  for (const s of results.scenarios) {
    const cycles = Number(/(\d+) cycle/.exec(s.name)?.[1] ?? 0);
    for (const c of s.commands) {
      const limit = s.name === 'executor-only' ? undefined : limits[c.command]?.(cycles);
      rows.push([
        s.name,
        c.command,
        c.outcome,
        `${c.api.total}`,
        `${c.api.reads}`,
        `${c.api.writes}`,
        `${c.api.graphql}`,
        limit === undefined ? '' : `≤ ${limit}`,
      ]);
    }
  }
  const listing = (c: CommandFigures) =>
    table(
      ['call', 'kind', 'count', 'what for'],
      c.api.calls.map((g) => [`\`${g.name}\``, g.kind, `${g.count}`, CALL_PURPOSE[g.name] ?? '']),
    );
  const plan = results.scenarios.find((s) => s.name === 'plan only');
  const one = results.scenarios.find((s) => s.name === 'plan + 1 cycle');
  const three = results.scenarios.find((s) => s.name === 'plan + 3 cycles');
  const approve1 = one?.commands.find((c) => c.command === '/approve');
  const approve3 = three?.commands.find((c) => c.command === '/approve');
  const sections = [
    '## 2. GitHub API calls per command',
    '',
    "Counted from the GitHub emulator's request log. Reads: GET and GraphQL queries; writes: everything else. Every play of a scenario made the same calls " +
      `(${results.scenarios.every((s) => s.repeatable) ? 'checked: identical in all plays' : 'NOT identical in all plays: see results.json'}).`,
    '',
    table(['scenario', 'command', 'outcome', 'calls', 'reads', 'writes', 'GraphQL', 'target'], rows),
  ];
  for (const [title, c] of [
    ['/plan', plan?.commands.find((x) => x.command === '/plan')],
    ['refusal (an outsider’s /approve)', plan?.commands.find((x) => x.command === 'refusal')],
    ['/approve, 1 cycle', approve1],
    ['/approve, 3 cycles', approve3],
  ] as const) {
    if (c) sections.push('', `### Every call of ${title}`, '', listing(c));
  }
  const approve6 = results.scenarios
    .find((s) => s.name === 'plan + 6 cycles')
    ?.commands.find((c) => c.command === '/approve');
  if (approve1 && approve6) {
    sections.push(
      '',
      '<details><summary>/approve with 1 cycle, in order</summary>',
      '',
      approve1.api.sequence.map((name, i) => `${i + 1}. \`${name}\``).join('\n'),
      '',
      '</details>',
    );
    const perCycle = perCycleCalls(approve1.api, approve6.api, 6);
    const perCycleTotal = Object.values(perCycle).reduce((sum, k) => sum + k, 0);
    const fixed = approve1.api.total - perCycleTotal;
    const reductions = approveReductions(approve1.api, perCycle);
    const savedFixed = reductions.filter((r) => !r.perCycle).reduce((sum, r) => sum + r.saves, 0);
    const savedPerCycle = reductions.filter((r) => r.perCycle).reduce((sum, r) => sum + r.saves, 0);
    sections.push(
      '',
      '### What would bring /approve to 10 + 1 per cycle',
      '',
      `From the 1- and 6-cycle request logs, /approve makes ${fixed} fixed calls plus ${perCycleTotal} per cycle ` +
        `(${Object.entries(perCycle)
          .map(([name, k]) => `${k}× \`${name}\``)
          .join(', ')}); the target is 10 + 1. ` +
        `These changes, all in src/flows and src/github (not changed by the benchmark work), would leave ${fixed - savedFixed} + ${perCycleTotal - savedPerCycle} per cycle:`,
      '',
      table(
        ['calls now', 'change', 'saves', 'trade-off'],
        reductions.map((r) => [
          `${r.calls.map((c) => `\`${c}\``).join(' + ')}: ${r.now}${r.perCycle ? ' per cycle' : ' (fixed part)'}`,
          r.change,
          `${r.saves}${r.perCycle ? ' per cycle' : ''}`,
          r.tradeOff,
        ]),
      ),
    );
  }
  return sections.join('\n');
}

function overheadSection(results: BenchResults): string {
  const b = results.baseline;
  const rows = results.scenarios.flatMap((s) =>
    s.commands.map((c) => [
      s.name,
      c.command,
      `${c.samples}`,
      ms(c.wallMs),
      times(c.wallRatio),
      ms(c.api.pacingFloorMs),
      times(c.netOfPacingRatio),
      `${ms(c.cpuMs)} (${ms(c.childCpuMs)} children)`,
      times(c.cpuRatio),
      `${c.maxRssMiB.toFixed(1)} MiB`,
    ]),
  );
  return [
    '## 3. Action overhead',
    '',
    `Baseline: \`node -e 0\` started exactly like the action (same binary, spawn call, environment shape and probe), timed right before every command: ` +
      `median wall ${ms(b.wallMs)}, CPU ${ms(b.cpuMs)}, peak RSS ${b.maxRssMiB.toFixed(1)} MiB over ${b.samples} runs. ` +
      `Model and GitHub emulator answer at once (same process as the benchmark). Timings are medians of the plays; RSS is the maximum. ` +
      `*Pacing floor*: the least time plangate's write pacing spreads the command's calls over (src/github/write-pacing.ts: writes and GraphQL calls ${WRITE_PACING.burst} at once, then 1 every ${WRITE_PACING.intervalMs / 1000} s; ` +
      `comments, issues and pull requests ${NOTIFICATION_PACING.burst} at once, then 1 every ${NOTIFICATION_PACING.intervalMs / 1000} s); ` +
      '*net of pacing* = wall − that floor, as a ratio to the baseline wall. CPU is the process’s own plus that of the children it waited for (git, commands).',
    '',
    table(
      ['scenario', 'command', 'runs', 'wall', '× node', 'pacing floor', 'net × node', 'CPU', 'CPU × node', 'peak RSS'],
      rows,
    ),
    '',
    bundleLine(results.bundle) +
      ' Cold start is the `ignored` row: a bot’s comment, which plangate ignores without a call.',
  ].join('\n');
}

/** The entry, what an ignored event loads (the entry and its static imports), and all of dist/. */
function bundleLine(bundle: BenchResults['bundle']): string {
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
  return (
    `Bundle: \`dist/index.js\` is ${n(bundle.entryBytes)} bytes; an ignored event loads ${n(bundle.ignoredPathBytes)} bytes ` +
    `(${bundle.ignoredPathFiles.map((f) => `\`${f}\``).join(', ')}); all of dist/ is ${n(bundle.totalBytes)} bytes (${mib(bundle.totalBytes)}) in ${bundle.fileCount} files, ` +
    'the rest loaded only once the event is a command.'
  );
}

function npmProxySection(npm: BenchResults['npmProxy']): string {
  if (!npm) return '## 3b. npm ci through the egress proxy\n\n(not measured in this run)';
  const rows = npm.installs.map((i) => [
    i.protocol.toUpperCase(),
    i.through,
    i.direct.map((x) => ms(x.wallMs)).join(', '),
    i.proxied.map((x) => ms(x.wallMs)).join(', '),
    i.roundRatios.map(times).join(', '),
    `**${times(i.ratio)}**`,
    `${ms(i.proxiedMedian.wallMs)} / ${ms(i.directMedian.wallMs)} = ${times(i.ratioOfMedians)}`,
    `${ms(i.directMedian.npmCpuMs)} + ${ms(i.directMedian.serverCpuMs)}`,
    `${ms(i.proxiedMedian.npmCpuMs)} + ${ms(i.proxiedMedian.serverCpuMs)}`,
    times(i.cpuRatio),
    `${ms(i.proxyCpuMs)} (${pct(i.proxyCpuShare)})`,
    `${i.registryConnections.direct} / ${i.registryConnections.proxied}`,
    `${i.proxyLookups}`,
  ]);
  return [
    '## 3b. npm ci through the egress proxy',
    '',
    `\`npm ci\` (npm ${npm.npm}, \`--ignore-scripts --no-audit --no-fund\`, a fresh empty cache each time so every tarball is downloaded) of a real lockfile: ` +
      `the part of plangate's own package-lock.json that ${npm.roots.map((r) => `\`${r}\``).join(', ')} pulls in, ${n(npm.packages)} packages, ` +
      `${npm.tarballs} tarballs of ${(npm.tarballBytes / 1024 / 1024).toFixed(1)} MiB (${npm.fromCache === npm.tarballs ? 'all' : npm.fromCache} from npm's cache as the registry served them` +
      `${npm.fromCache < npm.tarballs ? `, ${npm.tarballs - npm.fromCache} packed from node_modules` : ''}), ` +
      'served by a registry on loopback (bench/local-registry.ts). *Direct*: npm reaches the registry itself; *proxied*: through the sealed network\u2019s egress proxy ' +
      '(src/sandbox/network/egress-proxy.ts, started as the action starts it, the registry its one allowed destination), which alone can resolve the name the proxied lockfile uses, ' +
      'so an install that bypassed it would fail. Over HTTPS npm tunnels with CONNECT, as it reaches registry.npmjs.org under `allowed-domains: npm`; ' +
      `over plain HTTP the proxy forwards each request. ${npm.rounds} rounds after one warm-up pair; in each round the direct and the proxied install run back to back, ` +
      'the order flipped every round, and *ratio* is the median of the rounds’ proxied / direct wall times, which a machine whose load drifts between rounds ' +
      '(others share it) blurs less than a ratio of medians (shown beside it). CPU is npm’s (bench/probe.cjs) plus the benchmark process’s meanwhile, where the ' +
      `registry and the proxy run: the proxy's work, which a busy machine does not stretch. ${npm.wallSeconds.toFixed(0)} s in all (bench/npm-through-proxy.ts).`,
    '',
    table(
      [
        'protocol',
        'proxy path',
        'direct runs',
        'proxied runs',
        'per round',
        'ratio',
        'medians',
        'CPU direct (npm + registry)',
        'CPU proxied (npm + registry and proxy)',
        'CPU ratio',
        'proxy CPU (share of a direct install)',
        'registry connections per install (direct / proxied)',
        'proxy lookups per install',
      ],
      rows,
    ),
  ].join('\n');
}

function scaleSection(results: BenchResults): string {
  const rows = results.scale.flatMap((s) =>
    s.tools.map((t) => [
      n(s.files),
      t.name,
      ms(t.toolMs),
      ms(t.rawMs),
      times(t.ratio),
      t.likeForLikeMs === null ? '' : `${ms(t.likeForLikeMs)} (${times(t.likeForLikeRatio)})`,
      `${n(t.output.chars)} chars, ${n(t.output.lines)} lines`,
      t.output.notice ?? (t.complete ? '(complete)' : '(none)'),
      n(t.rawOutputBytes),
    ]),
  );
  const raws = [
    '`list_files {}` vs `git ls-files -z` (the index alone); like-for-like: `git ls-files --cached --others --exclude-standard -z`, the git command that lists the same files (list_files then stats only the paths it shows)',
    '`search` vs `git grep -n -I -P -e <pattern>`; like-for-like: the same with `--untracked -z` (what search runs)',
    '`read_file` vs `cat <file>`',
  ];
  const planRows = results.scale.map((s) => [
    n(s.files),
    `${(s.setupMs / 1000).toFixed(1)} s`,
    ms(s.plan.wallMs),
    `${ms(s.plan.selfCpuMs + s.plan.childCpuMs)} (${ms(s.plan.childCpuMs)} children)`,
    `${s.plan.maxRssMiB.toFixed(1)} MiB`,
  ]);
  return [
    '## 4. Repository scale',
    '',
    'A repository generated deterministically by the benchmark (bench/repo-gen.ts: source-like files over 50 packages × 40 modules, a TODO in every 8th file, a rare word in every 9,973rd, ' +
      'one 5 MB log), committed once and cloned as the workspace. The tools are timed **in process** (src/tools/read-tools.ts `createReadTools` behind `createToolbox`, i.e. argument ' +
      'parsing, the tool and the output cap, as an agent calls them); the raw commands are spawned from the same process and their output collected the same way. ' +
      `Medians of ${results.repeat} rounds after one warm-up round, tool and raw alternating. read_file reads the same 5 MB file at every size, so its growth is not judged.`,
    '',
    ...raws.map((r) => `- ${r}`),
    '',
    table(
      [
        'files',
        'call',
        'tool',
        'raw',
        'ratio',
        'like-for-like raw (ratio)',
        'tool output',
        'notice',
        'raw output bytes',
      ],
      rows,
    ),
    '',
    '/plan by the bundled action on the same repository, its planner making the four calls above (peak RSS is the action process, from getrusage at exit):',
    '',
    table(['files', 'repo setup', '/plan wall', 'CPU', 'peak RSS'], planRows),
  ].join('\n');
}

function growthTable(series: readonly GrowthSeries[]): string {
  return table(
    ['series', 'points', 'per added unit', 'last / first', 'log-log exponent', 'verdict'],
    series.map((g) => [
      g.label,
      g.points.map((p) => `${n(p.x)} ${g.x}: ${n(p.y)} ${g.unit}`).join('; '),
      g.marginals.map((m) => (Math.abs(m) >= 10 ? n(m) : m.toFixed(3))).join(' → '),
      g.marginalRatio.toFixed(2),
      Number.isNaN(g.exponent) ? 'n/a' : g.exponent.toFixed(2),
      g.notJudged ? `not judged: ${g.notJudged}` : g.verdict,
    ]),
  );
}

export function renderReport(results: BenchResults): string {
  const m = results.machine;
  const targets = table(
    ['target', 'measured', 'met', 'gap and why'],
    results.targets.map((t) => [t.target, t.measured, t.met ? '✅ met' : '❌ not met', t.gap ?? '']),
  );
  return [
    '# plangate benchmark results',
    '',
    `Produced by \`${results.command}\` (bench/run.ts) on ${results.date}; the whole run took ${(results.wallSeconds / 60).toFixed(1)} min ` +
      '(from the benchmark process start; the `npm run bundle` before it takes a few seconds more). Raw figures: [results.json](results.json).',
    '',
    `Source hash: \`${results.source?.hash ?? 'not recorded'}\` over ${results.source?.files ?? 0} files (scripts/bench-source.mjs; \`node scripts/bench-source.mjs --check\` fails when these results are older than the sources).`,
    '',
    `Machine: ${m.nproc} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, ${m.os}; Node ${m.node}, ${m.git}.`,
    '',
    'Absolute times on a shared machine do not repeat, so each time is also given as a ratio to a baseline measured in the same run, and is the median of ' +
      `several runs: ${results.scenarios.map((s) => `${s.name} ×${s.plays}`).join(', ')}; ` +
      `${results.latency ? `the latency scenario ×${results.latency.rounds} rounds; ` : ''}tool timings ×${results.repeat} after a warm-up round.`,
    '',
    '**Method.** The action runs exactly as the e2e tests run it (test/e2e/harness.ts: `node dist/index.js` with the runner environment) against the GitHub emulator ' +
      '(test/fakes/github-emulator.ts) and the scripted model with its emulated prompt cache (test/fakes/scripted-model.ts), both answering without delay (but in the latency scenario, section 1c), and real git ' +
      'with a local bare origin. CPU time and peak RSS come from bench/probe.cjs, preloaded into the action and into the `node -e 0` baseline alike (NODE_OPTIONS=--require): ' +
      'at exit it reads getrusage (own CPU, ru_maxrss) and /proc/self/stat (CPU of waited-for children). Prefix efficiency uses test/fakes/prefix-efficiency.ts, the ' +
      'computation the session-invariants unit test uses. Tool timings call the tools in process (src/tools/read-tools.ts `createReadTools`).',
    '',
    '## Targets',
    '',
    targets,
    '',
    modelSection(results.scenarios),
    '',
    costSection(results.costPerCycle),
    '',
    latencySection(results.latency, results.costPerCycle),
    '',
    callsSection(results),
    '',
    overheadSection(results),
    '',
    npmProxySection(results.npmProxy),
    '',
    scaleSection(results),
    '',
    recoverySection(results.recovery),
    '## 5. Growth',
    '',
    'A series grows *linearly or better* when each added unit (cycle, file) costs no more than the units added between the first two points did ' +
      '(last marginal / first marginal ≤ 1.10 for tokens, ≤ 1.25 for times, which are noisy); the log-log exponent between the ends is shown for reference ' +
      '(it reads below 1 whenever a fixed start-up cost dominates).',
    '',
    '### By cycles (plan + 1, 3, 6 cycles)',
    '',
    growthTable(results.growth.cycles),
    '',
    '### By repository size (1k, 10k, 50k files)',
    '',
    growthTable(results.growth.size),
    '',
  ].join('\n');
}
