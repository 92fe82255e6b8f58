import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readGateInputs } from '../../src/config/gate-inputs.js';
import { readInputs, SettingsError } from '../../src/config/settings.js';

/**
 * The inputs read before the command is known: whatever else is misconfigured, these must read, so
 * that the mistake can be reported on the command's thread, and every secret must be masked first.
 */

let savedEnv: NodeJS.ProcessEnv;
let masked: string[];

beforeEach(() => {
  savedEnv = { ...process.env };
  for (const key of Object.keys(process.env)) if (key.startsWith('INPUT_')) delete process.env[key];
  masked = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    for (const line of String(chunk).split('\n'))
      if (line.startsWith('::add-mask::')) masked.push(line.slice(12).trim());
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
});

const setInputs = (inputs: Record<string, string>) => {
  for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.toUpperCase()}`] = value;
};

const runner: NodeJS.ProcessEnv = {
  GITHUB_EVENT_NAME: 'issue_comment',
  GITHUB_EVENT_PATH: '/tmp/event.json',
  GITHUB_REPOSITORY: 'octo/widgets',
  GITHUB_WORKSPACE: '/tmp/workspace',
  GITHUB_RUN_ID: '42',
};

describe('readGateInputs', () => {
  it('reads and masks every secret, even when another input is broken', () => {
    setInputs({
      'github-token': 'ghs_gateToken0123456789',
      'api-key': 'sk-gate-key-0123456789',
      'planner-api-key': 'sk-gate-planner-0123456789',
      'record-secret': 'record-secret-0123456789',
      'max-iterations': 'abc',
    });
    const gate = readGateInputs(runner);
    expect(gate.githubToken).toBe('ghs_gateToken0123456789');
    expect(masked).toEqual([
      'ghs_gateToken0123456789',
      'sk-gate-key-0123456789',
      'sk-gate-planner-0123456789',
      'record-secret-0123456789',
    ]);
    expect(() => readInputs(runner)).toThrow(SettingsError);
  });

  it('reads the bot login and allowed bots as the full reader does', () => {
    setInputs({ 'bot-login': ' plangate-app[bot] ', 'allowed-bots': 'renovate[bot]\n# a comment\n\n' });
    const gate = readGateInputs(runner);
    const full = readInputs(runner);
    expect(gate).toMatchObject({ botLogin: full.botLogin, allowedBots: full.allowedBots });
    expect(gate.botLogin).toBe('plangate-app[bot]');
    expect(gate.allowedBots).toEqual(['renovate[bot]']);
  });

  it('takes the permissions that read, and the defaults for those that do not', () => {
    setInputs({ 'trigger-permission': 'triage', 'approve-permission': 'owner' });
    expect(readGateInputs(runner)).toMatchObject({ triggerPermission: 'triage', approvePermission: 'write' });
  });

  it('refuses only a runner environment that is no Actions job', () => {
    expect(() => readGateInputs({})).toThrow(/runner environment is incomplete/);
  });
});
