import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRunCommandTool } from '../../src/tools/run-command.js';
import type { Tool } from '../../src/tools/tool.js';
import { makeTempDir, removeDir } from './tools-git-fixture.js';
import { grandchildSleeper, hostPid, isAlive, waitUntilGone } from '../helpers/process-state.js';
import { createSandbox } from '../../src/sandbox/sandbox.js';
import { refusal } from './tool-refusal.js';

// The child gets only this environment: enough to find node, nothing of the test runner's.
const env = { PATH: path.dirname(process.execPath), PLANGATE_VISIBLE: 'visible' };

let dir: string;

beforeEach(() => {
  dir = makeTempDir();
});

afterEach(() => {
  removeDir(dir);
});

function tool(allowedCommands: string[], timeoutMs = 60_000): Tool<{ command: string }> {
  return createRunCommandTool({
    allowedCommands,
    timeoutMs,
    env,
    sandbox: createSandbox({ isolation: 'none', workTree: dir }),
  }) as Tool<{ command: string }>;
}

describe('run_command', () => {
  it('runs an allowed command in the workspace and reports exit code and combined output', async () => {
    const out = await tool(['node -e *']).run({
      command: `node -e "process.stdout.write(process.cwd() + '\\n'); process.stderr.write('to stderr\\n')"`,
    });
    expect(out).toContain('exit code: 0');
    expect(out).toContain(dir);
    expect(out).toContain('to stderr');
  });

  it('treats a non-zero exit as a normal result', async () => {
    const out = await tool(['node -e *']).run({ command: `node -e "console.log('failing'); process.exit(3)"` });
    expect(out).toMatch(/^\$ node -e .*\nexit code: 3\nfailing/);
  });

  it('passes arguments verbatim, with no shell to expand them', async () => {
    const marker = path.join(dir, 'marker');
    const out = await tool(['node -e * **']).run({
      command: `node -e "console.log(JSON.stringify(process.argv.slice(1)))" '$HOME' '*' 'a;touch ${marker}'`,
    });
    expect(out).toContain('["$HOME","*","a;touch ' + marker + '"]');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('gives the child only the environment it was handed', async () => {
    process.env.PLANGATE_RUNNER_SECRET = 'runner-secret';
    try {
      const out = await tool(['node -e *']).run({
        command: `node -e "console.log(JSON.stringify([process.env.PLANGATE_RUNNER_SECRET ?? null, process.env.PLANGATE_VISIBLE]))"`,
      });
      expect(out).toContain('[null,"visible"]');
    } finally {
      delete process.env.PLANGATE_RUNNER_SECRET;
    }
  });

  it('refuses commands outside the allow-list and shell syntax before running anything', async () => {
    const marker = path.join(dir, 'ran');
    const allowed = [`node -e *`];
    expect(await refusal(tool(allowed).run({ command: `node -e "1"; touch ${marker}` }))).toMatch(/command separator/);
    expect(await refusal(tool(allowed).run({ command: `touch ${marker}` }))).toMatch(/Command not allowed/);
    expect(await refusal(tool([]).run({ command: 'node -e 1' }))).toMatch(/run_command is disabled/);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('reports a missing program clearly', async () => {
    expect(await refusal(tool(['plangate-no-such-program']).run({ command: 'plangate-no-such-program' }))).toMatch(
      /Command not found: plangate-no-such-program/,
    );
  });

  it('kills the whole process group on timeout', async () => {
    // The sleeper starts a grandchild, records its pid, and both would sleep for a minute. The
    // timeout is fired by hand once the grandchild exists, so machine speed cannot change the result.
    const pidFile = path.join(dir, 'grandchild.pid');
    const sleeper = grandchildSleeper(pidFile);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const outcome = refusal(tool(['node -e *'], 5_000).run({ command: `node -e "${sleeper}"` }));
      while (!fs.existsSync(pidFile)) await new Promise((resolve) => setImmediate(resolve));
      const pid = hostPid(fs.readFileSync(pidFile, 'utf8')) ?? 0;
      expect(isAlive(pid)).toBe(true);
      vi.advanceTimersByTime(5_000);
      expect(await outcome).toMatch(/Timed out after 5000 ms; the command and its child processes were killed/);
      await waitUntilGone(pid);
      expect(isAlive(pid)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('bounds huge output, keeping start and end', async () => {
    const out = await tool(['node -e *']).run({
      command: `node -e "console.log('FIRST'); process.stdout.write('x'.repeat(500000)); console.log('LAST')"`,
    });
    expect(out).toContain('FIRST');
    expect(out.trimEnd().endsWith('LAST')).toBe(true);
    expect(out).toMatch(/\[… \d+ characters omitted …\]/);
    expect(out.length).toBeLessThan(16_000);
  });

  it('keeps per-repository values out of its description, which is part of the cached prefix', () => {
    const a = tool(['npm test', 'npm run *']);
    const b = tool(['make check']);
    expect(a.description).toBe(b.description);
    expect(a.description).not.toContain('npm test');
    expect(a.description).toContain('Workspace rules');
  });
});
