// Renders the README's inputs and outputs tables from action.yml, so the documented contract is
// the real one. Usage:
//   node scripts/readme-tables.mjs           print both marked blocks
//   node scripts/readme-tables.mjs --write   replace the blocks in README.md
//   node scripts/readme-tables.mjs --check   exit 1 if README.md's blocks differ from action.yml
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { z } from 'zod';

const root = fileURLToPath(new URL('..', import.meta.url));
const actionPath = `${root}action.yml`;
const readmePath = `${root}README.md`;

const actionSchema = z.object({
  inputs: z.record(
    z.string(),
    z.object({
      description: z.string(),
      required: z.boolean().optional(),
      default: z.union([z.string(), z.number(), z.boolean()]).optional(),
    }),
  ),
  outputs: z.record(z.string(), z.object({ description: z.string() })),
});

/**
 * Keeps a description literal inside one table cell: GitHub would read `<prefix>` as an HTML tag
 * and `"*"` as emphasis, and a `|` or line break would split the row.
 */
function cell(text) {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .replace(/[\\|*_]/g, (c) => `\\${c}`)
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .trim();
}

/** Shows a default as code; no default and an empty one both mean the input is unset. */
function defaultCell(value) {
  const text = value === undefined ? '' : String(value);
  if (text === '') return '—';
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function inputsTable(inputs) {
  const rows = Object.entries(inputs).map(([name, spec]) => {
    const description = spec.required ? `**Required.** ${spec.description}` : spec.description;
    return `| \`${name}\` | ${cell(description)} | ${defaultCell(spec.default)} |`;
  });
  return ['| Input | Description | Default |', '| --- | --- | --- |', ...rows].join('\n');
}

function outputsTable(outputs) {
  const rows = Object.entries(outputs).map(([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`);
  return ['| Output | Description |', '| --- | --- |', ...rows].join('\n');
}

/** Fails with one readable line: this runs as a CI check, where a stack trace hides the cause. */
function fail(message) {
  process.stderr.write(`readme-tables: ${message}\n`);
  process.exit(1);
}

function readAction() {
  let data;
  try {
    data = parse(readFileSync(actionPath, 'utf8'));
  } catch (error) {
    return fail(`action.yml is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const result = actionSchema.safeParse(data);
  return result.success ? result.data : fail(`action.yml has an unexpected shape: ${z.prettifyError(result.error)}`);
}

const action = readAction();
const blocks = { inputs: inputsTable(action.inputs), outputs: outputsTable(action.outputs) };

const marker = (name, edge) => `<!-- ${name}:${edge} -->`;
const marked = (name) => `${marker(name, 'start')}\n${blocks[name]}\n${marker(name, 'end')}`;

/** Replaces each marked block; a README without its markers is an error, not a silent pass. */
function withTables(readme) {
  let text = readme;
  for (const name of Object.keys(blocks)) {
    const start = text.indexOf(marker(name, 'start'));
    const end = text.indexOf(marker(name, 'end'));
    if (start === -1 || end === -1 || end < start) {
      fail(`README.md lacks the ${marker(name, 'start')} ... ${marker(name, 'end')} markers`);
    }
    text = text.slice(0, start) + marked(name) + text.slice(end + marker(name, 'end').length);
  }
  return text;
}

const mode = process.argv[2];
if (mode === undefined) {
  process.stdout.write(`${marked('inputs')}\n\n${marked('outputs')}\n`);
} else if (mode === '--write' || mode === '--check') {
  const readme = readFileSync(readmePath, 'utf8');
  const expected = withTables(readme);
  if (mode === '--write') {
    if (expected !== readme) writeFileSync(readmePath, expected);
  } else if (expected !== readme) {
    fail('README.md tables differ from action.yml; run: node scripts/readme-tables.mjs --write');
  } else {
    process.stdout.write('README.md tables match action.yml\n');
  }
} else {
  fail(`unknown argument ${mode}; use --write or --check`);
}
