import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Command } from '../../src/entry/command.js';
import { carryOut } from '../../src/entry/dispatch.js';
import { readCommand } from '../../src/entry/read-command.js';
import { issueCommentPayload, schedulePayload, workflowDispatchPayload } from '../fakes/payloads.js';
import { botLogin, fakeModel, fakeWorld, owner, repo, testSettings, type World } from './run-fixture.js';
import { emptySecretHint } from '../../src/run/empty-secret.js';

vi.mock('@actions/core', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@actions/core')>()),
  info: () => undefined,
  notice: () => undefined,
  warning: () => undefined,
  error: () => undefined,
  setSecret: () => undefined,
  group: async <T>(_name: string, fn: () => Promise<T>) => fn(),
}));

// The entry point's pieces in-process: the event file read into one Command, and the command carried
// out to the action's outputs (written where the runner reads them, GITHUB_OUTPUT) and, on a
// failure, to a reply on the thread.

let dir: string;
let outputFile: string;
let savedOutput: string | undefined;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'plangate-entry-'));
  outputFile = path.join(dir, 'output');
  writeFileSync(outputFile, '');
  savedOutput = process.env.GITHUB_OUTPUT;
  process.env.GITHUB_OUTPUT = outputFile;
});

afterEach(() => {
  if (savedOutput === undefined) delete process.env.GITHUB_OUTPUT;
  else process.env.GITHUB_OUTPUT = savedOutput;
  rmSync(dir, { recursive: true, force: true });
});

/** The outputs the step set, as the runner reads GITHUB_OUTPUT (`name<<delimiter` ... `delimiter`). */
function outputs(): Record<string, string> {
  const lines = readFileSync(outputFile, 'utf8').split('\n');
  const out: Record<string, string> = {};
  for (let i = 0; i < lines.length; i += 1) {
    const match = /^([\w-]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!match?.[1]) continue;
    const end = lines.indexOf(match[2] ?? '', i + 1);
    out[match[1]] = lines.slice(i + 1, end).join('\n');
    i = end;
  }
  return out;
}

/** The event as the runner hands it over: the comment exists on the (fake) thread with the payload's id. */
function commentEvent(world: World, body: string, login = 'maintainer') {
  const comment = world.thread.commentAs(login, 7, body);
  const text = world.thread.issues.get(7) ?? { title: '', body: '' };
  return issueCommentPayload({
    owner,
    repo,
    issue: { number: 7, title: text.title, body: text.body },
    comment: { id: comment.id, body, login },
  });
}

const inputs = (eventName: string, eventPath: string) => ({
  runner: { ...fakeWorld().ctx.settings.runner, eventName, eventPath },
  botLogin,
  allowedBots: [],
});

/** The command an event file carries, read as main.ts reads it. */
function commandFrom(eventName: string, payload: unknown): Command {
  const file = path.join(dir, 'event.json');
  writeFileSync(file, JSON.stringify(payload));
  return readCommand(inputs(eventName, file)).command;
}

describe('readCommand', () => {
  it('reads a comment, a schedule and a dispatch into one Command each', () => {
    const world = fakeWorld();
    expect(commandFrom('issue_comment', commentEvent(world, '/plan add a CHANGELOG'))).toMatchObject({
      kind: 'plan',
      objective: 'add a CHANGELOG',
      author: 'maintainer',
      thread: { number: 7 },
    });
    expect(commandFrom('schedule', schedulePayload({ owner, repo, cron: '0 6 * * 1' }))).toEqual({
      kind: 'maintain',
      trigger: { type: 'schedule', cron: '0 6 * * 1' },
    });
    expect(
      commandFrom(
        'workflow_dispatch',
        workflowDispatchPayload({ owner, repo, sender: 'maintainer', inputs: { task: 'deps' } }),
      ),
    ).toEqual({
      kind: 'maintain',
      trigger: { type: 'dispatch', actor: 'maintainer', task: 'deps' },
    });
  });

  it('ignores events it does not carry without reading a file, and names an unreadable payload', () => {
    const unreadable = () => {
      throw new Error('the event file was read');
    };
    expect(readCommand(inputs('push', '/nowhere'), undefined, unreadable).command).toMatchObject({ kind: 'ignore' });
    expect(() => readCommand(inputs('issue_comment', path.join(dir, 'missing.json')))).toThrow(
      /Cannot read the event payload at .*missing\.json/,
    );
  });

  it('takes the payload triage parsed instead of reading the file again, only for the same file', () => {
    const unreadable = () => {
      throw new Error('the event file was read');
    };
    const event = commentEvent(fakeWorld(), '/plan add a CHANGELOG');
    const parsed = { path: '/event.json', payload: event };
    expect(readCommand(inputs('issue_comment', '/event.json'), parsed, unreadable)).toEqual({
      command: commandFrom('issue_comment', event),
      payload: event,
    });
    expect(() => readCommand(inputs('issue_comment', '/other.json'), parsed, unreadable)).toThrow(
      /Cannot read the event payload at \/other\.json: the event file was read/,
    );
  });
});

describe('carryOut', () => {
  it('sets the outputs from what the flow reports', async () => {
    const world = fakeWorld();
    const command = commandFrom('issue_comment', commentEvent(world, '/plan add a CHANGELOG'));
    if (command.kind === 'ignore') throw new Error(command.reason);

    expect(await carryOut(world.ctx, command)).toBeUndefined();
    const set = outputs();
    expect(set.outcome).toBe('planned');
    expect(set['plan-id']).toMatch(/^[0-9a-f]{8}$/);
    expect(Number(set['prompt-tokens'])).toBeGreaterThan(0);
    expect(Number(set['cost-usd'])).toBeGreaterThan(0);
  });

  it('fails the step with a pointer to the thread when the flow reports a failure', async () => {
    const world = fakeWorld({
      planner: fakeModel('planner', 'gpt-4.1', () => ({ fields: {}, error: new Error('503 Service Unavailable') })),
    });
    const command = commandFrom('issue_comment', commentEvent(world, '/plan add a CHANGELOG'));
    if (command.kind === 'ignore') throw new Error(command.reason);

    expect(await carryOut(world.ctx, command)).toBe('plangate: the plan run failed; see the comment on #7.');
    expect(outputs().outcome).toBe('failed');
    expect(world.thread.botComments(7).at(-1)?.body).toContain('planning failed');
  });

  it('fails a command whose model has no API key: a reply saying what to set, a 😕, the failure for the step', async () => {
    const settings = testSettings({ policy: 'executor-only' });
    settings.executor.apiKey = '';
    const world = fakeWorld({ settings });
    const command = commandFrom('issue_comment', commentEvent(world, '/plan add a CHANGELOG'));
    if (command.kind !== 'plan') throw new Error(`read as ${command.kind}`);

    expect(await carryOut(world.ctx, command)).toBe(
      `plangate: /plan could not run: no API key is configured for the executor model. Set the \`api-key\` input (or \`executor-api-key\`) from a repository secret. ${emptySecretHint()}`,
    );
    expect(outputs().outcome).toBe('failed');
    expect(world.thread.botComments(7).at(-1)?.body).toBe(
      `@maintainer \`/plan\` could not run: no API key is configured for the executor model.\n\nSet the \`api-key\` input (or \`executor-api-key\`) from a repository secret. ${emptySecretHint()} See the [job log](${world.ctx.runUrl}).`,
    );
    expect(world.thread.reactions).toEqual([{ commentId: command.commentId, content: 'confused' }]);
  });

  it('says on the thread that a command failed, and throws the error on for the step to fail', async () => {
    const world = fakeWorld();
    const command = commandFrom('issue_comment', commentEvent(world, '/status'));
    if (command.kind !== 'status') throw new Error(`read as ${command.kind}`);
    world.thread.failNext('listComments', new Error('GitHub is down'));

    await expect(carryOut(world.ctx, command)).rejects.toThrow('GitHub is down');
    const reply = world.thread.botComments(7).at(-1)?.body;
    expect(reply).toBe(`@maintainer \`/status\` failed: GitHub is down.\n\nSee the [job log](${world.ctx.runUrl}).`);
    expect(world.thread.reactions).toContainEqual({ commentId: command.commentId, content: 'confused' });
  });

  it('refuses a dispatch by someone who may not command plangate, and posts nowhere', async () => {
    const world = fakeWorld();
    const command = commandFrom(
      'workflow_dispatch',
      workflowDispatchPayload({ owner, repo, sender: 'drive-by', inputs: { objective: 'delete the tests' } }),
    );
    if (command.kind === 'ignore') throw new Error(command.reason);

    await expect(carryOut(world.ctx, command)).rejects.toThrow('@drive-by has read permission on this repository');
    expect(world.thread.botComments(7)).toHaveLength(0);
  });
});
