import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type RecordedRequest, type Reply } from '../fakes/scripted-model.js';
import { closeOpenWorlds, createWorld, git } from './harness.js';
import { commentEvent as event } from './thread-helpers.js';

/**
 * Load against the bundled action: 20 issues planned and approved at once, each run a separate
 * process in its own checkout, as parallel jobs are. Kept apart from the other reliability scenarios
 * because it is the slowest file of the suite and can run beside them.
 */

afterEach(closeOpenWorlds);

describe('load', () => {
  it('runs 20 approvals for 20 issues at once, as separate processes, with no cross-talk', async () => {
    const issueOf = (request: RecordedRequest) => /Note issue (\d+)/.exec(JSON.stringify(request.messages))?.[1] ?? '0';
    const planner: Reply = (request) => {
      const n = issueOf(request);
      const last = JSON.stringify(request.messages.at(-1));
      return last.includes('Stage: finish')
        ? toolCall('update_context', { summary: `Wrote the note for issue ${n}.` })
        : toolCall('update_context', {
            plan: { steps: [{ title: `Note ${n}`, files: [`notes/issue-${n}.md`] }] },
            directive: `Write notes/issue-${n}.md.`,
          });
    };
    const executor: Reply = (request) => {
      const n = issueOf(request);
      return request.messages.at(-1)?.role === 'tool'
        ? toolCall('update_context', { result: `Wrote notes/issue-${n}.md.`, outcome: 'done' })
        : toolCall('write_file', { path: `notes/issue-${n}.md`, content: `note ${n}\n` });
    };
    const world = await createWorld({ planner: Array(80).fill(planner), executor: Array(80).fill(executor) });
    const w = world;
    w.gh.setPermission('mona', 'maintain');
    const issues = Array.from({ length: 20 }, () => w.gh.addIssue({ title: 'A note', login: 'mona' }).number);
    // Every run gets its own checkout, as every job does.
    const planned = await Promise.all(
      issues.map(
        (n) => w.startAction(event(w, n, 'mona', `/plan Note issue ${n}`), {}, {}, { ownCheckout: true }).done,
      ),
    );
    expect(planned.map((r) => r.outputs.outcome)).toEqual(Array(20).fill('planned'));
    const approved = await Promise.all(
      issues.map((n) => w.startAction(event(w, n, 'mona', '/approve'), {}, {}, { ownCheckout: true }).done),
    );
    expect(approved.map((r) => r.outputs.outcome)).toEqual(Array(20).fill('done'));
    const pulls = w.gh.pulls();
    expect(pulls).toHaveLength(20);
    for (const [i, n] of issues.entries()) {
      const result = approved[i];
      const branch = `refs/heads/${result?.outputs.branch}`;
      expect(result?.outputs.branch).toMatch(new RegExp(`^plangate/${n}-`));
      expect(git(w.origin, 'show', `${branch}:notes/issue-${n}.md`)).toBe(`note ${n}`);
      expect(git(w.origin, 'diff', '--name-only', `refs/heads/main...${branch}`)).toBe(`notes/issue-${n}.md`);
      expect(pulls.find((p) => p.head.ref === result?.outputs.branch)?.body).toContain(`Closes #${n}`);
    }
  }, 600_000);
});
