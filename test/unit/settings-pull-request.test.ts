import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readSettings, SettingsError } from '../../src/config/settings.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';

// The pull request inputs: pr-draft and pr-labels, read the way @actions/core reads INPUT_* variables.

let savedEnv: NodeJS.ProcessEnv;
let workspace: string;

beforeEach(() => {
  savedEnv = { ...process.env };
  for (const key of Object.keys(process.env)) if (key.startsWith('INPUT_')) delete process.env[key];
  workspace = makeTempDir('plangate-settings-pr-');
  // readSettings masks secrets with runner commands on stdout; keep the test output clean.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

afterEach(() => {
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  removeDir(workspace);
  vi.restoreAllMocks();
});

function read(inputs: Record<string, string>) {
  for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.toUpperCase()}`] = value;
  return readSettings({
    GITHUB_EVENT_NAME: 'issue_comment',
    GITHUB_EVENT_PATH: '/tmp/event.json',
    GITHUB_REPOSITORY: 'octo/widgets',
    GITHUB_WORKSPACE: workspace,
  });
}

describe('pr-draft', () => {
  it('defaults to a pull request ready for review', () => {
    expect(read({}).prDraft).toBe(false);
  });

  it('reads YAML booleans and refuses anything else', () => {
    expect(read({ 'pr-draft': 'True' }).prDraft).toBe(true);
    expect(() => read({ 'pr-draft': 'yes' })).toThrow(SettingsError);
  });
});

describe('pr-labels', () => {
  it('is empty by default', () => {
    expect(read({}).prLabels).toEqual([]);
  });

  it('takes labels one a line or comma-separated, dropping blanks and case-insensitive repeats', () => {
    expect(read({ 'pr-labels': 'plangate, needs review\n\nbot,Plangate\n' }).prLabels).toEqual([
      'plangate',
      'needs review',
      'bot',
    ]);
  });

  it('refuses a label longer than GitHub allows', () => {
    expect(() => read({ 'pr-labels': 'x'.repeat(51) })).toThrow(/pr-labels/);
  });
});
