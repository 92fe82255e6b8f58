import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolCall, type Reply, type ScriptedModel } from '../fakes/scripted-model.js';
import { apiKey, createRepo, type CliRun, type Repo } from './cli-repo.js';
import { expectNotesListing, notesServerConfig, notesServerScript, toolResults } from '../fakes/mcp-notes-script.js';
import { appendFarewell, farewellPlan } from '../fakes/farewell-change.js';

/**
 * The local CLI as a user runs it: `node dist/cli.js` in a temporary git repository, against the
 * scripted OpenAI-compatible model, with real git. Every run is also checked for the API key in
 * its output, which must never appear.
 */

const firstDirective = 'Append a farewell(name) function to src/greet.js that returns "Goodbye " + name.';

/** Planning: one read, then the plan and its first directive. */
const planning: Reply[] = [
  toolCall('read_file', { path: 'src/greet.js' }),
  toolCall('update_context', { plan: farewellPlan, directive: firstDirective }),
];

/** The rest of a two-cycle run: edit, replan, document, done, summary. */
const execution = {
  planner: [
    toolCall('update_context', { directive: 'Add a line about farewell(name) to README.md.' }),
    toolCall('update_context', { summary: 'Added farewell(name) and documented it.' }),
  ],
  executor: [
    appendFarewell,
    toolCall('update_context', { result: 'Appended farewell to src/greet.js.', outcome: 'replan' }),
    toolCall('edit_file', {
      path: 'README.md',
      old: 'A tiny project for plangate scenarios.\n',
      new: 'A tiny project for plangate scenarios.\n\nIt greets and says goodbye: farewell(name).\n',
    }),
    toolCall('update_context', { result: 'Documented farewell in README.md.', outcome: 'done' }),
  ],
};

let current: Repo | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const branches = (repo: Repo) =>
  repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/').split('\n').filter(Boolean).sort();
const planIdOf = (run: CliRun) => /^Plan ([0-9a-f]{8}):/m.exec(run.stdout)?.[1] ?? '';
/** Tracked and untracked files of the work tree, .git excluded. */
function workTree(dir: string, sub = ''): string[] {
  return readdirSync(path.join(dir, sub), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(sub, entry.name);
    if (rel === '.git') return [];
    return entry.isDirectory() ? workTree(dir, rel) : [rel];
  });
}

describe('plangate --help', () => {
  it('explains every command, its options and the environment, without calling a model', async () => {
    current = await createRepo({});
    const top = await current.cli(['--help']);
    const plan = await current.cli(['plan', '--help']);
    const run = await current.cli(['run', '-h']);
    const helpCommand = await current.cli(['help', 'run']);
    for (const result of [top, plan, run, helpCommand]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain('PLANGATE_API_KEY');
      expect(result.stdout).toContain('PLANGATE_BASE_URL');
    }
    expect(top.stdout).toContain('plangate plan "<objective>"');
    expect(top.stdout).toContain('plangate run ["<objective>"]');
    // The config file's parts the CLI uses, as the action does.
    expect(top.stdout).toContain('prices:');
    expect(top.stdout).toContain('mcp-servers:');
    expect(plan.stdout).toContain('Variables an MCP server names in .github/plangate.yml (env:)');
    expect(plan.stdout).toMatch(/^Usage: plangate plan \[options\] "<objective>"/);
    for (const option of [
      '--base-url',
      '--model',
      '--planner-model',
      '--executor-model',
      '--allowed-commands',
      '--protected-paths',
      '--max-iterations',
      '--network',
      '--allowed-domains',
      '--trust-repo-config',
    ]) {
      expect(plan.stdout).toContain(option);
      expect(run.stdout).toContain(option);
    }
    expect(run.stdout).toMatch(/^Usage: plangate run \[options\] \["<objective>"\]/);
    for (const option of ['--yes', '--policy', '--branch-prefix', '--max-cost-usd'])
      expect(run.stdout).toContain(option);
    expect(plan.stdout).not.toContain('--yes');
    expect(helpCommand.stdout).toBe(run.stdout);
    expect(current.model.requests).toHaveLength(0);
  });

  it('answers a wrong command line with one line on stderr and exit code 2', async () => {
    current = await createRepo({});
    const unknown = await current.cli(['plan', '--frobnicate', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('plangate: unknown option --frobnicate; see plangate plan --help.\n');
    const key = await current.cli(['run', `--api-key=${apiKey}`]);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('set PLANGATE_API_KEY in the environment');
    const noObjective = await current.cli(['plan']);
    expect(noObjective.code).toBe(2);
    expect(noObjective.stderr).toContain('plan needs an objective');
    const runOnly = await current.cli(['plan', '--yes', 'x']);
    expect(runOnly.stderr).toContain('--yes is an option of plangate run, not of plan');
    const policy = await current.cli(['run', '--policy', 'plan-only', 'x']);
    expect(policy.code).toBe(2);
    expect(policy.stderr).toContain('use plangate plan');
    for (const result of [unknown, key, noObjective, runOnly, policy]) expect(result.stdout).toBe('');
    expect(current.model.requests).toHaveLength(0);
  });
});

describe('plangate plan', () => {
  it('shows a plan its checks block with the flag or objective that fixes it', async () => {
    current = await createRepo({ planner: planning });
    const result = await current.cli(['plan', '--protected-paths', 'src/**', 'Add a farewell function']);
    expect(result.stdout).toContain('src/greet.js');
    expect(result.stdout).toMatch(/⛔ Checks failed/);
    expect(result.stdout).toContain(
      'To fix: plan again with --protected-paths changed, or with an objective that avoids these.',
    );
  });

  it('prints the plan, its id and first directive, saves it under .git and writes nothing to the work tree', async () => {
    current = await createRepo({ planner: planning });
    const head = current.git('rev-parse', 'HEAD');
    const before = workTree(current.dir);

    const result = await current.cli(['plan', 'Add a farewell function']);
    expect(result.code, result.stderr).toBe(0);
    const planId = planIdOf(result);
    expect(planId).toMatch(/^[0-9a-f]{8}$/);
    expect(result.stdout).toContain('Plan ' + planId + ': Add a farewell function');
    expect(result.stdout).toContain('1. Add a farewell function');
    expect(result.stdout).toContain('Verify: node --check src/greet.js');
    // The same checks as the action's plan comment, by the same code, in plain text.
    expect(result.stdout).toContain('Commands the executor may run: none');
    expect(result.stdout).toContain(
      '✅ Checks passed with 1 warning: no step touches a protected path and the steps fit `max-iterations`, but a verify command is not in `allowed-commands`',
    );
    expect(result.stdout).toContain(
      '- ⚠️ step 1: the verify command "node --check src/greet.js" is not in `allowed-commands` (no allowed-commands are configured); the executor cannot run it',
    );
    expect(result.stdout).toContain(
      'Execution cost: no estimate: no price for model executor (executor executor, 2 steps).',
    );
    // No internal fingerprint reaches the terminal: the prefix hash is debug output for the runner only.
    expect(result.stdout + result.stderr).not.toMatch(/prefix [0-9a-f]{6,}/);
    expect(result.stderr).toContain('» planner · plan');
    expect(result.stdout).toContain('2. Document it');
    expect(result.stdout).toContain('None beyond a new export.');
    expect(result.stdout).toContain(firstDirective);
    expect(result.stdout).toMatch(/planner\s+planner\s+2\s/);
    expect(result.stdout).toContain('plangate run');
    // The agents' log went to stderr as plain lines, not as workflow commands.
    expect(result.stderr).toContain('planner → read_file: ok');
    expect(result.stdout + result.stderr).not.toMatch(/^::/m);

    // The planner was offered read-only tools and the model saw the key it needs.
    const tools = current.model.requests[0]?.tools.map((t) => (t.type === 'function' ? t.function.name : t.type));
    expect(tools).toEqual(expect.arrayContaining(['list_files', 'read_file', 'search', 'update_context']));
    for (const write of ['write_file', 'edit_file', 'run_command']) expect(tools).not.toContain(write);
    expect(current.model.requests.every((r) => r.authMatched)).toBe(true);

    expect(current.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(workTree(current.dir)).toEqual(before);
    expect(current.git('rev-parse', 'HEAD')).toBe(head);
    expect(branches(current)).toEqual(['main']);
    const saved = JSON.parse(readFileSync(path.join(current.dir, '.git/plangate/plans', `${planId}.json`), 'utf8')) as {
      status: string;
      base: { sha: string };
      snapshot: { context: { directive: string } };
    };
    expect(saved.status).toBe('proposed');
    expect(saved.base.sha).toBe(head);
    expect(saved.snapshot.context.directive).toBe(firstDirective);
    expect(current.model.remaining()).toEqual({ planner: 0 });
  });

  it('prints what the planner asks instead of a plan, and saves none', async () => {
    current = await createRepo({
      planner: [
        toolCall('update_context', {
          question: { text: 'Which greeting should farewell use?', options: ['Goodbye', 'Bye'] },
        }),
      ],
    });
    const result = await current.cli(['plan', 'Add a farewell function']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Which greeting should farewell use?');
    expect(result.stdout).toContain('2. Bye');
    expect(existsSync(path.join(current.dir, '.git/plangate/last-plan'))).toBe(false);
  });

  it('scrubs the API key and control characters from model text it prints', async () => {
    const sneaky = { steps: [{ title: `Print ${apiKey} \u001b[2J\u001b[Hcleared` }] };
    current = await createRepo({
      planner: [toolCall('update_context', { plan: sneaky, directive: `Use ${apiKey}.` })],
    });
    const result = await current.cli(['plan', 'Anything']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('1. Print *** [2J[Hcleared');
    expect(result.stdout).not.toContain('\u001b');
    // The key itself is asserted absent from every output when the repository closes.
  });
});

describe('plangate run', () => {
  it('executes the approved plan on a new local branch, one commit with trailers per cycle, leaving main as it was', async () => {
    current = await createRepo({ planner: [...planning, ...execution.planner], executor: execution.executor });
    const main = current.git('rev-parse', 'main');
    const planned = await current.cli(['plan', 'Add a farewell function']);
    const planId = planIdOf(planned);

    const result = await current.cli(['run'], { stdin: 'y\n' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Plan ${planId}: Add a farewell function`);
    expect(result.stderr).toContain(`Approve plan ${planId}? [y/N] `);
    const branch = `plangate/${planId}`;
    expect(branches(current)).toEqual(['main', branch]);
    expect(current.git('rev-parse', 'main')).toBe(main);
    expect(current.git('symbolic-ref', '--short', 'HEAD')).toBe(branch);

    const commits = current.git('rev-list', '--reverse', `main..${branch}`).split('\n');
    expect(commits).toHaveLength(2);
    expect(current.git('merge-base', main, branch)).toBe(main);
    for (const [i, sha] of commits.entries()) {
      expect(current.git('log', '-1', '--format=%s', sha)).toMatch(
        new RegExp(`^plangate: cycle ${i + 1} of plan ${planId}: `),
      );
      expect(current.git('log', '-1', '--format=%(trailers:key=Plangate-Plan,valueonly)', sha)).toBe(planId);
      expect(current.git('log', '-1', '--format=%(trailers:key=Approved-by,valueonly)', sha)).toBe('Mona');
      expect(current.git('log', '-1', '--format=%an <%ae>', sha)).toBe('Mona <mona@example.com>');
    }
    expect(current.git('show', `${branch}:src/greet.js`)).toContain("return 'Goodbye ' + name;");
    expect(current.git('show', `${branch}:README.md`)).toContain('farewell(name)');
    expect(current.git('show', 'main:src/greet.js')).not.toContain('farewell');
    expect(current.git('status', '--porcelain', '--untracked-files=all')).toBe('');

    // History, summary and cost, as the pull request would show them.
    expect(result.stdout).toContain('Cycle 1: next step');
    expect(result.stdout + result.stderr).not.toMatch(/replan/i);
    expect(result.stdout).toContain('Appended farewell to src/greet.js.');
    expect(result.stdout).toContain('Cycle 2: done');
    expect(result.stdout).toContain('Added farewell(name) and documented it.');
    expect(result.stdout).toMatch(/planner\s+planner\s+4\s/);
    expect(result.stdout).toMatch(/executor\s+executor\s+4\s/);
    expect(result.stdout).toContain(`The work is on branch ${branch} (2 commits`);
    expect(result.stderr).toContain(`plangate: plan ${planId} done.`);
    // The executor had the write tools; the planner's sessions never did.
    const executorTools = current.model.requests
      .find((r) => r.model === 'executor')
      ?.tools.map((t) => (t.type === 'function' ? t.function.name : ''));
    expect(executorTools).toEqual(expect.arrayContaining(['write_file', 'edit_file', 'run_command']));
    expect(current.model.remaining()).toEqual({ planner: 0, executor: 0 });

    // The plan is spent: a second run refuses it instead of running it again.
    current.git('switch', '--quiet', 'main');
    const again = await current.cli(['run'], { stdin: 'y\n' });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`the last plan, ${planId}, was already run on branch ${branch} (done)`);
  });

  it('plans first when given an objective, and --yes approves without asking', async () => {
    current = await createRepo({
      planner: [...planning, toolCall('update_context', { summary: 'Added farewell(name).' })],
      executor: [
        execution.executor[0] as Reply,
        toolCall('update_context', { result: 'Appended farewell.', outcome: 'done' }),
      ],
    });
    const result = await current.cli(['run', '--yes', '--branch-prefix', 'agent/', 'Add a farewell function']);
    expect(result.code, result.stderr).toBe(0);
    const planId = planIdOf(result);
    expect(result.stderr).not.toContain('Approve plan');
    expect(result.stderr).toContain('Approved by --yes.');
    expect(current.git('show', `agent/${planId}:src/greet.js`)).toContain('farewell');
    expect(current.git('log', '-1', '--format=%(trailers:key=Plangate-Plan,valueonly)', `agent/${planId}`)).toBe(
      planId,
    );
  });

  it('changes nothing when the answer is "n"', async () => {
    current = await createRepo({ planner: planning, executor: execution.executor });
    const head = current.git('rev-parse', 'HEAD');
    const result = await current.cli(['run', 'Add a farewell function'], { stdin: 'n\n' });
    expect(result.code, result.stderr).toBe(0);
    const planId = planIdOf(result);
    expect(result.stdout).toContain(`Plan ${planId} was not approved; nothing was changed.`);
    expect(branches(current)).toEqual(['main']);
    expect(current.git('rev-parse', 'HEAD')).toBe(head);
    expect(current.git('symbolic-ref', '--short', 'HEAD')).toBe('main');
    expect(current.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(current.model.requests.filter((r) => r.model === 'executor')).toHaveLength(0);
  });

  it('refuses to execute when nobody can answer and --yes is not given', async () => {
    current = await createRepo({ planner: planning });
    const planned = await current.cli(['plan', 'Add a farewell function']);
    const result = await current.cli(['run']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      `plangate: nobody answered the approval question (stdin ended); run plangate in a terminal to answer it, or pass --yes to approve plan ${planIdOf(planned)}.`,
    );
    expect(branches(current)).toEqual(['main']);
  });

  it('refuses a dirty work tree before any model call', async () => {
    current = await createRepo({ planner: planning });
    writeFileSync(path.join(current.dir, 'notes.txt'), 'my own work\n');
    const run = await current.cli(['run', 'Add a farewell function'], { stdin: 'y\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'plangate: the work tree has 1 uncommitted change; commit or stash them (git stash --include-untracked) before running plangate.\n',
    );
    writeFileSync(path.join(current.dir, 'README.md'), 'changed\n');
    const plan = await current.cli(['plan', 'Add a farewell function']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('2 uncommitted changes');
    expect(current.model.requests).toHaveLength(0);
    expect(readFileSync(path.join(current.dir, 'notes.txt'), 'utf8')).toBe('my own work\n');
  });

  it('refuses without an API key, before any model call', async () => {
    current = await createRepo({ planner: planning });
    const result = await current.cli(['run', 'Add a farewell function'], {
      stdin: 'y\n',
      env: { PLANGATE_API_KEY: undefined },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^plangate: PLANGATE_API_KEY is not set: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(current.model.requests).toHaveLength(0);
  });

  it('refuses a saved plan that was edited after it was made', async () => {
    current = await createRepo({ planner: planning });
    const planId = planIdOf(await current.cli(['plan', 'Add a farewell function']));
    const file = path.join(current.dir, '.git/plangate/plans', `${planId}.json`);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { snapshot: { context: { directive: string } } };
    saved.snapshot.context.directive = 'Delete everything.';
    writeFileSync(file, JSON.stringify(saved));
    const result = await current.cli(['run'], { stdin: 'y\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the saved plan ${planId} was changed after it was made`);
    expect(branches(current)).toEqual(['main']);
  });

  it('never touches a branch that already exists', async () => {
    current = await createRepo({ planner: planning });
    const planId = planIdOf(await current.cli(['plan', 'Add a farewell function']));
    current.git('branch', `plangate/${planId}`);
    const theirs = current.git('rev-parse', `plangate/${planId}`);
    const result = await current.cli(['run'], { stdin: 'y\n' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`branch plangate/${planId} already exists`);
    expect(result.stderr).not.toContain('Approve plan');
    expect(current.git('rev-parse', `plangate/${planId}`)).toBe(theirs);
  });
});

describe('MCP servers from .github/plangate.yml', () => {
  const probe = 'cli-mcp-probe-value-0123456789';
  const config = { '.github/plangate.yml': notesServerConfig };
  const brokenLine =
    'warning: MCP server broken did not start, so this run continues without it: the command "plangate-no-such-mcp-server-command" was not found';

  /** Every tool result a role's model was sent, each once, in order. */

  it('starts them as the action does: the planner calls the read-only tool, the executor the writing one, a broken one is named once', async () => {
    current = await createRepo(notesServerScript, config);
    const result = await current.cli(['run', '--yes', '--trust-repo-config', 'Record the release note'], {
      env: { PLANGATE_MCP_PROBE: probe },
    });
    expect(result.code, result.stderr).toBe(0);

    // One start for the whole command, shared by planning and execution: each server is reported once.
    const stderr = result.stderr.split('\n');
    expect(stderr.filter((line) => line.includes('MCP server broken'))).toEqual([brokenLine]);
    expect(stderr.filter((line) => line.includes('MCP server notes'))).toEqual([
      '  MCP server notes: started with 4 tools.',
    ]);
    expect(result.stdout + result.stderr).not.toMatch(/^::/m);

    const [listed, lookup, refusal] = toolResults(current.model.requests, 'planner');
    expectNotesListing(listed);
    // The named variable reached the server from the CLI's environment, scrubbed before the model saw it;
    // the API key did not reach the server.
    expect(lookup).toContain('lookup release: probe=***');
    const names = /env-names=(.*)/.exec(lookup ?? '')?.[1]?.split(',') ?? [];
    expect(names).toContain('PLANGATE_MCP_PROBE');
    expect(names.filter((n) => n.startsWith('PLANGATE_') && n !== 'PLANGATE_MCP_PROBE')).toEqual([]);
    expect(refusal).toContain('notes/record is not read-only; only the executor may call it');

    // The executor's call ran in the checkout; what it wrote is committed on the work branch.
    expect(toolResults(current.model.requests, 'executor')[0]).toBe('recorded: release 1.0');
    const planId = planIdOf(result);
    expect(current.git('show', `plangate/${planId}:mcp-records.txt`)).toBe('release 1.0');
    expect(current.model.remaining()).toEqual({ planner: 0, executor: 0 });

    // The value is a secret: neither printed nor sent to a model.
    expect(result.stdout + result.stderr).not.toContain(probe);
    expect(JSON.stringify(current.model.requests.map((r) => r.messages))).not.toContain(probe);
  });

  it('plans without a server whose variable is unset, saying so in one line on stderr', async () => {
    current = await createRepo({ planner: [toolCall('list_capabilities', {}), ...planning] }, config);
    const result = await current.cli(['plan', '--trust-repo-config', 'Add a farewell function'], {
      env: { PLANGATE_MCP_PROBE: undefined },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(planIdOf(result)).toMatch(/^[0-9a-f]{8}$/);
    const stderr = result.stderr.split('\n');
    expect(stderr.filter((line) => line.includes('did not start'))).toEqual([
      brokenLine,
      'warning: MCP server notes did not start, so this run continues without it: the environment variable PLANGATE_MCP_PROBE is not set; set it in the environment you run plangate in',
    ]);
    const [listed] = toolResults(current.model.requests, 'planner');
    expect(listed).toContain(
      '## notes\nNot available: it did not start (the environment variable PLANGATE_MCP_PROBE is not set',
    );
  });

  it('starts no server for a command that is refused before any agent is summoned', async () => {
    current = await createRepo({ planner: planning }, config);
    const planId = planIdOf(
      await current.cli(['plan', '--trust-repo-config', 'Add a farewell function'], {
        env: { PLANGATE_MCP_PROBE: probe },
      }),
    );
    current.git('branch', `plangate/${planId}`);
    const result = await current.cli(['run', '--trust-repo-config'], {
      stdin: 'y\n',
      env: { PLANGATE_MCP_PROBE: probe },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`branch plangate/${planId} already exists`);
    expect(result.stderr).not.toContain('MCP server');
  });
});

describe("what the repository's .github/plangate.yml would run", () => {
  /**
   * A stdio server whose start leaves a marker in its HOME (the test's, which a sealed command finds where
   * it is; beside the checkout is the run's own /tmp for it), then exits.
   */
  const marker = (repo: Repo) => path.join(repo.home, 'repo-config-ran');
  const config = {
    '.github/plangate.yml': [
      'mcp-servers:',
      '  marker:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: ["-e", "require('node:fs').writeFileSync(process.env.HOME + '/repo-config-ran', 'started')", "a b"]`,
      '',
    ].join('\n'),
  };
  const skipLine =
    'Not starting the MCP server marker that .github/plangate.yml defines: programs the repository names run only with --trust-repo-config or a yes on a terminal.';
  /** What the planner's list_capabilities call returned. */
  const listed = (model: ScriptedModel) =>
    model.requests
      .filter((r) => r.model === 'planner')
      .flatMap((r) => r.messages)
      .find((m) => m.role === 'tool')?.content;
  const withSummary = (planner: Reply[]) => [
    ...planner,
    toolCall('update_context', { summary: 'Added farewell(name).' }),
  ];
  const oneCycle: Reply[] = [
    execution.executor[0] as Reply,
    toolCall('update_context', { result: 'Appended farewell.', outcome: 'done' }),
  ];
  /** util-linux `script` that can open a pseudo-terminal here; elsewhere the terminal tests are skipped. */
  const hasScript = (() => {
    try {
      execFileSync('script', ['-qec', 'true', '/dev/null'], { input: '', stdio: 'pipe', timeout: 10_000 });
      return execFileSync('script', ['--version'], { encoding: 'utf8' }).includes('util-linux');
    } catch {
      return false;
    }
  })();

  it('plan starts nothing from it without --trust-repo-config, says so in one line and tells the planner', async () => {
    current = await createRepo({ planner: [toolCall('list_capabilities', {}), ...planning] }, config);
    const result = await current.cli(['plan', 'Add a farewell function']);
    expect(result.code, result.stderr).toBe(0);
    expect(planIdOf(result)).toMatch(/^[0-9a-f]{8}$/);
    expect(existsSync(marker(current))).toBe(false);
    expect(result.stderr.split('\n').filter((line) => line.includes('marker'))).toEqual([skipLine]);
    expect(result.stderr).not.toContain('[y/N]');
    expect(listed(current.model)).toContain(
      '## marker\nNot available: it did not start (the user did not allow programs named in the repository',
    );
  });

  it('plan starts its servers with --trust-repo-config', async () => {
    current = await createRepo({ planner: planning }, config);
    const result = await current.cli(['plan', '--trust-repo-config', 'Add a farewell function']);
    expect(result.code, result.stderr).toBe(0);
    expect(readFileSync(marker(current), 'utf8')).toBe('started');
    expect(result.stderr).not.toContain('Not starting');
  });

  it('run starts nothing from it without the option, --yes and a piped answer included; with the option it does', async () => {
    current = await createRepo({ planner: withSummary(planning), executor: oneCycle }, config);
    const result = await current.cli(['run', '--yes', 'Add a farewell function'], { stdin: 'y\ny\n' });
    expect(result.code, result.stderr).toBe(0);
    expect(current.git('show', `plangate/${planIdOf(result)}:src/greet.js`)).toContain('farewell');
    expect(existsSync(marker(current))).toBe(false);
    expect(result.stderr.split('\n').filter((line) => line.includes('marker'))).toEqual([skipLine]);
    await current.close();

    current = await createRepo(
      { planner: [...planning, toolCall('update_context', { summary: 'Added farewell(name).' })], executor: oneCycle },
      config,
    );
    const planned = await current.cli(['plan', 'Add a farewell function']);
    expect(existsSync(marker(current))).toBe(false);
    const run = await current.cli(['run', '--trust-repo-config'], { stdin: 'y\n' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`Approve plan ${planIdOf(planned)}? [y/N] `);
    expect(readFileSync(marker(current), 'utf8')).toBe('started');
    expect(run.stderr).not.toContain('Not starting');
  });

  it('never asks where nobody can answer: CI=true starts nothing and asks nothing', async () => {
    current = await createRepo({ planner: planning }, config);
    const result = await current.cli(['plan', 'Add a farewell function'], { stdin: 'y\n', env: { CI: 'true' } });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(marker(current))).toBe(false);
    expect(result.stderr).toContain(skipLine);
  });

  describe.skipIf(!hasScript)('on a terminal', () => {
    const question = [
      '.github/plangate.yml in this repository would have plangate start this program on your machine, as you:',
      `  MCP server marker: ${process.execPath} -e "require('node:fs').writeFileSync(process.env.HOME + '/repo-config-ran', 'started')" "a b"`,
      'Start it? [y/N] ',
    ].join('\n');

    it('asks once, listing the command line, and starts nothing unless the answer is yes', async () => {
      current = await createRepo({ planner: planning }, config);
      const declined = await current.cliOnTerminal(['plan', 'Add a farewell function'], 'sure\n');
      expect(declined.code, declined.stdout).toBe(0);
      expect(declined.stdout).toContain(question);
      expect(declined.stdout.split(question)).toHaveLength(2);
      expect(declined.stdout).toContain(skipLine);
      expect(planIdOf(declined)).toMatch(/^[0-9a-f]{8}$/);
      expect(existsSync(marker(current))).toBe(false);
    });

    it('starts the servers on a yes', async () => {
      current = await createRepo({ planner: planning }, config);
      const accepted = await current.cliOnTerminal(['plan', 'Add a farewell function'], 'y\n');
      expect(accepted.code, accepted.stdout).toBe(0);
      expect(accepted.stdout).toContain(question);
      expect(accepted.stdout).not.toContain('Not starting');
      expect(readFileSync(marker(current), 'utf8')).toBe('started');
    });

    it('does not ask with CI=true, even on a terminal', async () => {
      current = await createRepo({ planner: planning }, config);
      const result = await current.cliOnTerminal(['plan', 'Add a farewell function'], 'y\n', { CI: 'true' });
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).not.toContain('[y/N]');
      expect(result.stdout).toContain(skipLine);
      expect(existsSync(marker(current))).toBe(false);
    });
  });
});
