// Renders the reference blocks of docs/configuration.md from their sources, so the documented
// contract is the real one: the inputs and outputs tables from action.yml, the config-file reference from the zod schema
// of .github/plangate.yml (repoConfigSchema in src/config/repo-config.ts), and the cost expectations from the
// benchmark's figures (bench/results.json) priced with the built-in table (src/models/prices.ts), and what the
// sealed network's egress proxy adds to an `npm ci` from the same figures; and README.md's first-screen
// sentence on what a `/plan` and an `/approve` typically cost and take, from the same figures.
// Every example of the config file in README.md and docs/ is validated against the schema, and every
// default in action.yml against the one table of input defaults (src/config/defaults.ts) the action
// and the CLI apply: action.yml stays a static file GitHub reads, so it is checked, not generated.
// (The name is historical: the blocks lived in the README before the docs moved to docs/.) Usage:
//   node scripts/readme-tables.mjs                  print the marked blocks
//   node scripts/readme-tables.mjs --write [FILE]   replace the blocks in docs/configuration.md and
//                                                   README.md (or in FILE, as the reference page)
//   node scripts/readme-tables.mjs --check [FILE]   exit 1 if the blocks differ, an example is invalid
//                                                   or action.yml's defaults differ from the table;
//                                                   without FILE, the examples of README.md and every
//                                                   docs/ page are checked too
//   --action <file> (with any of them) reads that file instead of action.yml (for the script's tests)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { z } from 'zod';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const actionAt = args.indexOf('--action');
const actionPath =
  actionAt === -1 ? `${root}action.yml` : (args.splice(actionAt, 2)[1] ?? fail('--action needs a file'));
const benchPath = `${root}bench/results.json`;
const configFile = '.github/plangate.yml';
/** The page that holds the generated blocks; links in them are relative to its folder. */
const referencePage = 'docs/configuration.md';
/** The README holds one generated block too: the first screen's typical cost and time of a run. */
const readmePage = 'README.md';

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

/** Fails with one readable line: this runs as a CI check, where a stack trace hides the cause. */
function fail(message) {
  process.stderr.write(`readme-tables: ${message}\n`);
  process.exit(1);
}

const firstLine = (error) => (error instanceof Error ? error.message.split('\n')[0] : String(error));

/**
 * Keeps a description literal inside one table cell: GitHub would read `<prefix>` as an HTML tag
 * and `"*"` as emphasis, and a `|` or line break would split the row. Code spans are left as
 * written (a backslash there would show), except `|`, which GitHub's tables let one escape anywhere.
 */
function cell(text) {
  return text
    .replace(/\s*\n\s*/g, ' ')
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part.replace(/\|/g, '\\|')
        : part
            .replace(/[\\|*_]/g, (c) => `\\${c}`)
            .replace(/</g, '&lt;')
            .replace(/>/g, '&gt;'),
    )
    .join('')
    .trim();
}

/** A code span that survives backticks in its text. */
const code = (text) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``).replace(/\|/g, '\\|');

/** Shows a default as code; no default and an empty one both mean the value is unset. */
function defaultCell(value) {
  if (value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text === '' ? '—' : code(text);
}

// ---- action.yml: inputs and outputs ----

/**
 * The inputs the page explains at length, each under a heading of its name alone (`#### \`scope\``):
 * action.yml keeps every description short, and the table links the longer text.
 */
function detailedInputs(page) {
  return new Set([...page.matchAll(/^#{3,4} `([a-z0-9-]+)`$/gm)].map((m) => m[1]));
}

function inputsTable(inputs, detailed) {
  const rows = Object.entries(inputs).map(([name, spec]) => {
    const description = spec.required ? `**Required.** ${spec.description}` : spec.description;
    // GitHub's anchor for a heading that is one code span is the span's text.
    const more = detailed.has(name) ? ` [More](#${name})` : '';
    return `| \`${name}\` | ${cell(description)}${more} | ${defaultCell(spec.default)} |`;
  });
  return ['| Input | Description | Default |', '| --- | --- | --- |', ...rows].join('\n');
}

function outputsTable(outputs) {
  const rows = Object.entries(outputs).map(([name, spec]) => `| \`${name}\` | ${cell(spec.description)} |`);
  return ['| Output | Description |', '| --- | --- |', ...rows].join('\n');
}

function readAction() {
  let data;
  try {
    data = parse(readFileSync(actionPath, 'utf8'));
  } catch (error) {
    return fail(`action.yml is not valid YAML: ${firstLine(error)}`);
  }
  const result = actionSchema.safeParse(data);
  return result.success ? result.data : fail(`action.yml has an unexpected shape: ${z.prettifyError(result.error)}`);
}

// ---- .github/plangate.yml: the config-file reference ----

/**
 * Loads the config schema, the price table and the cost function from the TypeScript source.
 * esbuild bundles only the project's own files, in memory; packages stay imports of the very files
 * this script resolves, so the schema and the `z` below are one zod, and nothing is written to disk.
 */
async function loadSources() {
  const entry = [
    "export { repoConfigSchema } from './src/config/repo-config.ts';",
    "export { inputDefaults } from './src/config/defaults.ts';",
    "export { defaultPrices } from './src/config/prices.ts';",
    "export { costOf } from './src/models/usage.ts';",
  ].join('\n');
  let output;
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'readme-sources-entry.ts' },
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      logLevel: 'silent',
      plugins: [
        {
          name: 'packages-by-url',
          setup(b) {
            // A module loaded from a data: URL cannot resolve bare specifiers, so each becomes an absolute URL.
            b.onResolve({ filter: /^[^./]/ }, (args) => ({
              path: args.path.startsWith('node:') ? args.path : import.meta.resolve(args.path),
              external: true,
            }));
          },
        },
      ],
    });
    output = result.outputFiles[0]?.text ?? '';
  } catch (error) {
    return fail(`the sources could not be bundled: ${firstLine(error)}`);
  }
  const module = await import(`data:text/javascript;base64,${Buffer.from(output).toString('base64')}`);
  if (!(module.repoConfigSchema instanceof z.ZodType))
    fail('src/config/repo-config.ts no longer exports repoConfigSchema as a zod schema');
  if (typeof module.inputDefaults !== 'object' || module.inputDefaults === null)
    fail('src/config/defaults.ts no longer exports inputDefaults');
  if (typeof module.costOf !== 'function' || typeof module.defaultPrices !== 'object')
    fail('src/config/prices.ts and src/models/usage.ts no longer export defaultPrices and costOf');
  return module;
}

/** Alternatives of a union, however zod spelled it. */
const alternatives = (s) => s.anyOf ?? s.oneOf ?? [];

/** The placeholder a map's keys get in key paths: the key schema's description, else "name". */
const placeholder = (s) => `<${s.propertyNames?.description ?? 'name'}>`;

function numberText(s) {
  const base = s.type === 'integer' ? 'whole number' : 'number';
  const bounds = [
    s.exclusiveMinimum !== undefined ? `> ${s.exclusiveMinimum}` : '',
    s.minimum !== undefined ? `≥ ${s.minimum}` : '',
    s.exclusiveMaximum !== undefined ? `< ${s.exclusiveMaximum}` : '',
    s.maximum !== undefined ? `≤ ${s.maximum}` : '',
  ].filter(Boolean);
  return [base, ...bounds].join(' ');
}

const isRecord = (s) => s.type === 'object' && typeof s.additionalProperties === 'object' && !s.properties;

/** What a value may be, in words a YAML author reads; constraints the words cannot carry are in the description. */
function typeText(s) {
  // Two kinds of object read as one "object": their keys are listed below either way.
  if (alternatives(s).length > 0) return [...new Set(alternatives(s).map(typeText))].join(' or ');
  if (Array.isArray(s.enum)) return `one of ${s.enum.map((v) => code(String(v))).join(', ')}`;
  if (s.const !== undefined) return code(JSON.stringify(s.const));
  if (Array.isArray(s.type)) return s.type.map((type) => typeText({ ...s, type })).join(' or ');
  switch (s.type) {
    case 'string':
      if (s.format === 'uri') return 'URL';
      return (s.minLength ?? 0) >= 1 ? 'non-empty string' : 'string';
    case 'number':
    case 'integer':
      return numberText(s);
    case 'boolean':
      return '`true` or `false`';
    case 'null':
      return '`null`';
    case 'array': {
      const item = s.items ?? {};
      if (item.type === 'string' && !item.enum) return 'list of strings';
      if (item.type === 'object' && !isRecord(item)) return 'list of objects';
      return `list of: ${typeText(item)}`;
    }
    case 'object':
      return isRecord(s) ? `map: ${code(placeholder(s))} → ${typeText(s.additionalProperties)}` : 'object';
    default:
      return 'any';
  }
}

/**
 * Splits a closing "Default: ..." sentence off the description: most config defaults are applied
 * where the key is read (the schema has no `.default()`, so an absent key stays absent), and the
 * describe() text is the one place beside the schema that says what they are.
 */
function describedDefault(prop) {
  const text = (prop.description ?? '').trim();
  const match = /^(.*?)\s*Default: (.+?)\.?$/s.exec(text);
  if (prop.default !== undefined) return { default: defaultCell(prop.default), description: text };
  if (!match) return { default: '—', description: text };
  const value = match[2] ?? '';
  // A bare value reads as code, a phrase as prose.
  return { default: /^[^\s`]+$/.test(value) ? code(value) : cell(value), description: match[1] ?? '' };
}

/**
 * The table rows of one object's keys, each followed by its nested keys: `tasks[].name` for a
 * list's objects, `prices.<model>.input` for a map's. A key without a description fails the run,
 * so a new config key cannot ship undocumented.
 */
function configRows(s, prefix, rows, undocumented) {
  const objects = [s, ...alternatives(s)].filter((o) => o.properties);
  for (const object of objects) {
    const required = new Set(object.required ?? []);
    for (const [key, prop] of Object.entries(object.properties)) {
      const path = `${prefix}${key}`;
      if (rows.some((r) => r.path === path)) continue;
      if (!prop.description?.trim()) undocumented.push(path);
      rows.push({ path, type: `${typeText(prop)}${required.has(key) ? ', required' : ''}`, ...describedDefault(prop) });
      nestedRows(prop, path, rows, undocumented);
    }
  }
}

function nestedRows(s, path, rows, undocumented) {
  for (const alt of [s, ...alternatives(s)]) {
    if (alt.properties) configRows(alt, `${path}.`, rows, undocumented);
    else if (alt.type === 'array' && alt.items) nestedRows(alt.items, `${path}[]`, rows, undocumented);
    else if (isRecord(alt)) nestedRows(alt.additionalProperties, `${path}.${placeholder(alt)}`, rows, undocumented);
  }
}

/** An example of the file; it is validated against the schema like every README example. */
const exampleConfig = `# ${configFile}
tasks:
  - name: deps
    objective: |
      Update the development dependencies to their latest minor versions and make the tests pass.
    cron: '0 6 * * 1'
    policy: plan-for-approval
    labels: [dependencies]
    assignees: [octocat]
    allowed-commands: [npm ci, npm test, npm update *]
  - name: docs
    objective: Check that the README matches the code and fix what drifted.
    cron: '0 7 1 * *'
plan-max-age-days: 7
prices:
  gpt-4.1: { input: 2, cached-input: 0.5, output: 8 }
  my-vllm-model: { input: 0, output: 0 }
`;

function configReference(schema) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const rows = [];
  const undocumented = [];
  configRows(json, '', rows, undocumented);
  if (undocumented.length > 0) {
    fail(`config keys without a .describe() text in src/config/repo-config.ts: ${undocumented.join(', ')}`);
  }
  const table = rows.map((r) => `| ${code(r.path)} | ${r.type} | ${r.default} | ${cell(r.description)} |`);
  return [
    `Every key is optional unless marked required; unknown keys are errors. Example \`${configFile}\`:`,
    '',
    '```yaml',
    exampleConfig.trimEnd(),
    '```',
    '',
    '| Key | Type | Default | Description |',
    '| --- | --- | --- | --- |',
    ...table,
  ].join('\n');
}

/** Problems of one example of the config file, or none. */
function exampleProblems(schema, text) {
  let data;
  try {
    data = parse(text) ?? {};
  } catch (error) {
    return [`not valid YAML: ${firstLine(error)}`];
  }
  const result = schema.safeParse(data);
  return result.success
    ? []
    : result.error.issues.map((i) => `${i.path.length > 0 ? i.path.join('.') : '(top level)'}: ${i.message}`);
}

/** Fenced YAML blocks in the README that say, on their first line, that they are the config file. */
function configExamples(readme) {
  const examples = [];
  const fence = /^```ya?ml\n([\s\S]*?)^```$/gm;
  for (let match = fence.exec(readme); match; match = fence.exec(readme)) {
    const body = match[1] ?? '';
    if (body.split('\n')[0]?.trim() === `# ${configFile}`) {
      examples.push({ line: readme.slice(0, match.index).split('\n').length, body });
    }
  }
  return examples;
}

// ---- action.yml's defaults against the table ----

/**
 * Where action.yml's inputs and the defaults table disagree: a default that differs, an input the
 * table lacks, a table row action.yml lacks. No `default:` and `default: ''` are the same (GitHub
 * hands the action an empty string for both), as are YAML's `8` and `'8'`.
 */
function defaultsProblems(inputs, table) {
  const problems = [];
  for (const [name, spec] of Object.entries(inputs)) {
    const written = spec.default === undefined ? '' : String(spec.default);
    if (!Object.hasOwn(table, name)) problems.push(`${name} is an input without a row in the table`);
    else if (written !== table[name])
      problems.push(`${name}: action.yml says ${JSON.stringify(written)}, the table ${JSON.stringify(table[name])}`);
  }
  for (const name of Object.keys(table)) {
    if (!Object.hasOwn(inputs, name)) problems.push(`${name} is in the table but is no input of action.yml`);
  }
  return problems;
}

// ---- bench/results.json: cost expectations ----

const tokens = z.object({
  requests: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
});
const npmInstall = z.object({
  protocol: z.enum(['https', 'http']),
  through: z.string(),
  ratio: z.number(),
  proxyCpuShare: z.number(),
});
/** One command's median run: plangate's own wall time, the scripted model answering at once. */
const commandRun = z.object({ command: z.string(), outcome: z.string(), wallMs: z.number().nonnegative() });
const benchSchema = z.object({
  date: z.string(),
  npmProxy: z
    .object({
      packages: z.number().int().positive(),
      rounds: z.number().int().positive(),
      installs: z.array(npmInstall).min(1),
    })
    .optional(),
  scenarios: z.array(
    z.object({
      name: z.string(),
      model: z.object({ roles: z.object({ planner: tokens.optional(), executor: tokens.optional() }), total: tokens }),
      commands: z.array(commandRun).optional(),
    }),
  ),
});

function readBench() {
  let data;
  try {
    data = JSON.parse(readFileSync(benchPath, 'utf8'));
  } catch (error) {
    return fail(`bench/results.json could not be read: ${firstLine(error)}`);
  }
  const result = benchSchema.safeParse(data);
  return result.success
    ? result.data
    : fail(`bench/results.json has an unexpected shape: ${z.prettifyError(result.error)}`);
}

/** Thousands separators by hand: the output must not depend on the machine's locale data. */
const whole = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const percent = (part, all) => `${all === 0 ? '0.0' : ((100 * part) / all).toFixed(1)} %`;
const usd = (n) => `$${n.toFixed(4)}`;
const perMillion = (n) => `$${n}`;

/** The action's default models, priced from the built-in table, and what a scenario's tokens cost on them. */
function defaultPricing(action, sources) {
  const models = {
    planner: String(action.inputs['planner-model']?.default ?? ''),
    executor: String(action.inputs['executor-model']?.default ?? ''),
  };
  const price = (model) =>
    sources.defaultPrices[model] ?? fail(`the default model ${model} has no built-in price in src/models/prices.ts`);
  const cost = (role, t, cached = true) =>
    sources.costOf(models[role], cached ? t : { ...t, cachedTokens: 0 }, sources.defaultPrices) ?? 0;
  const scenarioCost = (s, cached = true) =>
    Object.entries(s.model.roles).reduce((sum, [role, t]) => sum + (t ? cost(role, t, cached) : 0), 0);
  return { models, price, cost, scenarioCost };
}

/**
 * The benchmark's token counts per scenario, priced as a run on the action's default models would
 * be: the figures users can expect, from the same sources plangate itself bills from.
 */
function costBlock(bench, action, sources) {
  const { models, price, cost, scenarioCost } = defaultPricing(action, sources);
  const rows = bench.scenarios.map((s) => {
    const t = s.model.total;
    return `| ${s.name} | ${t.requests} | ${whole(t.promptTokens)} | ${whole(t.cachedTokens)} | ${whole(t.completionTokens)} | ${percent(t.cachedTokens, t.promptTokens)} | ${usd(scenarioCost(s, true))} | ${usd(scenarioCost(s, false))} |`;
  });
  const priceLine = (model) => {
    const p = price(model);
    return `\`${model}\` ${perMillion(p.input)} input, ${perMillion(p.cachedInput ?? p.input)} cached input, ${perMillion(p.output)} output`;
  };
  const lines = [
    `Measured by \`npm run bench\` on ${bench.date.slice(0, 10)} ([bench/RESULTS.md](../bench/RESULTS.md)); priced at the built-in prices of the default models, planner ${priceLine(models.planner)}, executor ${priceLine(models.executor)} (USD per million tokens).`,
    '',
    '| Scenario | Requests | Prompt tokens | Cached | Completion | Cache hit | Cost | Cost without cache |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ];
  const example = bench.scenarios.find(
    (s) => s.name === 'plan + 3 cycles' && s.model.roles.planner && s.model.roles.executor,
  );
  if (example) {
    const term = (role) => {
      const t = example.model.roles[role];
      const p = price(models[role]);
      return `${role}: (${whole(t.promptTokens)} − ${whole(t.cachedTokens)}) × ${perMillion(p.input)} + ${whole(t.cachedTokens)} × ${perMillion(p.cachedInput ?? p.input)} + ${whole(t.completionTokens)} × ${perMillion(p.output)} per million = ${usd(cost(role, t))}`;
    };
    lines.push(
      '',
      `Worked example, plan + 3 cycles: ${term('planner')}; ${term('executor')}; together ${usd(scenarioCost(example, true))}.`,
    );
  }
  return lines.join('\n');
}

/** A price a reader takes in at a glance: two significant figures, at least to the cent. */
const roughUsd = (n) => `$${n.toFixed(Math.max(2, 1 - Math.floor(Math.log10(Math.max(n, 1e-6)))))}`;

/**
 * The README's first-screen sentence: what a `/plan` and an `/approve` cost on the default models and
 * how long plangate itself takes for each, from the benchmark's plan-only and three-cycle scenarios.
 * The scenarios' tokens cover the whole scenario, so the `/approve` is the three-cycle scenario less
 * the plan-only one (whose planning is the same four requests). The benchmark's model answers at once,
 * so the times are plangate's own: a real run adds each request's answer time.
 */
function typicalRunBlock(bench, action, sources) {
  const { models, scenarioCost } = defaultPricing(action, sources);
  const scenario = (name) =>
    bench.scenarios.find((s) => s.name === name) ?? fail(`bench/results.json has no "${name}" scenario`);
  const command = (s, name) =>
    s.commands?.find((c) => c.command === name) ??
    fail(`bench/results.json's "${s.name}" scenario has no ${name} command with its wall time`);
  const planOnly = scenario('plan only');
  const threeCycles = scenario('plan + 3 cycles');
  const plan = command(planOnly, '/plan');
  const approve = command(threeCycles, '/approve');
  const planRequests = planOnly.model.total.requests;
  const approveRequests = threeCycles.model.total.requests - planRequests;
  const approveCost = scenarioCost(threeCycles) - scenarioCost(planOnly);
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  return (
    `**What a run costs and how long it takes.** In the benchmark ([bench/RESULTS.md](bench/RESULTS.md), ${bench.date.slice(0, 10)}; a small fixture repository), ` +
    `a \`/plan\` cost ${roughUsd(scenarioCost(planOnly))} on the default planner \`${models.planner}\` (${planRequests} model requests), ` +
    `and the \`/approve\` of a three-step plan ${roughUsd(approveCost)} (${approveRequests} requests: \`${models.executor}\` executing, ` +
    `\`${models.planner}\` writing each next step). With a model that answers at once they took ${seconds(plan.wallMs)} and ${seconds(approve.wallMs)}, ` +
    `plangate's own time; a real run adds the model's answer time to each request, and a larger repository means larger prompts ` +
    `([what to expect](docs/configuration.md#what-to-expect)).`
  );
}

/**
 * What the sealed network's egress proxy adds to an `npm ci`, from the benchmark's figures; until the
 * committed results hold them, where they will come from.
 */
function networkBlock(bench) {
  const npm = bench.npmProxy;
  const where = '([bench/RESULTS.md](../bench/RESULTS.md), section 3b)';
  if (!npm)
    return `What the egress proxy adds to an \`npm ci\` is measured by \`npm run bench\` ${where}; the committed results predate that figure.`;
  const added = (i) =>
    i.ratio > 1
      ? `${((i.ratio - 1) * 100).toFixed(1)} % (${i.ratio.toFixed(2)}×)`
      : `nothing measurable (${i.ratio.toFixed(2)}×)`;
  const label = (i) =>
    i.protocol === 'https'
      ? 'over HTTPS (CONNECT tunnels, as npm reaches registry.npmjs.org)'
      : 'over plain HTTP (forwarded requests)';
  const list = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
  return (
    `What it costs: the egress proxy adds ${list(npm.installs.map((i) => `${added(i)} ${label(i)}`))} to the wall time of an \`npm ci\` ` +
    `of ${npm.packages} packages from a registry on loopback, each install from an empty npm cache (the median of ${npm.rounds} rounds, ` +
    `each a direct and a proxied install back to back). Its own work is ${list(npm.installs.map((i) => `${percent(i.proxyCpuShare, 1)} (${i.protocol.toUpperCase()})`))} ` +
    `of the CPU time of the install, a figure a busy machine does not blur. Measured by \`npm run bench\` on ${bench.date.slice(0, 10)} ${where}.`
  );
}

// ---- the reference page ----

const action = readAction();
const sources = await loadSources();
const schema = sources.repoConfigSchema;
{
  const problems = defaultsProblems(action.inputs, sources.inputDefaults);
  if (problems.length > 0) {
    fail(
      `action.yml's input defaults differ from src/config/defaults.ts, the table plangate applies: ${problems.join('; ')}; make them agree`,
    );
  }
}
{
  const problems = exampleProblems(schema, exampleConfig);
  if (problems.length > 0)
    fail(`the example ${configFile} in scripts/readme-tables.mjs is invalid: ${problems.join('; ')}`);
}
const bench = readBench();
/** The generated blocks of a reference page; the inputs table links the page's own longer texts. */
const blocksFor = (page, file) =>
  file === readmePage
    ? { 'typical-run': typicalRunBlock(bench, action, sources) }
    : {
        inputs: inputsTable(action.inputs, detailedInputs(page)),
        outputs: outputsTable(action.outputs),
        config: configReference(schema),
        cost: costBlock(bench, action, sources),
        network: networkBlock(bench),
      };

const marker = (name, edge) => `<!-- ${name}:${edge} -->`;
const marked = (blocks, name) => `${marker(name, 'start')}\n${blocks[name]}\n${marker(name, 'end')}`;

/** Replaces each marked block; a page without its markers is an error, not a silent pass. */
function withBlocks(page, file) {
  const blocks = blocksFor(page, file);
  let text = page;
  for (const name of Object.keys(blocks)) {
    const start = text.indexOf(marker(name, 'start'));
    const end = text.indexOf(marker(name, 'end'));
    if (start === -1 || end === -1 || end < start) {
      fail(`${file} lacks the ${marker(name, 'start')} ... ${marker(name, 'end')} markers`);
    }
    text = text.slice(0, start) + marked(blocks, name) + text.slice(end + marker(name, 'end').length);
  }
  return text;
}

/** Every example of the config file in the docs must be one plangate would accept. */
function checkExamples(page, file) {
  const invalid = configExamples(page).flatMap(({ line, body }) => {
    const problems = exampleProblems(schema, body);
    return problems.length > 0 ? [`line ${line}: ${problems.join('; ')}`] : [];
  });
  if (invalid.length > 0) fail(`${file} has ${configFile} examples plangate would reject: ${invalid.join(' | ')}`);
}

/** README.md and the pages of docs/: the other places a config-file example may stand. */
function otherPages() {
  const pages = readdirSync(path.join(root, 'docs'), { recursive: true })
    .map((name) => path.join('docs', String(name)))
    .filter((name) => name.endsWith('.md') && name !== referencePage)
    .sort();
  return ['README.md', ...pages];
}

const [mode, target] = args;
if (mode === undefined) {
  const blocks = {
    ...blocksFor(readFileSync(path.join(root, referencePage), 'utf8'), referencePage),
    ...blocksFor('', readmePage),
  };
  process.stdout.write(
    `${Object.keys(blocks)
      .map((name) => marked(blocks, name))
      .join('\n\n')}\n`,
  );
} else if (mode === '--write' || mode === '--check') {
  // Given a file, only that file is checked, as the reference page (the script's tests hand it copies).
  const generated = target === undefined ? [referencePage, readmePage] : [target];
  const updated = generated.map((file) => {
    const pagePath = target ?? path.join(root, file);
    const page = readFileSync(pagePath, 'utf8');
    const expected = withBlocks(page, file);
    checkExamples(expected, file);
    return { file, pagePath, page, expected };
  });
  if (target === undefined)
    for (const other of otherPages().filter((name) => !generated.includes(name)))
      checkExamples(readFileSync(path.join(root, other), 'utf8'), other);
  for (const { file, pagePath, page, expected } of updated) {
    if (mode === '--write') {
      if (expected !== page) writeFileSync(pagePath, expected);
    } else if (expected !== page) {
      fail(
        `${file}'s generated blocks differ from their sources (action.yml, src/config/repo-config.ts, bench/results.json, src/config/prices.ts); run: node scripts/readme-tables.mjs --write`,
      );
    } else {
      process.stdout.write(`${file}: the generated blocks match their sources\n`);
    }
  }
} else {
  fail(`unknown argument ${mode}; use --write or --check`);
}
