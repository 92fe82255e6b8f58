import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { routeActionsLog, translateActionsLine } from '../../src/cli/actions-log.js';
import { parseInvocation, type Flags } from '../../src/cli/args.js';
import { CliError, UsageError } from '../../src/cli/cli-error.js';
import { localDefaults, readLocalSettings, requireApiKey } from '../../src/cli/local-settings.js';
import { commandLine, decideRepoTrust, untrustedReason, withSkippedServers } from '../../src/cli/repo-trust.js';
import { printable, type Terminal } from '../../src/cli/terminal.js';
import type { McpServerSpec } from '../../src/config/mcp-servers.js';
import { noCapabilities } from '../../src/mcp/capability-hub.js';
import { renderPlanText, renderUsageText } from '../../src/cli/text-render.js';

/** The CLI's pure parts: the command line, its settings, the log routing and the plain-text renderers. */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const noFlags: Flags = { yes: false, trustRepoConfig: false };

describe('parseInvocation', () => {
  it('joins unquoted words into one objective and keeps repeated options in order', () => {
    const parsed = parseInvocation([
      'plan',
      'add',
      'a',
      'test',
      '--allowed-commands',
      'npm test',
      '--allowed-commands',
      'npm run *',
      '--model',
      'm',
    ]);
    expect(parsed).toEqual({
      kind: 'plan',
      objective: 'add a test',
      flags: expect.objectContaining({ allowedCommands: ['npm test', 'npm run *'], model: 'm', yes: false }),
    });
  });

  it('takes an objective that starts with a dash after --, and a bare run without one', () => {
    expect(parseInvocation(['run', '-y', '--', '--verbose flag handling'])).toMatchObject({
      kind: 'run',
      objective: '--verbose flag handling',
      flags: { yes: true },
    });
    const bare = parseInvocation(['run']);
    expect(bare.kind === 'run' && bare.objective).toBe(undefined);
  });

  it('refuses what it cannot read with a UsageError that names the command', () => {
    const usage = (argv: string[]) => {
      try {
        parseInvocation(argv);
      } catch (error) {
        return error;
      }
      throw new Error(`no error for ${argv.join(' ')}`);
    };
    const missing = usage(['run', '--model']);
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as UsageError).message).toBe('--model needs a value.');
    expect((missing as UsageError).command).toBe('run');
    expect((usage(['plan', '--policy', 'plan-first', 'x']) as Error).message).toBe(
      '--policy is an option of plangate run, not of plan.',
    );
    expect((usage(['--model', 'x']) as Error).message).toBe(
      'option --model must follow a command; the commands are plan and run.',
    );
    expect((usage(['help', 'status']) as Error).message).toContain('there is no command "status"');
    // The value of a mistyped key option is never repeated back.
    expect((usage(['run', '--api-key=fake-key-not-a-secret-value']) as Error).message).not.toContain(
      'fake-key-not-a-secret',
    );
  });

  it('answers --help before anything else is checked', () => {
    expect(parseInvocation(['run', '--policy', 'bogus', '--help'])).toMatchObject({ kind: 'help' });
    expect(parseInvocation([])).toMatchObject({ kind: 'help' });
  });
});

describe('readLocalSettings', () => {
  const env = { PLANGATE_API_KEY: 'key-0123456789' };

  it("has the action's defaults", () => {
    const manifest = parseYaml(readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { default?: string }>;
    };
    const defaultOf = (name: string) => manifest.inputs[name]?.default;
    expect(localDefaults.baseUrl).toBe(defaultOf('base-url'));
    expect(localDefaults.plannerModel).toBe(defaultOf('planner-model'));
    expect(localDefaults.executorModel).toBe(defaultOf('executor-model'));
    expect(localDefaults.protectedPaths).toEqual([defaultOf('protected-paths')]);
    expect(String(localDefaults.maxIterations)).toBe(defaultOf('max-iterations'));
    expect(localDefaults.branchPrefix).toBe(defaultOf('branch-prefix'));
    expect(localDefaults.policy).toBe(defaultOf('policy'));
    expect(String(localDefaults.stallLimit)).toBe(defaultOf('stall-limit'));
    expect(String(localDefaults.maxWriteBytes)).toBe(defaultOf('max-write-bytes'));
    expect(localDefaults.configFile).toBe(defaultOf('config-file'));
    expect(String(localDefaults.modelRetries)).toBe(defaultOf('model-retries'));
    expect(String(localDefaults.modelTimeoutSeconds)).toBe(defaultOf('model-timeout'));
    const settings = readLocalSettings(noFlags, env, 'plan');
    expect(settings).toMatchObject({ modelRetries: 6, modelTimeoutSeconds: 180 });
    expect(settings.planner).toEqual({
      model: 'gpt-4.1',
      baseURL: 'https://api.openai.com/v1',
      apiKey: 'key-0123456789',
    });
    expect(settings.executor.model).toBe('gpt-4.1-mini');
  });

  it("prefers options to variables, and a role's own model to --model", () => {
    const settings = readLocalSettings(
      { ...noFlags, model: 'both', executorModel: 'exec', baseUrl: 'http://localhost:11434/v1' },
      {
        ...env,
        PLANGATE_PLANNER_MODEL: 'env-planner',
        PLANGATE_EXECUTOR_MODEL: 'env-exec',
        PLANGATE_BASE_URL: 'https://api.deepseek.com/v1',
      },
      'run',
    );
    expect(settings.planner).toMatchObject({ model: 'both', baseURL: 'http://localhost:11434/v1' });
    expect(settings.executor.model).toBe('exec');
    const fromEnv = readLocalSettings(
      noFlags,
      { ...env, PLANGATE_PLANNER_MODEL: 'env-planner', PLANGATE_BASE_URL: 'https://api.deepseek.com/v1' },
      'run',
    );
    expect(fromEnv.planner).toMatchObject({ model: 'env-planner', baseURL: 'https://api.deepseek.com/v1' });
  });

  it('refuses bad values: options as usage errors, variables as errors to fix', () => {
    expect(() => readLocalSettings({ ...noFlags, baseUrl: 'localhost:11434' }, env, 'run')).toThrow(UsageError);
    expect(() => readLocalSettings({ ...noFlags, maxIterations: '0' }, env, 'run')).toThrow(
      '--max-iterations must be a whole number from 1 to 100, not `0`.',
    );
    expect(() => readLocalSettings({ ...noFlags, maxCostUsd: 'lots' }, env, 'run')).toThrow(
      '--max-cost-usd must be a positive number, not `lots`.',
    );
    expect(() => readLocalSettings({ ...noFlags, modelRetries: '21' }, env, 'run')).toThrow(
      '--model-retries must be a whole number from 0 to 20, not `21`.',
    );
    expect(() => readLocalSettings({ ...noFlags, modelTimeout: '0' }, env, 'run')).toThrow(
      '--model-timeout must be a whole number from 1 to 3600, not `0`.',
    );
    expect(readLocalSettings({ ...noFlags, modelRetries: '0', modelTimeout: '30' }, env, 'run')).toMatchObject({
      modelRetries: 0,
      modelTimeoutSeconds: 30,
    });
    expect(() => readLocalSettings(noFlags, { ...env, PLANGATE_BASE_URL: 'ftp://example.com' }, 'run')).toThrow(
      CliError,
    );
  });

  it('keeps the default protected paths when the option holds nothing, and splits lines and comments away', () => {
    const settings = readLocalSettings(
      { ...noFlags, protectedPaths: ['  ', '# none'], allowedCommands: ['npm test\nnpm run lint', '# comment'] },
      env,
      'run',
    );
    expect(settings.protectedPaths).toBeUndefined();
    expect(settings.allowedCommands).toEqual(['npm test', 'npm run lint']);
  });

  it('seals the network by default and reads --network and --allowed-domains as the action reads its inputs', () => {
    expect(readLocalSettings(noFlags, env, 'plan')).toMatchObject({ network: 'sealed', allowedDestinations: [] });
    const parsed = parseInvocation([
      'run',
      '--network',
      'open',
      '--allowed-domains',
      'npm',
      '--allowed-domains',
      '*.Example.com:8443, 10.0.0.5',
    ]);
    expect(parsed).toMatchObject({
      flags: { network: 'open', allowedDomains: ['npm', '*.Example.com:8443, 10.0.0.5'] },
    });
    const settings = readLocalSettings(parsed.kind === 'run' ? parsed.flags : noFlags, env, 'run');
    expect(settings.network).toBe('open');
    expect(settings.allowedDestinations).toEqual([
      { host: 'registry.npmjs.org' },
      { host: 'registry.yarnpkg.com' },
      { host: '*.example.com', port: 8443 },
      { host: '10.0.0.5' },
    ]);
    expect(() => readLocalSettings({ ...noFlags, network: 'closed' }, env, 'run')).toThrow(
      /^--network must be sealed or open/,
    );
    const bad = () => readLocalSettings({ ...noFlags, allowedDomains: ['example.com:99999'] }, env, 'plan');
    expect(bad).toThrow(UsageError);
    expect(bad).toThrow(/^--allowed-domains example\.com:99999 has a port that is not a number from 1 to 65535/);
    expect(() => readLocalSettings({ ...noFlags, allowedDomains: ['exa mple.com'] }, env, 'plan')).toThrow(
      /^--allowed-domains exa mple\.com is neither a host name/,
    );
  });

  it('requires a key only when asked to', () => {
    const settings = readLocalSettings(noFlags, { PLANGATE_API_KEY: '  ' }, 'plan');
    expect(() => requireApiKey(settings)).toThrow(/^PLANGATE_API_KEY is not set/);
    expect(() => requireApiKey(readLocalSettings(noFlags, env, 'plan'))).not.toThrow();
  });
});

describe('the Actions log in a terminal', () => {
  it('turns workflow commands into plain lines and drops the runner-only ones', () => {
    expect(translateActionsLine('::group::planner · next step')).toBe('» planner · next step');
    expect(translateActionsLine('::warning::first%0Asecond 100%25')).toBe('warning: first\nsecond 100%');
    expect(translateActionsLine('::error file=a.ts,line=1::broken')).toBe('error: broken');
    expect(translateActionsLine('::add-mask::secret-value')).toBeUndefined();
    expect(translateActionsLine('::endgroup::')).toBeUndefined();
    expect(translateActionsLine('planner → read_file: ok')).toBe('  planner → read_file: ok');
  });

  it('routes what is written to the stream while routed, lets a bound write past, and gives the stream back', () => {
    const written: string[] = [];
    const stream = { write: (text: string) => written.push(text) > 0 } as unknown as NodeJS.WriteStream;
    const original = stream.write;
    const direct = stream.write.bind(stream);
    const sink: string[] = [];
    const route = routeActionsLog(stream, (line) => sink.push(line));
    stream.write('::group::executor\nexecutor → edit_file: ok\n::endgroup::\n');
    stream.write('::warning::half');
    direct('for the user\n');
    route.restore();
    expect(sink).toEqual(['» executor', '  executor → edit_file: ok', 'warning: half']);
    expect(written).toEqual(['for the user\n']);
    expect(stream.write).toBe(original);
  });
});

describe('plain-text rendering', () => {
  it('strips control characters and scrubs secrets', () => {
    expect(printable('a\u001b[31mred\u0007\r\nb\tc \u009b', ['secret-0123456789'])).toBe('a[31mred\nb\tc ');
    expect(printable('key secret-0123456789 here', ['secret-0123456789'])).toBe('key *** here');
  });

  it('renders a plan with its checks and a usage table with totals', () => {
    const text = renderPlanText({
      steps: [{ title: 'One', detail: 'Line 1\nLine 2', files: ['a.ts'], verify: 'npm test' }, { title: 'Two' }],
      assumptions: ['A'],
    });
    expect(text).toBe(
      [
        '  1. One',
        '     Line 1',
        '     Line 2',
        '     Files: a.ts',
        '     Verify: npm test',
        '  2. Two',
        '',
        'Assumptions:',
        '  - A',
      ].join('\n'),
    );
    const rows = [
      {
        role: 'planner' as const,
        models: ['gpt-4.1'],
        requests: 2,
        promptTokens: 1000,
        cachedTokens: 500,
        completionTokens: 10,
        costUsd: 0.01,
        cacheHitRatio: 0.5,
      },
      {
        role: 'executor' as const,
        models: ['local'],
        requests: 1,
        promptTokens: 0,
        cachedTokens: 0,
        completionTokens: 0,
        costUsd: null,
        cacheHitRatio: 0,
      },
    ];
    const table = renderUsageText(rows).split('\n');
    expect(table[1]).toMatch(/^ {2}planner +gpt-4\.1 +2 +1,000 +500 \(50 %\) +10 +\$0\.0100$/);
    expect(table[2]).toMatch(/local +1 +0 +0 +0 +unknown price$/);
    expect(table[3]).toMatch(/^ {2}total +unknown price$/);
    expect(renderUsageText(rows.slice(0, 1)).split('\n')[2]).toMatch(/total +\$0\.0100$/);
  });
});

describe("the question about the repository's config", () => {
  const servers: McpServerSpec[] = [
    {
      name: 'docs',
      transport: 'stdio',
      command: 'npx',
      args: ['docs-server', '--root', '.'],
      env: { DOCS_TOKEN: 'value-0123456789' },
    },
    {
      name: 'unset',
      transport: 'stdio',
      command: 'never',
      args: [],
      env: {},
      refusal: 'the environment variable X is not set',
    },
    { name: 'remote', transport: 'http', url: 'https://mcp.example.com/' },
  ];
  function fakeTerminal(interactive: boolean, answer: string | undefined) {
    const asked: string[] = [];
    const errors: string[] = [];
    const terminal: Terminal = {
      interactive,
      out: () => undefined,
      err: (text) => void errors.push(text),
      conceal: () => undefined,
      ask: (question) => {
        asked.push(question);
        return Promise.resolve(answer);
      },
    };
    return { terminal, asked, errors };
  }
  const decide = (trusted: boolean, terminal: Terminal, list = servers) =>
    decideRepoTrust({ servers: list, configFile: '.github/plangate.yml', trusted, terminal });

  it('asks only about servers that would run a program, and only y or yes starts them', async () => {
    for (const [answer, starts] of [
      ['y', true],
      [' YES ', true],
      ['n', false],
      ['yes please', false],
      ['', false],
      [undefined, false],
    ] as const) {
      const { terminal, asked, errors } = fakeTerminal(true, answer);
      const trust = await decide(false, terminal);
      expect(asked).toHaveLength(1);
      expect(asked[0]).toContain(
        '  MCP server docs: npx docs-server --root . (given DOCS_TOKEN from your environment)\nStart it? [y/N] ',
      );
      expect(asked[0]).not.toContain('value-0123456789');
      expect(asked[0]).not.toMatch(/unset|remote/);
      expect(trust.allowed.map((s) => s.name)).toEqual(starts ? ['docs', 'unset', 'remote'] : ['unset', 'remote']);
      expect(trust.skipped).toEqual(starts ? [] : [{ server: 'docs', reason: untrustedReason }]);
      expect(errors.some((line) => line.includes('--trust-repo-config'))).toBe(!starts);
    }
  });

  it('never asks with the option, nor where nobody is at a terminal, nor when nothing would run', async () => {
    const trusted = fakeTerminal(true, 'n');
    expect((await decide(true, trusted.terminal)).skipped).toEqual([]);
    const piped = fakeTerminal(false, 'y');
    expect((await decide(false, piped.terminal)).skipped.map((s) => s.server)).toEqual(['docs']);
    expect(piped.errors).toEqual([
      'Not starting the MCP server docs that .github/plangate.yml defines: programs the repository names run only with --trust-repo-config or a yes on a terminal.',
    ]);
    const nothing = fakeTerminal(true, 'y');
    expect((await decide(false, nothing.terminal, servers.slice(1))).allowed).toHaveLength(2);
    for (const t of [trusted, piped, nothing]) expect(t.asked).toEqual([]);
  });

  it('shows each word of a command line for what it is', () => {
    expect(
      commandLine({ command: 'node', args: ['server.js', 'two words', 'line\nbreak', '\u202eevil', '\u001b[2J', ''] }),
    ).toBe('node server.js "two words" "line\\nbreak" "\\u202eevil" "\\u001b[2J" ""');
  });

  it('lists the skipped servers to the agents as not available', async () => {
    const hub = withSkippedServers(noCapabilities, [{ server: 'docs', reason: untrustedReason }]);
    const started = await hub.start();
    expect(started).toEqual({ configured: 1, connected: [], failures: [{ server: 'docs', reason: untrustedReason }] });
    expect(await hub.start()).toBe(started);
  });
});
