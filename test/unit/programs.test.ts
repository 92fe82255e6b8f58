import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { absolutePath, findPrograms, lookUp, ProgramNotFoundError } from '../../src/repo/programs.js';
import { gitEnvironment } from '../../src/repo/git-env.js';
import { commandEnvironment } from '../../src/tools/command-env.js';

/**
 * The host's programs found on PATH's absolute entries only: an empty or relative entry names the
 * working directory, where a work tree's own `git` would be found first.
 */

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder holding an executable `name`. */
function folderWith(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-programs-'));
  made.push(dir);
  fs.writeFileSync(path.join(dir, name), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  return dir;
}

describe('absolutePath', () => {
  it('drops empty and relative entries, in place and at either end, and repeats', () => {
    expect(absolutePath(':/usr/local/bin:.:bin:/usr/bin::./node_modules/.bin:/usr/bin:')).toBe(
      '/usr/local/bin:/usr/bin',
    );
  });

  it('never gives an empty PATH, which means the working directory to the C library', () => {
    expect(absolutePath('')).toBe('/usr/bin:/bin');
    expect(absolutePath('.::bin')).toBe('/usr/bin:/bin');
    expect(absolutePath(undefined)).toBe('/usr/bin:/bin');
  });
});

describe('findPrograms', () => {
  it('finds a program on an absolute entry, never one of the same name in the working directory', () => {
    const planted = folderWith('plangate-test-tool');
    const real = folderWith('plangate-test-tool');
    const cwd = process.cwd();
    process.chdir(planted);
    try {
      const programs = findPrograms(`:.:${real}`);
      expect(programs.find('plangate-test-tool')).toBe(path.join(real, 'plangate-test-tool'));
      expect(programs.path).toBe(real);
    } finally {
      process.chdir(cwd);
    }
  });

  it('passes over a file that is not executable, as the shell does', () => {
    const first = folderWith('plangate-test-tool');
    fs.chmodSync(path.join(first, 'plangate-test-tool'), 0o644);
    const second = folderWith('plangate-test-tool');
    expect(lookUp('plangate-test-tool', `${first}:${second}`)).toBe(path.join(second, 'plangate-test-tool'));
  });

  it('looks a program up once, and takes an absolute path as it is', () => {
    const dir = folderWith('plangate-test-tool');
    const programs = findPrograms(dir);
    expect(programs.find('plangate-test-tool')).toBe(path.join(dir, 'plangate-test-tool'));
    fs.rmSync(path.join(dir, 'plangate-test-tool'));
    expect(programs.find('plangate-test-tool')).toBe(path.join(dir, 'plangate-test-tool'));
    expect(programs.find('/opt/elsewhere/sudo')).toBe('/opt/elsewhere/sudo');
  });

  it('names the program and the PATH it searched when it finds none, and never searches a name with a slash', () => {
    const dir = folderWith('plangate-test-tool');
    const programs = findPrograms(`bin:${dir}`);
    expect(() => programs.find('plangate-no-such-tool')).toThrow(ProgramNotFoundError);
    expect(() => programs.find('plangate-no-such-tool')).toThrow(
      `Cannot find the program plangate-no-such-tool in the absolute entries of PATH (${dir}).`,
    );
    expect(() => programs.find('./plangate-test-tool')).toThrow(ProgramNotFoundError);
  });
});

describe('the PATH children get', () => {
  const runnerPath = ':bin:/usr/local/bin:.:/usr/bin';

  it('is absolute entries only for commands', () => {
    expect(commandEnvironment({ PATH: runnerPath }).PATH).toBe('/usr/local/bin:/usr/bin');
  });

  it('is absolute entries only for the host’s git', () => {
    expect(gitEnvironment({ PATH: runnerPath }, []).PATH).toBe('/usr/local/bin:/usr/bin');
  });
});
