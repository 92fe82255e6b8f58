/* global module */
// The layering of src/ (see DESIGN.md, "Where things live"): each folder is one layer, and a folder
// imports only folders below it, so no import cycle between folders can form. `npm run lint` runs
// this; test/unit/layering.test.ts proves that a breaking import fails it.

/** Bottom to top. A folder may import its own files and folders of a lower rank, nothing else. */
const layers = [
  ['text'], // leaf helpers: limits, markdown, redaction, untrusted text, path rules
  ['machine'], // the pure reducer and its definitions
  ['scope'], // the approved scope: what an approval allows, read where the run acts
  ['config'], // inputs and the config file as one typed Settings
  ['models'], // chat clients, usage and cost
  ['repo'], // the host's hardened git
  ['github'], // the GitHub client and the thread
  ['sandbox'], // what isolates repository code: the command account, its processes, the sealed network
  ['tools'], // the tools the agents call
  ['mcp'], // MCP servers behind the capability tools
  ['checks'], // plan checks and estimates
  ['record'], // the plan record: encode, sign, verify
  ['agents'], // sessions, planner, executor
  ['render'], // comments, pull request, summary
  ['run'], // the engine both hosts use
  ['commands'], // one file per command
  ['entry', 'cli'], // the action's and the local host's entry points
];

const rank = new Map(layers.flatMap((names, index) => names.map((name) => [name, index])));

/** One rule per folder: it may not import a folder ranked as high as itself or higher (its own excepted). */
const layerRules = [...rank].map(([name, own]) => {
  const notBelow = [...rank].filter(([other, r]) => other !== name && r >= own).map(([other]) => other);
  return {
    name: `layer-${name}`,
    comment: `src/${name}/ imports only folders below it: ${
      [...rank]
        .filter(([, r]) => r < own)
        .map(([n]) => n)
        .join(', ') || 'none'
    }.`,
    severity: 'error',
    from: { path: `^src/${name}/` },
    to: { path: notBelow.length > 0 ? `^src/(${notBelow.join('|')})/` : '^$' },
  };
});

/** The rules DESIGN.md names outright, so a violation says which one it breaks. */
const namedRules = [
  {
    name: 'render-without-github-or-record',
    comment: 'render/ shows what it is given; it never talks to GitHub or reads plan records.',
    severity: 'error',
    from: { path: '^src/render/' },
    to: { path: '^src/(github|record)/' },
  },
  {
    name: 'agents-without-github',
    comment: 'agents/ never import github/: agents know nothing of where a run came from.',
    severity: 'error',
    from: { path: '^src/agents/' },
    to: { path: '^src/github/' },
  },
  {
    name: 'run-only-from-entry-and-commands',
    comment: 'Only entry/, commands/ and cli/ (the hosts) use the engine in run/.',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/(entry|commands|cli|run)/' },
    to: { path: '^src/run/' },
  },
  {
    name: 'pure-machine-and-text',
    comment: 'machine/ and text/ do no I/O: no Node built-in module, no client package.',
    severity: 'error',
    from: { path: '^src/(machine|text)/' },
    to: { dependencyTypes: ['core'] },
  },
  {
    name: 'sandbox-through-its-entry',
    comment: 'Outside sandbox/, the sandbox is used through its one entry point, sandbox/sandbox.ts.',
    severity: 'error',
    from: { path: '^src/', pathNot: '^src/sandbox/' },
    to: { path: '^src/sandbox/', pathNot: '^src/sandbox/sandbox\\.ts$' },
  },
  {
    name: 'no-circular',
    comment: 'No module imports itself through others.',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  {
    name: 'no-loose-files',
    comment: 'Every file of src/ lives in a layer folder.',
    severity: 'error',
    from: { path: '^src/[^/]+$' },
    to: {},
  },
];

module.exports = {
  forbidden: [...namedRules, ...layerRules],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist)/' },
  },
};
