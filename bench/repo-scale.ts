import { execFile } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createReadTools } from '../src/tools/read-tools.js';
import { createToolbox } from '../src/tools/toolbox.js';
import { noteTreeChange } from '../src/sandbox/tree-changes.js';
import { createWorld } from '../test/e2e/harness.js';
import { toolCall, type Reply } from '../test/fakes/scripted-model.js';
import { timeAction, type ProcessCost } from './process-timing.js';
import { BIG_FILE, COMMON_PATTERN, RARE_PATTERN, generateRepo } from './repo-gen.js';
import { PLANNER, benchInputs, comment } from './scenarios.js';
import { median } from './stats.js';

/**
 * Repository scale: the read tools timed as tool calls (in process, through the same toolbox the
 * agents use: argument parsing, the tool, the output cap) against the raw git or cat command doing
 * the same work, spawned from the same process and collecting its output the same way. Then the
 * bundled action runs /plan with those calls, for its peak RSS and wall time at this size.
 */

export interface RawCommand {
  label: string;
  argv: string[];
}

export interface ToolCase {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** The plain command doing the tool's job (for list_files: `git ls-files`, the index alone). */
  raw: RawCommand;
  /** The raw git that produces exactly the tool's listing, when that differs from `raw`. */
  likeForLike?: RawCommand[];
  /**
   * Also time the first call after a tool changed the tree, when the tool keeps what it learned
   * between calls (list_files keeps git's walk for untracked files until then).
   */
  afterChange?: boolean;
}

export interface OutputSize {
  chars: number;
  lines: number;
  /** The closing notice telling the model to narrow its query or continue, when present. */
  notice: string | null;
  /** Whether the toolbox's size cap had to cut text out of the middle (the tool's own cap did not hold). */
  cutInMiddle: boolean;
}

export interface ToolFigures {
  name: string;
  toolMs: number;
  rawMs: number;
  likeForLikeMs: number | null;
  /** toolMs / rawMs. */
  ratio: number;
  likeForLikeRatio: number | null;
  /** The first call after a noted tree change (see ToolCase.afterChange); null when not timed. */
  afterChangeMs: number | null;
  output: OutputSize;
  rawOutputBytes: number;
  /** Whether the tool showed every path, match or line the raw command printed. */
  complete: boolean;
  ok: boolean;
}

export interface ScaleFigures {
  files: number;
  setupMs: number;
  tools: ToolFigures[];
  /** /plan on this repository with the four tool calls. */
  plan: { wallMs: number; selfCpuMs: number; childCpuMs: number; maxRssMiB: number };
}

const git = (...args: string[]): RawCommand => ({
  label: `git ${args.filter((a) => a !== '-e').join(' ')}`,
  argv: ['git', ...args],
});

export const toolCases: ToolCase[] = [
  {
    name: 'list_files',
    tool: 'list_files',
    args: {},
    raw: git('ls-files', '-z'),
    // What list_files lists: tracked files and untracked ones not ignored (it stats only the few it shows).
    likeForLike: [git('ls-files', '--cached', '--others', '--exclude-standard', '-z')],
    afterChange: true,
  },
  {
    name: 'search (≈1 file in 8 matches)',
    tool: 'search',
    args: { pattern: COMMON_PATTERN },
    raw: git('grep', '-n', '-I', '-P', '-e', COMMON_PATTERN),
    likeForLike: [git('grep', '--untracked', '-n', '-I', '-z', '-P', '-e', COMMON_PATTERN)],
  },
  {
    name: 'search (a few matches)',
    tool: 'search',
    args: { pattern: RARE_PATTERN },
    raw: git('grep', '-n', '-I', '-P', '-e', RARE_PATTERN),
    likeForLike: [git('grep', '--untracked', '-n', '-I', '-z', '-P', '-e', RARE_PATTERN)],
  },
  {
    name: 'read_file (5 MB)',
    tool: 'read_file',
    args: { path: BIG_FILE },
    raw: { label: `cat ${BIG_FILE}`, argv: ['cat', BIG_FILE] },
  },
];

/** Runs a command to the end, keeping its output as bytes, as a caller that uses the output must. */
function runRaw(cwd: string, argv: readonly string[]): Promise<Buffer> {
  const [file = '', ...args] = argv;
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        cwd,
        encoding: 'buffer',
        maxBuffer: 256 * 1024 * 1024,
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
      },
      (error, stdout) => {
        // git grep exits 1 for "no match", which is an answer, not a failure.
        if (error && !(argv[1] === 'grep' && error.code === 1)) reject(error);
        else resolve(stdout);
      },
    );
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

const NOTICE = /\n(\[[^\n]*(?:narrow|more)[^\n]*\])$|^[^\n]*(\(output limit reached; continue with start_line=\d+\))/;

export function outputSize(text: string): OutputSize {
  const match = NOTICE.exec(text);
  return {
    chars: text.length,
    lines: text.split('\n').length,
    notice: match ? (match[1] ?? match[2] ?? null) : null,
    cutInMiddle: /\n\[… \d+ characters omitted …\]\n/.test(text),
  };
}

/** Entries a raw command printed: NUL-terminated with -z, else lines. */
function countItems(bytes: Buffer, terminator: number): number {
  let n = 0;
  for (let at = bytes.indexOf(terminator); at >= 0; at = bytes.indexOf(terminator, at + 1)) n++;
  return n;
}

/** Paths, matches or file lines a tool result shows (read_file's first line is its header). */
function shownItems(tool: string, output: string): number {
  if (output === 'No matches.' || output.startsWith('No files found')) return 0;
  const lines = output.split('\n').length;
  return tool === 'read_file' ? lines - 1 : lines;
}

/** The planner's script for one /plan on the generated repository: the four timed calls, then a plan. */
function scalePlanning(): Reply[] {
  return [
    ...toolCases.map((c) => toolCall(c.tool, c.args)),
    toolCall('update_context', {
      plan: { steps: [{ title: 'Decide the open TODO bounds' }] },
      directive: 'Resolve the first TODO.',
    }),
  ];
}

/** One repository size: generate, time the tools `repeat` times, then `planRuns` /plan runs of the action. */
export async function measureScale(
  files: number,
  repeat: number,
  planRuns: number,
  probeDir: string,
): Promise<ScaleFigures> {
  const setupStart = performance.now();
  const world = await createWorld(
    { [PLANNER]: Array.from({ length: planRuns }, scalePlanning).flat() },
    generateRepo(files),
  );
  const setupMs = performance.now() - setupStart;
  try {
    const toolbox = createToolbox(createReadTools(world.workspace));
    const tools: ToolFigures[] = [];
    for (const c of toolCases) {
      const toolTimes: number[] = [];
      const rawTimes: number[] = [];
      const likeTimes: number[] = [];
      const afterChangeTimes: number[] = [];
      let output = '';
      let ok = true;
      let rawOutputBytes = 0;
      let rawItems = 0;
      // A first unmeasured round warms the page cache, so every measured round reads from memory.
      for (let round = 0; round <= repeat; round++) {
        // Alternating the order keeps a systematic first-runner penalty out of the ratio.
        const steps = [
          async () => {
            const t = await timed(() => toolbox.call(c.tool, JSON.stringify(c.args)));
            if (round > 0) toolTimes.push(t.ms);
            output = t.value.output;
            ok = t.value.ok;
          },
          async () => {
            const t = await timed(() => runRaw(world.workspace, c.raw.argv));
            if (round > 0) rawTimes.push(t.ms);
            rawOutputBytes = t.value.length;
            rawItems = countItems(t.value, c.raw.argv.includes('-z') ? 0x00 : 0x0a);
          },
          async () => {
            if (!c.likeForLike) return;
            const commands = c.likeForLike;
            const t = await timed(() => Promise.all(commands.map((command) => runRaw(world.workspace, command.argv))));
            if (round > 0) likeTimes.push(t.ms);
          },
          async () => {
            if (!c.afterChange) return;
            noteTreeChange(world.workspace);
            const t = await timed(() => toolbox.call(c.tool, JSON.stringify(c.args)));
            if (round > 0) afterChangeTimes.push(t.ms);
          },
        ];
        if (round % 2 === 1) steps.reverse();
        for (const step of steps) await step();
      }
      const toolMs = median(toolTimes);
      const rawMs = median(rawTimes);
      const likeForLikeMs = likeTimes.length > 0 ? median(likeTimes) : null;
      tools.push({
        name: c.name,
        toolMs,
        rawMs,
        likeForLikeMs,
        ratio: toolMs / rawMs,
        likeForLikeRatio: likeForLikeMs === null ? null : toolMs / likeForLikeMs,
        afterChangeMs: afterChangeTimes.length > 0 ? median(afterChangeTimes) : null,
        output: outputSize(output),
        rawOutputBytes,
        complete: shownItems(c.tool, output) === rawItems,
        ok,
      });
    }

    world.gh.setPermission('mona', 'maintain');
    const costs: ProcessCost[] = [];
    for (let run = 0; run < planRuns; run++) {
      // An issue per run: a second /plan on one issue would also supersede the first plan (one more write).
      const issue = world.gh.addIssue({
        title: `Bounds ${run + 1}`,
        body: 'Decide the TODO bounds.',
        login: 'mona',
      }).number;
      const event = comment(world, issue, 'mona', '/plan Decide the open TODO bounds.');
      const { run: result, cost } = await timeAction(world, event, benchInputs, path.join(probeDir, `scale-${files}`));
      if (result.outputs.outcome !== 'planned') {
        throw new Error(
          `/plan on ${files} files ended "${result.outputs.outcome}" (exit ${result.code})\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-2000)}`,
        );
      }
      costs.push(cost);
    }
    return {
      files,
      setupMs,
      tools,
      plan: {
        wallMs: median(costs.map((c) => c.wallMs)),
        selfCpuMs: median(costs.map((c) => c.selfCpuMs)),
        childCpuMs: median(costs.map((c) => c.childCpuMs)),
        maxRssMiB: Math.max(...costs.map((c) => c.maxRssMiB)),
      },
    };
  } finally {
    await world.close();
  }
}
