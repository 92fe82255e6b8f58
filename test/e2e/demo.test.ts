import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runDemo } from '../../demo/demo.js';

/**
 * `npm run demo` with a real but wrong key, or an endpoint that is not an OpenAI-compatible API: the
 * demo shows what a maintainer would see (the bot's reply on the issue), never the action's raw
 * log of workflow commands, a stack trace, or the key, even when the endpoint echoes it back.
 */

const key = 'sk-demo-wrong-key-0123456789abcdef';
let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An endpoint that answers every request with `status` and an error that quotes the key it was sent. */
async function endpoint(status: number): Promise<string> {
  server = http.createServer((request, response) => {
    const sent = request.headers.authorization ?? '';
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: { message: `Incorrect API key provided: ${sent}`, type: 'invalid_request_error' } }),
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function demoAgainst(baseUrl: string): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const code = await runDemo({ apiKey: key, baseUrl }, (text = '') => lines.push(text));
  return { code, text: lines.join('\n') };
}

/** The demo ended on the bot's reply, with none of what a maintainer would not see. */
function expectReplyOnly({ code, text }: { code: number; text: string }): void {
  expect(code).toBe(1);
  expect(text).toContain('──────── @github-actions[bot] replied');
  expect(text).toContain('│ @mona planning failed: ');
  expect(text).not.toContain(key);
  expect(text).not.toMatch(/^::|add-mask/m);
  expect(text).not.toMatch(/^\s+at /m);
}

describe('npm run demo against a real endpoint that refuses it', () => {
  it('shows the bot’s error reply for a wrong key, and never the key, a workflow command or a stack trace', async () => {
    const run = await demoAgainst(await endpoint(401));
    expectReplyOnly(run);
    expect(run.text).toContain('💬 @mona commented on #1:');
    expect(run.text).toMatch(/⚙️ {2}the action failed \(exit 1\); outcome: failed/);
    expect(run.text).toContain('│ @mona planning failed: The planner model "gpt-4.1" at 127.0.0.1:');
    expect(run.text).toContain('rejected the API key (HTTP 401)');
    expect(run.text).toContain('No plan was posted: the bot’s reply above says why and what to do.');
  });

  it('shows the bot’s reply for an endpoint that is not an OpenAI-compatible API, without the key', async () => {
    const run = await demoAgainst(await endpoint(404));
    expectReplyOnly(run);
    expect(run.text).toContain('HTTP 404');
  });
});

describe('npm run demo with the scripted model', () => {
  it('shows the comments as GitHub shows them, the reactions, the run in progress and real model names', async () => {
    const lines: string[] = [];
    const code = await runDemo(undefined, (text = '') => lines.push(text));
    const text = lines.join('\n');
    expect(code, text).toBe(0);
    // GitHub hides HTML comments: no signed record, no marker, no base64 payload reaches the terminal.
    expect(text).not.toContain('<!--');
    expect(text).not.toMatch(/plangate:(record|run|progress|plan|pr)\b/);
    expect(text).not.toMatch(/[A-Za-z0-9_-]{80,}/);
    // The reactions plangate puts on each command, in the order it adds them.
    expect(text).toMatch(/outcome: planned\n {3}@github-actions\[bot\] reacted to the comment: 👀\n/);
    expect(text).toMatch(/outcome: done\n {3}@github-actions\[bot\] reacted to the comment: 🚀\n/);
    // The progress comment as it read mid-run (a step done, one open), then as the run left it.
    const working = text.indexOf('──────── the progress comment while the run works');
    const ended = text.indexOf('──────── the same comment, edited as the run ended');
    expect(working).toBeGreaterThan(-1);
    expect(ended).toBeGreaterThan(working);
    const midRun = text.slice(working, ended);
    expect(midRun).toContain('- [x] **1. Add farewell');
    expect(midRun).toContain('- [ ] **2. Mention farewell');
    expect(text.slice(ended)).toContain('- [x] **2. Mention farewell');
    // The scripted answers are priced as the default models they are named after.
    expect(text).toContain('planner `gpt-4.1` · executor `gpt-4.1-mini`');
    expect(text).toMatch(/\| executor \| `gpt-4\.1-mini` \| \d+ \|/);
    expect(text).not.toContain('`planner`');
  });
});
