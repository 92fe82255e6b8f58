import { afterEach, describe, expect, it } from 'vitest';
import { expectNotesListing, notesServerConfig, notesServerScript, toolResults } from '../fakes/mcp-notes-script.js';
import { apiKey, closeOpenWorlds, createWorld, git, token } from './harness.js';
import { bot, commentEvent as comment } from './thread-helpers.js';

/**
 * MCP servers from the config file, end to end through the bundled action: the stdio test server is
 * started by the action, the planner reaches only its read-only tool, the executor's call of the
 * writing tool lands in the pull request, the server never sees the GitHub token, and a server that
 * cannot start is named in the plan comment, the progress comment and the pull request while the run
 * goes on without it.
 */

const probe = 'e2e-mcp-probe-value-0123456789';

afterEach(closeOpenWorlds);

const files = {
  'README.md': '# notes\n',
  'package.json': '{\n  "name": "notes",\n  "version": "1.0.0"\n}\n',
  '.github/plangate.yml': notesServerConfig,
};

/** What the runner's environment holds besides plangate's inputs: the probe, and a token the workflow exposed. */
const env = { PLANGATE_MCP_PROBE: probe, GITHUB_TOKEN: token };

describe('MCP servers', () => {
  it('lets the planner use read-only tools only, the executor the writing one, and reports a server that did not start', async () => {
    const world = await createWorld(notesServerScript, files);
    world.gh.setPermission('mona', 'admin');
    const issue = world.gh.addIssue({
      title: 'Record the release',
      body: 'Use the notes server.',
      login: 'mona',
    }).number;

    world.freshCheckout();
    const planned = await world.runAction(comment(world, issue, 'mona', '/plan Record the release note'), {}, env);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.outputs.outcome).toBe('planned');

    const [listed, lookup, refusal] = toolResults(world.model.requests, 'planner');
    // The planner's listing holds the read-only tool only, and names the server that did not start.
    expectNotesListing(listed);
    // The named variable reached the server, and its value (a secret) was scrubbed before the model saw it.
    expect(lookup).toContain('lookup release: probe=***');
    expect(lookup).toContain('github-token-visible=no');
    const names = /env-names=(.*)/.exec(lookup ?? '')?.[1]?.split(',') ?? [];
    expect(names).toContain('PLANGATE_MCP_PROBE');
    expect(names.filter((n) => n.startsWith('INPUT_') || n.startsWith('GITHUB_') || n.startsWith('ACTIONS_'))).toEqual(
      [],
    );
    // It runs in plangate's work tree (a copy of the checkout), as the sandbox account, not as the action.
    expect(lookup).toMatch(/^cwd=.*\/plangate-[^/]+\/work$/m);
    const uid = Number(/^uid=(\d+)$/m.exec(lookup ?? '')?.[1]);
    expect(uid).toBeGreaterThan(0);
    expect(uid).not.toBe(process.getuid?.());
    expect(refusal).toContain('notes/record is not read-only; only the executor may call it');

    // The plan comment names the server that did not start; the run went on and posted the plan.
    const planComment = world.gh
      .comments(issue)
      .find((c) => c.user?.login === bot && c.body?.includes('<!-- plangate:record v1 '));
    expect(planComment?.body).toContain('> [!WARNING]');
    expect(planComment?.body).toContain(
      '> - `broken`: `the command "plangate-no-such-mcp-server-command" was not found`',
    );
    expect(planComment?.body).toContain('Record the release note with the notes server');

    world.freshCheckout();
    const approved = await world.runAction(comment(world, issue, 'mona', '/approve'), {}, env);
    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.outputs.outcome).toBe('done');

    // The executor's call ran in the workspace: its file is committed on the work branch.
    expect(toolResults(world.model.requests, 'executor')[0]).toBe('recorded: release 1.0');
    const branch = `refs/heads/${approved.outputs.branch ?? ''}`;
    // Only the executor's note: the planner's refused call wrote nothing.
    expect(git(world.origin, 'show', `${branch}:mcp-records.txt`)).toBe('release 1.0');
    expect(world.gh.pulls()).toHaveLength(1);
    expect(world.model.remaining()).toEqual({ planner: 0, executor: 0 });

    // The approve run started the servers afresh: the one that did not start is named in the pull
    // request body and in the progress comment, one line each, and the one that started is not.
    const failureLine = '> - `broken`: `the command "plangate-no-such-mcp-server-command" was not found`';
    const prBody = world.gh.pulls()[0]?.body ?? '';
    expect(prBody).toContain(
      '> [!WARNING]\n> An MCP server did not start, so this run went on without it:\n' + failureLine,
    );
    expect(prBody).not.toContain('`notes`');
    const progress = world.gh
      .comments(issue)
      .find((c) => c.user?.login === bot && c.body?.includes('<!-- plangate:progress '));
    expect(progress?.body).toContain(failureLine);

    // Neither the probe nor any credential reached GitHub or a model.
    const posted = JSON.stringify(world.gh.requests);
    const sent = JSON.stringify(world.model.requests.map((r) => r.messages));
    for (const secret of [probe, token, apiKey]) {
      expect(posted).not.toContain(secret);
      expect(sent).not.toContain(secret);
    }
  });
});
