import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  parseRepoConfig,
  readInputs,
  readRepoConfig,
  readSettings,
  SettingsError,
  withRepoConfig,
} from '../../src/config/settings.js';
import { makeTempDir, removeDir, writeFiles } from './tools-git-fixture.js';

/**
 * Inputs reach plangate as INPUT_<NAME> variables, the name upper-cased with hyphens kept, exactly as
 * @actions/core reads them; the runner environment is passed in explicitly.
 */

let savedEnv: NodeJS.ProcessEnv;
let workspace: string;

beforeEach(() => {
  savedEnv = { ...process.env };
  for (const key of Object.keys(process.env)) if (key.startsWith('INPUT_')) delete process.env[key];
  workspace = makeTempDir('plangate-settings-');
});

afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  removeDir(workspace);
  vi.restoreAllMocks();
});

function setInputs(inputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.toUpperCase()}`] = value;
}

function runnerEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  return {
    GITHUB_EVENT_NAME: 'issue_comment',
    GITHUB_EVENT_PATH: '/tmp/event.json',
    GITHUB_REPOSITORY: 'octo/widgets',
    GITHUB_WORKSPACE: workspace,
    GITHUB_API_URL: 'http://127.0.0.1:9999/api/',
    GITHUB_SERVER_URL: 'http://127.0.0.1:9999/',
    GITHUB_RUN_ID: '42',
    ...overrides,
  };
}

/** readSettings, with the runner's `::add-mask::` commands captured instead of printed. */
function read(
  env: NodeJS.ProcessEnv = runnerEnv(),
  configText?: string,
): { settings: ReturnType<typeof readSettings>; masked: string[] } {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    const settings = readSettings(env, configText);
    const masked = written
      .flatMap((w) => w.split('\n'))
      .filter((l) => l.startsWith('::add-mask::'))
      .map((l) => l.slice(12).trim());
    return { settings, masked };
  } finally {
    spy.mockRestore();
  }
}

function errorOf(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return error as SettingsError;
  }
  throw new Error('expected a SettingsError, nothing was thrown');
}

const allInputs = [
  'github-token',
  'api-key',
  'base-url',
  'planner-api-key',
  'executor-api-key',
  'planner-model',
  'executor-model',
  'planner-base-url',
  'executor-base-url',
  'trigger-permission',
  'approve-permission',
  'allowed-commands',
  'protected-paths',
  'max-iterations',
  'parallel-steps',
  'branch-prefix',
  'base-branch',
  'bot-login',
  'config-file',
  'command-isolation',
  'approval-max-age-hours',
  'network',
  'allowed-domains',
];

const defaults = {
  githubToken: '',
  planner: { model: 'gpt-4.1', baseURL: 'https://api.openai.com/v1', apiKey: '' },
  executor: { model: 'gpt-4.1-mini', baseURL: 'https://api.openai.com/v1', apiKey: '' },
  triggerPermission: 'write',
  approvePermission: 'write',
  allowedCommands: [],
  protectedPaths: ['.github/workflows/**'],
  maxIterations: 8,
  parallelSteps: 3,
  modelRetries: 6,
  modelTimeoutSeconds: 180,
  branchPrefix: 'plangate/',
  baseBranch: '',
  botLogin: 'github-actions[bot]',
  commandPrefix: '',
  configFile: '.github/plangate.yml',
  commandUser: '',
  commandIsolation: 'account',
  approvalMaxAgeHours: 168,
  timeoutMinutes: 45,
  network: 'sealed',
  allowedDestinations: [],
  config: {},
  mcpServers: [],
};

describe('readSettings defaults', () => {
  it('uses every default when no input is set', () => {
    const { settings } = read();
    expect(settings).toMatchObject(defaults);
  });

  it('treats empty and blank inputs like absent ones', () => {
    setInputs(Object.fromEntries(allInputs.map((name, i) => [name, i % 2 === 0 ? '' : '   '])));
    const { settings } = read();
    expect(settings).toMatchObject(defaults);
  });

  it('reads the runner environment, trimming trailing slashes from URLs', () => {
    const { settings } = read();
    expect(settings.runner).toEqual({
      eventName: 'issue_comment',
      eventPath: '/tmp/event.json',
      owner: 'octo',
      repo: 'widgets',
      workspace,
      temp: '',
      apiUrl: 'http://127.0.0.1:9999/api',
      serverUrl: 'http://127.0.0.1:9999',
      runId: '42',
      repositoryId: '',
    });
  });

  it('defaults the API and server URLs to github.com when the runner sets none', () => {
    const { settings } = read(
      runnerEnv({ GITHUB_API_URL: undefined, GITHUB_SERVER_URL: undefined, GITHUB_RUN_ID: undefined }),
    );
    expect(settings.runner.apiUrl).toBe('https://api.github.com');
    expect(settings.runner.serverUrl).toBe('https://github.com');
    expect(settings.runner.runId).toBe('');
  });
});

describe('readSettings values', () => {
  it('reads every input as given', () => {
    setInputs({
      'github-token': 'ghs_token_value_123',
      'api-key': 'sk-shared-key-123',
      'base-url': 'http://127.0.0.1:8080/v1',
      'planner-model': 'deepseek-reasoner',
      'executor-model': 'deepseek-chat',
      'trigger-permission': 'maintain',
      'approve-permission': 'admin',
      'allowed-commands': 'npm test\n\n# a comment\n  npx tsc --noEmit  ',
      'protected-paths': '.github/**\nsecrets/**',
      'max-iterations': ' 12 ',
      'parallel-steps': ' 8 ',
      'branch-prefix': 'bots/plangate-',
      'base-branch': ' develop ',
      'bot-login': 'plangate-app[bot]',
      'command-user': 'builder',
      'command-isolation': ' none ',
      'approval-max-age-hours': ' 24 ',
    });
    const { settings } = read();
    expect(settings).toMatchObject({
      githubToken: 'ghs_token_value_123',
      planner: { model: 'deepseek-reasoner', baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-shared-key-123' },
      executor: { model: 'deepseek-chat', baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-shared-key-123' },
      triggerPermission: 'maintain',
      approvePermission: 'admin',
      allowedCommands: ['npm test', 'npx tsc --noEmit'],
      protectedPaths: ['.github/**', 'secrets/**'],
      maxIterations: 12,
      parallelSteps: 8,
      branchPrefix: 'bots/plangate-',
      baseBranch: 'develop',
      botLogin: 'plangate-app[bot]',
      commandUser: 'builder',
      commandIsolation: 'none',
      approvalMaxAgeHours: 24,
    });
  });

  it('lets each role override the shared key and URL, falling back per role', () => {
    setInputs({
      'api-key': 'sk-shared-key-123',
      'base-url': 'http://127.0.0.1:8080/v1',
      'planner-api-key': 'sk-planner-key-456',
      'executor-base-url': 'http://127.0.0.1:8081/v1',
    });
    const { settings } = read();
    expect(settings.planner).toEqual({
      model: 'gpt-4.1',
      baseURL: 'http://127.0.0.1:8080/v1',
      apiKey: 'sk-planner-key-456',
    });
    expect(settings.executor).toEqual({
      model: 'gpt-4.1-mini',
      baseURL: 'http://127.0.0.1:8081/v1',
      apiKey: 'sk-shared-key-123',
    });
  });

  it('registers every key and the token as secrets with the runner', () => {
    setInputs({
      'github-token': 'ghs_token_value_123',
      'api-key': 'sk-shared-key-123',
      'planner-api-key': 'sk-planner-key-456',
      'executor-api-key': 'sk-executor-key-789',
    });
    const { masked } = read();
    expect(masked).toEqual(
      expect.arrayContaining(['ghs_token_value_123', 'sk-shared-key-123', 'sk-planner-key-456', 'sk-executor-key-789']),
    );
  });

  it('falls back to the default protected paths when the list holds only blanks and comments', () => {
    setInputs({ 'protected-paths': '\n# nothing\n   \n' });
    expect(read().settings.protectedPaths).toEqual(['.github/workflows/**']);
  });
});

describe('readSettings model retries', () => {
  it('limits each execution job to 45 minutes unless the workflow names another limit, or none', () => {
    expect(read().settings.timeoutMinutes).toBe(45);
    setInputs({ 'timeout-minutes': ' 20 ' });
    expect(read().settings.timeoutMinutes).toBe(20);
    setInputs({ 'timeout-minutes': 'none' });
    expect(read().settings.timeoutMinutes).toBeUndefined();
  });

  it('reads model-retries and model-timeout as whole numbers, 0 retries allowed', () => {
    setInputs({ 'model-retries': '0', 'model-timeout': ' 2 ' });
    expect(read().settings).toMatchObject({ modelRetries: 0, modelTimeoutSeconds: 2 });
  });
});

describe('readSettings refusals', () => {
  const cases: Array<[string, string]> = [
    ['trigger-permission', 'owner'],
    ['approve-permission', 'Write'],
    ['max-iterations', 'many'],
    ['max-iterations', '0'],
    ['max-iterations', '1.5'],
    ['max-iterations', '-3'],
    ['max-iterations', '101'],
    // Steps at once: 1 to 8, never 0 (nothing would run) nor more than a provider and a reviewer bear.
    ['parallel-steps', '0'],
    ['parallel-steps', '9'],
    ['parallel-steps', '2.5'],
    ['parallel-steps', '-1'],
    ['parallel-steps', 'all'],
    ['model-retries', '-1'],
    ['model-retries', '21'],
    ['model-retries', 'lots'],
    ['model-timeout', '0'],
    ['model-timeout', '2.5'],
    ['model-timeout', '3601'],
    // A time limit is switched off by name only.
    ['timeout-minutes', '0'],
    ['timeout-minutes', 'never'],
    // Expiry cannot be switched off, nor set beyond a year.
    ['approval-max-age-hours', '0'],
    ['approval-max-age-hours', '8761'],
    ['approval-max-age-hours', '1.5'],
    ['approval-max-age-hours', 'never'],
    ['branch-prefix', 'plangate/../main/'],
    ['branch-prefix', '/plangate/'],
    ['branch-prefix', '-plangate/'],
    ['branch-prefix', 'plan gate/'],
    ['branch-prefix', 'plangate~1/'],
    ['base-url', 'not a url'],
    ['planner-base-url', 'localhost:8080'],
    ['executor-base-url', '//no-scheme.example/v1'],
    ['command-isolation', 'sudo'],
    ['command-isolation', 'Account'],
    ['config-file', '../elsewhere.yml'],
    ['config-file', '/etc/hostname'],
    ['config-file', 'a/../x.yml'],
    ['config-file', 'ops//plangate.yml'],
    ['config-file', 'ops\\plangate.yml'],
    ['command-prefix', 'plangate'],
    ['command-prefix', '/plan gate'],
    ['command-prefix', '/'],
    ['command-prefix', '/-x'],
    ['command-prefix', '@plangate'],
  ];
  it.each(cases)('refuses %s=%j with an error naming the input', (name, value) => {
    setInputs({ [name]: value });
    const error = errorOf(() => read());
    expect(error.message).toMatch(new RegExp(`^The \`${name}\` input `));
    // The value is shown, unless the message names the value it likely meant instead.
    expect(error.message).toMatch(
      new RegExp(`, not \`${value.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}\`\\.$|; did you mean \``),
    );
  });

  it('says what parallel-steps accepts', () => {
    setInputs({ 'parallel-steps': '16' });
    expect(errorOf(() => read()).message).toBe(
      'The `parallel-steps` input must be a whole number from 1 to 8, not `16`.',
    );
    setInputs({ 'parallel-steps': '1' });
    expect(read().settings.parallelSteps).toBe(1);
  });

  it('reads command-prefix trimmed, empty for none, and refuses spaces only with what to write instead', () => {
    expect(read().settings.commandPrefix).toBe('');
    setInputs({ 'command-prefix': ' /plangate\n' });
    expect(read().settings.commandPrefix).toBe('/plangate');
    setInputs({ 'command-prefix': '   ' });
    expect(errorOf(() => read()).message).toBe(
      'The `command-prefix` input is only spaces: leave it empty for commands such as /plan, or write a prefix such as /plangate.',
    );
    setInputs({ 'command-prefix': 'plangate' });
    expect(errorOf(() => read()).message).toBe(
      'The `command-prefix` input must be / followed by one word of letters, digits, - or _ (such as /plangate), with no space inside, not `plangate`.',
    );
  });

  it('never accepts a branch prefix that makes a branch name git refuses', () => {
    const prefixes = [
      'plangate/',
      'bots/plangate-',
      'a.b/',
      'a/-b/',
      'plangate.lock',
      'plangate.',
      'x/y/z_',
      'plangate..x/',
      'plangate//',
      'plangate/.hidden/',
      'plangate/.',
      '.plangate/',
      'plangate.lock/',
      'a/./b/',
    ];
    const verdicts = prefixes.map((prefix) => {
      process.env['INPUT_BRANCH-PREFIX'] = prefix;
      let settingsOk = true;
      try {
        read();
      } catch (error) {
        expect(error).toBeInstanceOf(SettingsError);
        settingsOk = false;
      }
      let gitOk = true;
      try {
        // The branch plangate makes from the prefix: <prefix><issue>-<plan id>.
        execFileSync('git', ['check-ref-format', '--branch', `${prefix}12-0a1b2c3d`], { stdio: 'ignore' });
      } catch {
        gitOk = false;
      }
      return { prefix, settingsOk, gitOk };
    });
    expect(verdicts.filter((v) => v.settingsOk !== v.gitOk)).toEqual([]);
    // Both sides of the comparison are exercised.
    expect(verdicts.filter((v) => v.gitOk).length).toBeGreaterThan(3);
    expect(verdicts.filter((v) => !v.gitOk).length).toBeGreaterThan(3);
  });

  it('names the values command-isolation accepts', () => {
    setInputs({ 'command-isolation': 'off' });
    expect(errorOf(() => read()).message).toBe('The `command-isolation` input must be account or none, not `off`.');
  });

  it('refuses endpoint URLs that are not http(s)', () => {
    setInputs({ 'base-url': 'ftp://127.0.0.1/v1' });
    expect(errorOf(() => read()).message).toBe(
      'The `base-url` input must be an http(s) URL such as https://api.openai.com/v1, not `ftp://127.0.0.1/v1`.',
    );
  });

  it('says clearly when it does not run inside a GitHub Actions job', () => {
    const error = errorOf(() => read({}));
    expect(error.message).toContain('runner environment is incomplete');
    expect(error.message).toContain('GITHUB_EVENT_NAME');
    expect(error.message).toContain('GITHUB_WORKSPACE');
    expect(error.message).toContain('GitHub Actions job');
  });

  it('names a malformed repository variable', () => {
    const error = errorOf(() => read(runnerEnv({ GITHUB_REPOSITORY: 'just-a-name' })));
    expect(error.message).toContain('GITHUB_REPOSITORY');
    expect(error.message).toContain('owner/name');
  });

  it('refuses a config file outside the repository, naming the input', () => {
    setInputs({ 'config-file': '../elsewhere.yml' });
    const error = errorOf(() => read());
    expect(error.message).toContain('The `config-file` input');
    expect(error.message).toContain('inside the repository');
    expect(error.message).toContain('not `../elsewhere.yml`');
  });
});

describe('readSettings with the config text', () => {
  it('parses the text it is handed, never the file in the workspace', () => {
    setInputs({ 'config-file': 'ops/plangate.yaml' });
    writeFiles(workspace, {
      'ops/plangate.yaml': 'tasks:\n  - name: from-work-tree\n    objective: Must not be read\n',
    });
    const { settings } = read(runnerEnv(), 'tasks:\n  - name: deps\n    objective: Update dependencies\n');
    expect(settings.configFile).toBe('ops/plangate.yaml');
    expect(settings.config).toEqual({ tasks: [{ name: 'deps', objective: 'Update dependencies' }] });
    expect(read().settings.config).toEqual({});
  });

  it('drops "." segments from the config file path, so git reads it from the root', () => {
    setInputs({ 'config-file': './ops/./plangate.yaml' });
    expect(read().settings.configFile).toBe('ops/plangate.yaml');
  });

  it('takes prices and MCP servers from the config', () => {
    const { settings } = read(
      runnerEnv(),
      'prices:\n  house-model: { input: 1, output: 2 }\nmcp-servers:\n  docs:\n    url: https://mcp.example/docs\n',
    );
    expect(settings.prices['house-model']).toEqual({ input: 1, output: 2 });
    expect(settings.mcpServers).toEqual([{ name: 'docs', transport: 'http', url: 'https://mcp.example/docs' }]);
  });

  it('refuses a broken config, naming the file and the key', () => {
    setInputs({ 'config-file': 'ops/plangate.yaml' });
    const error = errorOf(() => read(runnerEnv(), 'tasks:\n  - name: x\n    objectiv: y\n'));
    expect(error.message).toBe('Unknown key `objectiv` in `tasks[0]` of ops/plangate.yaml; did you mean `objective`?');
  });

  it("keeps every input's secret from MCP servers, the shared key too when both roles have their own", () => {
    setInputs({
      'api-key': 'sk-shared-key-123',
      'planner-api-key': 'sk-planner-key-456',
      'executor-api-key': 'sk-executor-key-789',
    });
    // readInputs masks the keys with runner commands on stdout; keep the test output clean.
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const inputs = readInputs(runnerEnv());
    expect(inputs.ownSecrets).toContain('sk-shared-key-123');
    const settings = withRepoConfig(inputs, 'mcp-servers:\n  s:\n    command: x\n    env: [SHARED]\n', {
      SHARED: 'sk-shared-key-123',
    });
    expect(settings.mcpServers[0]).toMatchObject({
      name: 's',
      refusal: expect.stringContaining("plangate's own credentials"),
    });
  });
});

describe('parseRepoConfig', () => {
  const file = '.github/plangate.yml';

  it('treats a missing file (undefined) and an empty one as an empty config', () => {
    expect(parseRepoConfig(undefined, file)).toEqual({});
    expect(parseRepoConfig('', file)).toEqual({});
    expect(parseRepoConfig('# nothing configured yet\n', file)).toEqual({});
  });

  it('names the file it is told, in every error', () => {
    expect(errorOf(() => parseRepoConfig('tasks: [unclosed\n  - name: x', 'ops/p.yml')).message).toContain(
      'ops/p.yml is not valid YAML',
    );
    expect(errorOf(() => parseRepoConfig('task: []\n', 'ops/p.yml')).message).toBe(
      'Unknown key `task` in ops/p.yml; did you mean `tasks`?',
    );
  });
});

describe("readRepoConfig (the local CLI: the work tree is the user's own)", () => {
  const file = '.github/plangate.yml';

  it('treats a missing file as an empty config', () => {
    expect(readRepoConfig(workspace, file)).toEqual({});
  });

  it('treats an empty file as an empty config', () => {
    writeFiles(workspace, { [file]: '# nothing configured yet\n' });
    expect(readRepoConfig(workspace, file)).toEqual({});
  });

  it('reads tasks with every supported key', () => {
    writeFiles(workspace, {
      [file]: [
        'tasks:',
        '  - name: weekly-deps',
        '    objective: |',
        '      Update dev dependencies.',
        "    cron: '0 6 * * 1'",
        '    policy: plan-first',
        '    labels: [deps]',
        '    assignees: [octo]',
        '    allowed-commands: [npm test]',
      ].join('\n'),
    });
    expect(readRepoConfig(workspace, file)).toEqual({
      tasks: [
        {
          name: 'weekly-deps',
          objective: 'Update dev dependencies.\n',
          cron: '0 6 * * 1',
          policy: 'plan-first',
          labels: ['deps'],
          assignees: ['octo'],
          'allowed-commands': ['npm test'],
        },
      ],
    });
  });

  it('refuses invalid YAML, naming the file', () => {
    writeFiles(workspace, { [file]: 'tasks: [unclosed\n  - name: x' });
    const error = errorOf(() => readRepoConfig(workspace, file));
    expect(error.message).toContain(`${file} is not valid YAML`);
  });

  it('names an unknown top-level key', () => {
    writeFiles(workspace, { [file]: 'task:\n  - name: x\n    objective: y\n' });
    const error = errorOf(() => readRepoConfig(workspace, file));
    expect(error.message).toBe(`Unknown key \`task\` in ${file}; did you mean \`tasks\`?`);
  });

  it('names a typo inside a task with its path', () => {
    writeFiles(workspace, { [file]: 'tasks:\n  - name: x\n    objective: y\n  - name: z\n    objectiv: w\n' });
    const error = errorOf(() => readRepoConfig(workspace, file));
    expect(error.message).toContain(`Unknown key \`objectiv\` in \`tasks[1]\` of ${file}`);
  });

  it('names a bad value with its path', () => {
    writeFiles(workspace, { [file]: 'tasks:\n  - name: x\n    objective: y\n    labels: deps\n' });
    const error = errorOf(() => readRepoConfig(workspace, file));
    expect(error.message).toBe(`\`tasks[0].labels\` in ${file} must be a list, not \`deps\`.`);
  });

  it('refuses a file that is not a mapping', () => {
    writeFiles(workspace, { [file]: '- just\n- a list\n' });
    expect(errorOf(() => readRepoConfig(workspace, file)).message).toBe(`${file} must be a mapping of keys to values.`);
  });

  it('refuses absolute paths and paths that climb out', () => {
    expect(errorOf(() => readRepoConfig(workspace, '/etc/hostname')).message).toContain('inside the repository');
    expect(errorOf(() => readRepoConfig(workspace, 'a/../../x.yml')).message).toContain('inside the repository');
  });
});

describe('the sealed network', () => {
  it('reads allowed-domains a line or a comma at a time, bundles expanded', () => {
    setInputs({ 'allowed-domains': 'pypi, example.com:8443\n*.internal.test\n# a comment' });
    const { settings } = read();
    expect(settings.allowedDestinations).toEqual([
      { host: 'pypi.org' },
      { host: 'files.pythonhosted.org' },
      { host: 'example.com', port: 8443 },
      { host: '*.internal.test' },
    ]);
    expect(settings.network).toBe('sealed');
  });

  it('names the entry that is no destination, and the input it is in', () => {
    setInputs({ 'allowed-domains': 'https://example.com' });
    expect(errorOf(() => read()).message).toContain('`https://example.com` in the `allowed-domains` input');
    setInputs({ network: 'closed' });
    expect(errorOf(() => read()).message).toContain('must be sealed or open');
  });
});
