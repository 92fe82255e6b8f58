import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readRepoConfig, readSettings, SettingsError } from '../../src/settings.js';
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
function read(env: NodeJS.ProcessEnv = runnerEnv()): { settings: ReturnType<typeof readSettings>; masked: string[] } {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    const settings = readSettings(env);
    const masked = written.flatMap((w) => w.split('\n')).filter((l) => l.startsWith('::add-mask::')).map((l) => l.slice(12).trim());
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
  'branch-prefix',
  'base-branch',
  'bot-login',
  'config-file',
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
  branchPrefix: 'plangate/',
  baseBranch: '',
  botLogin: 'github-actions[bot]',
  configFile: '.github/plangate.yml',
  config: {},
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
      apiUrl: 'http://127.0.0.1:9999/api',
      serverUrl: 'http://127.0.0.1:9999',
      runId: '42',
    });
  });

  it('defaults the API and server URLs to github.com when the runner sets none', () => {
    const { settings } = read(runnerEnv({ GITHUB_API_URL: undefined, GITHUB_SERVER_URL: undefined, GITHUB_RUN_ID: undefined }));
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
      'branch-prefix': 'bots/plangate-',
      'base-branch': ' develop ',
      'bot-login': 'plangate-app[bot]',
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
      branchPrefix: 'bots/plangate-',
      baseBranch: 'develop',
      botLogin: 'plangate-app[bot]',
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
    expect(settings.planner).toEqual({ model: 'gpt-4.1', baseURL: 'http://127.0.0.1:8080/v1', apiKey: 'sk-planner-key-456' });
    expect(settings.executor).toEqual({ model: 'gpt-4.1-mini', baseURL: 'http://127.0.0.1:8081/v1', apiKey: 'sk-shared-key-123' });
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

describe('readSettings refusals', () => {
  const cases: Array<[string, string]> = [
    ['trigger-permission', 'owner'],
    ['approve-permission', 'Write'],
    ['max-iterations', 'many'],
    ['max-iterations', '0'],
    ['max-iterations', '1.5'],
    ['max-iterations', '-3'],
    ['max-iterations', '101'],
    ['branch-prefix', 'plangate/../main/'],
    ['branch-prefix', '/plangate/'],
    ['branch-prefix', '-plangate/'],
    ['branch-prefix', 'plan gate/'],
    ['branch-prefix', 'plangate~1/'],
    ['base-url', 'not a url'],
    ['planner-base-url', 'localhost:8080'],
    ['executor-base-url', '//no-scheme.example/v1'],
  ];
  it.each(cases)('refuses %s=%j with an error naming the input', (name, value) => {
    setInputs({ [name]: value });
    const error = errorOf(() => read());
    expect(error.message).toContain(`Input "${name}"`);
    expect(error.message).toContain(JSON.stringify(value));
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

  it('refuses endpoint URLs that are not http(s)', () => {
    setInputs({ 'base-url': 'ftp://127.0.0.1/v1' });
    expect(errorOf(() => read()).message).toContain('http:// or https://');
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

  it('refuses a config file outside the workspace', () => {
    setInputs({ 'config-file': '../elsewhere.yml' });
    expect(errorOf(() => read()).message).toContain('Input "config-file"');
  });

  it('reads the config file named by the input', () => {
    setInputs({ 'config-file': 'ops/plangate.yaml' });
    writeFiles(workspace, { 'ops/plangate.yaml': 'tasks:\n  - name: deps\n    objective: Update dependencies\n' });
    const { settings } = read();
    expect(settings.configFile).toBe('ops/plangate.yaml');
    expect(settings.config).toEqual({ tasks: [{ name: 'deps', objective: 'Update dependencies' }] });
  });
});

describe('readRepoConfig', () => {
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
    expect(error.message).toContain(`${file} is invalid`);
    expect(error.message).toContain('(top level)');
    expect(error.message).toContain('"task"');
  });

  it('names a typo inside a task with its path', () => {
    writeFiles(workspace, { [file]: 'tasks:\n  - name: x\n    objective: y\n  - name: z\n    objectiv: w\n' });
    const error = errorOf(() => readRepoConfig(workspace, file));
    expect(error.message).toContain('tasks.1');
    expect(error.message).toContain('"objectiv"');
  });

  it('names a bad value with its path', () => {
    writeFiles(workspace, { [file]: 'tasks:\n  - name: x\n    objective: y\n    labels: deps\n' });
    const error = errorOf(() => readRepoConfig(workspace, file));
    expect(error.message).toContain('tasks.0.labels');
  });

  it('refuses a file that is not a mapping', () => {
    writeFiles(workspace, { [file]: '- just\n- a list\n' });
    expect(errorOf(() => readRepoConfig(workspace, file)).message).toContain('(top level)');
  });

  it('refuses absolute paths and paths that climb out', () => {
    expect(errorOf(() => readRepoConfig(workspace, '/etc/hostname')).message).toContain('inside the repository');
    expect(errorOf(() => readRepoConfig(workspace, 'a/../../x.yml')).message).toContain('inside the repository');
  });
});
