import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { commandFromIssueComment } from '../../src/entry/command.js';
import { reportIgnored } from '../../src/entry/ignored-report.js';
import { readSettings } from '../../src/config/settings.js';
import { commandInputs, triageEvent } from '../../src/entry/triage.js';
import { parseOutputFile } from '../e2e/harness.js';
import { issueCommentPayload } from '../fakes/payloads.js';

/**
 * The entry point decides "ignored" before main.ts loads (src/triage.ts). It must never ignore what
 * main.ts would act on, and for every well-formed comment it must decide exactly as main.ts's full
 * parse does, with the same reason, under the same bot-login and allowed-bots inputs.
 */

const eventPath = '/event.json';

function payload(
  body: string | null,
  login = 'mona',
  options: { type?: string; action?: string } = {},
): Record<string, unknown> {
  const made = issueCommentPayload({
    owner: 'octo',
    repo: 'widgets',
    issue: { number: 7, title: 'Add a CHANGELOG', body: 'We need one.' },
    comment: { id: 9001, body: body ?? '', login, ...(options.type ? { type: options.type } : {}) },
  }) as unknown as Record<string, unknown>;
  const comment = { ...(made.comment as Record<string, unknown>), body };
  return { ...made, comment, action: options.action ?? 'created' };
}

function env(inputs: Record<string, string> = {}, eventName = 'issue_comment'): NodeJS.ProcessEnv {
  const variables: NodeJS.ProcessEnv = { GITHUB_EVENT_NAME: eventName, GITHUB_EVENT_PATH: eventPath };
  for (const [name, value] of Object.entries(inputs)) variables[`INPUT_${name.toUpperCase()}`] = value;
  return variables;
}

const fromText = (text: string) => (file: string) => {
  expect(file).toBe(eventPath);
  return text;
};

/** Both decisions for one payload under one set of inputs. */
function decide(event: unknown, inputs: Record<string, string> = {}) {
  const triage = triageEvent(env(inputs), fromText(JSON.stringify(event)));
  const { botLogin, allowedBots, commandPrefix } = commandInputs(env(inputs));
  return { triage, command: commandFromIssueComment(event, botLogin, allowedBots, commandPrefix ?? '') };
}

const representative: {
  name: string;
  event: Record<string, unknown>;
  inputs?: Record<string, string>;
  ignored: boolean;
}[] = [
  { name: 'ordinary chatter', event: payload('Thanks, looking forward to /status updates!'), ignored: true },
  { name: 'a command not on the first line', event: payload('Looks good.\n/approve'), ignored: true },
  { name: 'an empty body', event: payload(''), ignored: true },
  { name: 'a null body', event: payload(null), ignored: true },
  { name: '/plan by a person', event: payload('/plan add a CHANGELOG'), ignored: false },
  { name: '/approve with an id', event: payload('  \n/approve 0a1b2c3d'), ignored: false },
  { name: 'another tool’s /word', event: payload('/merge please'), ignored: true },
  { name: 'another tool’s /lgtm', event: payload('/lgtm'), ignored: true },
  { name: 'a /word one slip from a command (may be answered)', event: payload('/aprove'), ignored: false },
  {
    name: 'a command without the configured prefix',
    event: payload('/plan add a CHANGELOG'),
    inputs: { 'command-prefix': '/plangate' },
    ignored: true,
  },
  {
    name: 'a command after the configured prefix',
    event: payload('/plangate plan add a CHANGELOG'),
    inputs: { 'command-prefix': ' /plangate ' },
    ignored: false,
  },
  { name: 'an edited comment', event: payload('/plan again', 'mona', { action: 'edited' }), ignored: true },
  { name: 'a deleted comment', event: payload('/plan again', 'mona', { action: 'deleted' }), ignored: true },
  { name: 'plangate’s own comment', event: payload('/plan loop', 'github-actions[bot]'), ignored: true },
  {
    name: 'its own comment under a custom bot-login',
    event: payload('/status', 'plangate-app'),
    inputs: { 'bot-login': ' plangate-app ' },
    ignored: true,
  },
  { name: 'a bot by [bot] suffix', event: payload('/plan bump everything', 'dependabot[bot]'), ignored: true },
  { name: 'a bot by type', event: payload('/approve', 'renovate', { type: 'Bot' }), ignored: true },
  {
    name: 'an allowed bot',
    event: payload('/approve', 'helper-app[bot]'),
    inputs: { 'allowed-bots': '# trusted\nhelper-app[bot]\n' },
    ignored: false,
  },
  {
    name: 'an allowed bot listed after others',
    event: payload('/status', 'renovate', { type: 'Bot' }),
    inputs: { 'allowed-bots': 'a[bot]\n  renovate  \n' },
    ignored: false,
  },
  {
    name: 'a bot missing from allowed-bots',
    event: payload('/approve', 'helper-app[bot]'),
    inputs: { 'allowed-bots': 'other[bot]' },
    ignored: true,
  },
  {
    name: 'a bot named only in a comment line',
    event: payload('/approve', 'helper-app[bot]'),
    inputs: { 'allowed-bots': '# helper-app[bot]' },
    ignored: true,
  },
];

describe('triageEvent agrees with main.ts’s command parsing', () => {
  for (const { name, event, inputs, ignored } of representative) {
    it(`${ignored ? 'ignores' : 'leaves to main.ts'}: ${name}`, () => {
      const { triage, command } = decide(event, inputs);
      expect(command.kind === 'ignore').toBe(ignored);
      if (command.kind === 'ignore') expect(triage).toEqual({ kind: 'ignore', reason: command.reason });
      // What it read goes on to main.ts, parsed, so the event file is read once.
      else expect(triage).toEqual({ kind: 'undecided', event: { path: eventPath, payload: event } });
    });
  }

  it('never ignores on its own what main.ts would act on, for malformed payloads too', () => {
    const good = payload('/plan add a CHANGELOG');
    const malformed: unknown[] = [
      {},
      [],
      null,
      'text',
      { ...good, comment: { ...(good.comment as object), user: { login: 42 } } },
      { ...good, comment: { ...(good.comment as object), user: { login: 'mona', type: null } } },
      { ...good, comment: { ...(good.comment as object), body: 7 } },
      { ...good, issue: undefined },
      { ...good, action: 5 },
      { action: 'created', comment: { user: { login: 'mona' }, body: 'just text' } },
    ];
    for (const event of malformed) {
      const { triage, command } = decide(event);
      if (triage.kind === 'ignore') expect(command.kind, JSON.stringify(event)).toBe('ignore');
    }
    // A comment that is no command in a payload main.ts cannot parse is ignored either way.
    expect(decide(malformed.at(-1)).triage.kind).toBe('ignore');
    expect(decide(malformed.at(-1)).command.kind).toBe('ignore');
  });

  it('ignores events that carry no command by name, reading no payload, and leaves the others to main.ts', () => {
    const unread = () => {
      throw new Error('the payload must not be read');
    };
    expect(triageEvent(env({}, 'push'), unread)).toEqual({
      kind: 'ignore',
      reason: 'the push event carries no plangate command',
    });
    expect(triageEvent(env({}, 'pull_request_target'), unread)).toMatchObject({ kind: 'ignore' });
    expect(triageEvent(env({}, 'schedule'), unread)).toEqual({ kind: 'undecided' });
    expect(triageEvent(env({}, 'workflow_dispatch'), unread)).toEqual({ kind: 'undecided' });
    expect(triageEvent(env({}, ''), unread)).toEqual({ kind: 'undecided' });
  });

  it('leaves an unreadable or broken event file to main.ts, which reports it', () => {
    expect(triageEvent(env(), fromText('{ not json'))).toEqual({ kind: 'undecided' });
    expect(
      triageEvent(env(), () => {
        throw new Error('ENOENT');
      }),
    ).toEqual({ kind: 'undecided' });
    expect(triageEvent({ GITHUB_EVENT_NAME: 'issue_comment' }, fromText('{}'))).toEqual({ kind: 'undecided' });
  });
});

describe('triageEvent with a command-prefix that is no prefix', () => {
  it('ignores nothing on its strength: main.ts fails the step saying what to write', () => {
    for (const prefix of ['plangate', '/plan gate', '   ', '/', '/-x']) {
      const event = payload('/lgtm');
      expect(triageEvent(env({ 'command-prefix': prefix }), fromText(JSON.stringify(event))), prefix).toEqual({
        kind: 'undecided',
        event: { path: eventPath, payload: event },
      });
    }
  });
});

describe('commandInputs reads bot-login, allowed-bots and command-prefix as settings.ts does', () => {
  let saved: NodeJS.ProcessEnv;
  let workspace: string;
  beforeEach(() => {
    saved = { ...process.env };
    for (const key of Object.keys(process.env)) if (key.startsWith('INPUT_')) delete process.env[key];
    workspace = mkdtempSync(path.join(tmpdir(), 'plangate-triage-'));
  });
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    rmSync(workspace, { recursive: true, force: true });
    vi.restoreAllMocks();
  });

  const cases: Record<string, string>[] = [
    {},
    { 'bot-login': '', 'allowed-bots': '', 'command-prefix': '' },
    { 'command-prefix': ' /plangate\n' },
    { 'bot-login': '  my-app[bot]\n', 'allowed-bots': 'a[bot]' },
    {
      'bot-login': 'plangate',
      'allowed-bots': '\n  # reviewed by security\n renovate[bot] \r\n\n dependabot[bot]\n#x\n',
    },
  ];
  for (const inputs of cases) {
    it(`agrees for ${JSON.stringify(inputs)}`, () => {
      for (const [name, value] of Object.entries(inputs)) process.env[`INPUT_${name.toUpperCase()}`] = value;
      // readSettings registers secrets with `::add-mask::`; keep that off the test output.
      vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
      const settings = readSettings({
        GITHUB_EVENT_NAME: 'issue_comment',
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: 'octo/widgets',
        GITHUB_WORKSPACE: workspace,
      });
      expect(commandInputs(process.env)).toEqual({
        botLogin: settings.botLogin,
        allowedBots: settings.allowedBots,
        commandPrefix: settings.commandPrefix,
      });
    });
  }
});

describe('reportIgnored', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'plangate-ignored-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('appends outcome=ignored to the output file, after what is there, and logs the reason', () => {
    const output = path.join(dir, 'output');
    writeFileSync(output, 'earlier<<EOF\nkept\nEOF\n');
    const logged: string[] = [];
    expect(
      reportIgnored('the push event carries no plangate command', { GITHUB_OUTPUT: output }, (t) => logged.push(t)),
    ).toBe(true);
    expect(parseOutputFile(readFileSync(output, 'utf8'))).toEqual({ earlier: 'kept', outcome: 'ignored' });
    expect(logged).toEqual(['Nothing to do: the push event carries no plangate command.\n']);
  });

  it('writes nothing and leaves the report to main.ts without an output file', () => {
    const logged: string[] = [];
    expect(reportIgnored('x', {}, (t) => logged.push(t))).toBe(false);
    expect(reportIgnored('x', { GITHUB_OUTPUT: path.join(dir, 'missing') }, (t) => logged.push(t))).toBe(false);
    // A directory cannot be appended to: the failure is main.ts's to report.
    expect(reportIgnored('x', { GITHUB_OUTPUT: dir }, (t) => logged.push(t))).toBe(false);
    expect(logged).toEqual([]);
  });
});

describe('commands in reviews', () => {
  it('reads a review comment and a review body like a thread comment', async () => {
    const { triageEvent } = await import('../../src/entry/triage.js');
    const { commandFromReviewEvent } = await import('../../src/entry/review-command.js');
    const pull = { number: 5, title: 'T', body: 'B' };
    const commentPayload = {
      action: 'created',
      pull_request: pull,
      comment: { id: 7, body: '/plan fix it', user: { login: 'mona' }, created_at: '2026-01-01T00:00:00Z' },
    };
    const reviewPayload = {
      action: 'submitted',
      pull_request: pull,
      review: { id: 8, body: 'Looks good', user: { login: 'mona' }, submitted_at: '2026-01-01T00:00:00Z' },
    };
    const env = (name: string) => ({ GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: '/event.json' });
    expect(triageEvent(env('pull_request_review_comment'), () => JSON.stringify(commentPayload)).kind).toBe(
      'undecided',
    );
    expect(triageEvent(env('pull_request_review'), () => JSON.stringify(reviewPayload)).kind).toBe('ignore');
    const command = commandFromReviewEvent('pull_request_review_comment', commentPayload, 'github-actions[bot]');
    expect(command).toMatchObject({
      kind: 'plan',
      objective: 'fix it',
      commentId: 7,
      origin: { kind: 'review-comment' },
      thread: { number: 5, isPullRequest: true },
    });
    const approve = commandFromReviewEvent(
      'pull_request_review',
      { ...reviewPayload, review: { ...reviewPayload.review, body: '/approve' } },
      'github-actions[bot]',
    );
    expect(approve).toMatchObject({ kind: 'approve', origin: { kind: 'review' } });
    expect(commandFromReviewEvent('pull_request_review', { ...reviewPayload, action: 'edited' }, 'x').kind).toBe(
      'ignore',
    );
  });
});
