import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { approvalGate, type GateInput } from '../../src/checks/approval-gate.js';
import { baseTreeLookup } from '../../src/checks/base-tree.js';
import { renderChecks, renderChecksText } from '../../src/render/checks.js';
import { checkPlan, type Finding, type PlanRules } from '../../src/checks/plan-checks.js';
import { maxStoredFindings, storeChecks, type PlanChecks } from '../../src/checks/stored-checks.js';
import type { Plan } from '../../src/machine/fields.js';
import { decodeRecord, encodeRecord, hashContext, hashPlan } from '../../src/record/plan-record.js';
import { verifyPlanComment } from '../../src/record/verify.js';
import { createGit } from '../../src/repo/git.js';
import { makeRecord, planComment } from './record-fixture.js';

const rules: PlanRules = {
  protectedPaths: ['.github/workflows/**', 'package-lock.json'],
  allowedCommands: ['npm test', 'npm run *'],
  maxIterations: 8,
};
const existing = new Set([
  'README.md',
  'src',
  'src/greet.js',
  'package.json',
  'package-lock.json',
  '.github/workflows/ci.yml',
]);
const exists = (p: string) => existing.has(p);

describe('checkPlan', () => {
  it('passes a plan within the rules with no findings', () => {
    const plan: Plan = {
      steps: [
        { title: 'Edit greet', files: ['src/greet.js', './README.md'], verify: 'npm run lint' },
        { title: 'Test', verify: 'npm test' },
      ],
    };
    expect(checkPlan(plan, rules, exists)).toEqual([]);
  });

  it('blocks a step whose files fall under protected-paths, naming the pattern', () => {
    const plan: Plan = {
      steps: [
        { title: 'Tidy', files: ['src/greet.js'] },
        { title: 'Touch CI', files: ['.github/workflows/ci.yml', 'package-lock.json'] },
      ],
    };
    expect(checkPlan(plan, rules, exists)).toEqual([
      {
        kind: 'protected-path',
        severity: 'blocking',
        step: 2,
        file: '.github/workflows/ci.yml',
        pattern: '.github/workflows/**',
      },
      {
        kind: 'protected-path',
        severity: 'blocking',
        step: 2,
        file: 'package-lock.json',
        pattern: 'package-lock.json',
      },
    ]);
    // A protected file is not also reported as new or missing.
    expect(checkPlan(plan, rules, () => false).map((f) => f.kind)).toEqual([
      'protected-path',
      'protected-path',
      'not-found',
    ]);
  });

  it('warns (without blocking) about a verify command the allow-list refuses, and says why one that is no single command is refused', () => {
    const plan: Plan = {
      steps: [
        { title: 'A', verify: 'make test' },
        { title: 'B', verify: 'npm test && npm run lint' },
        { title: 'C', verify: 'npm run build' },
      ],
    };
    const findings = checkPlan(plan, rules);
    expect(findings).toHaveLength(2);
    expect(findings[0]).toEqual({ kind: 'command-not-allowed', severity: 'warning', step: 1, command: 'make test' });
    expect(findings[1]).toMatchObject({
      kind: 'command-not-allowed',
      step: 2,
      reason: expect.stringMatching(/"&".*outside quotes/),
    });
  });

  it('says no allowed-commands are configured when the list is empty', () => {
    const findings = checkPlan({ steps: [{ title: 'A', verify: 'npm test' }] }, { ...rules, allowedCommands: [] });
    expect(findings).toEqual([
      {
        kind: 'command-not-allowed',
        severity: 'warning',
        step: 1,
        command: 'npm test',
        reason: 'no allowed-commands are configured',
      },
    ]);
  });

  it('blocks more steps than max-iterations allows execute cycles, but not exactly as many', () => {
    const steps = (n: number): Plan => ({ steps: Array.from({ length: n }, (_, i) => ({ title: `Step ${i + 1}` })) });
    expect(checkPlan(steps(3), { ...rules, maxIterations: 3 })).toEqual([]);
    expect(checkPlan(steps(4), { ...rules, maxIterations: 3 })).toEqual([
      { kind: 'too-many-steps', severity: 'blocking', steps: 4, maxIterations: 3 },
    ]);
  });

  it('calls a missing file new when the step creates it, and not found otherwise; a later step sees the created file', () => {
    const plan: Plan = {
      steps: [
        { title: 'Create a changelog', files: ['CHANGELOG.md'] },
        { title: 'Update the changelog and docs', files: ['CHANGELOG.md', 'docs/usage.md', 'app/[id]', 'src/', '.'] },
      ],
    };
    expect(checkPlan(plan, rules, exists)).toEqual([
      { kind: 'new-file', severity: 'info', step: 1, file: 'CHANGELOG.md' },
      { kind: 'not-found', severity: 'info', step: 2, file: 'docs/usage.md' },
      // Read literally: a name with brackets is a name, looked up like any other.
      { kind: 'not-found', severity: 'info', step: 2, file: 'app/[id]' },
    ]);
    // Without the base tree, existence is not judged at all.
    expect(checkPlan(plan, rules)).toEqual([]);
  });

  it('orders findings deterministically: blocking first, then warnings, then by step and kind', () => {
    const plan: Plan = {
      steps: [
        { title: 'Write notes', files: ['notes.md'] },
        { title: 'Edit CI', files: ['.github/workflows/ci.yml'], verify: 'make' },
        { title: 'Lint', verify: 'eslint .' },
      ],
    };
    const findings = checkPlan(plan, { ...rules, maxIterations: 2 }, exists);
    expect(findings.map((f) => [f.kind, 'step' in f ? f.step : 0])).toEqual([
      ['too-many-steps', 0],
      ['protected-path', 2],
      ['command-not-allowed', 2],
      ['command-not-allowed', 3],
      ['new-file', 1],
    ]);
    expect(checkPlan(plan, { ...rules, maxIterations: 2 }, exists)).toEqual(findings);
  });
});

describe('storeChecks', () => {
  it('keeps the first findings and exact counts, so a huge plan still fits in the record', () => {
    const steps = Array.from({ length: 40 }, (_, i) => ({
      title: `Step ${i + 1}`,
      files: [`.github/workflows/w${i}.yml`, `missing-${i}.md`],
    }));
    const findings = checkPlan({ steps }, { ...rules, maxIterations: 100 }, exists);
    const stored = storeChecks(findings, { kind: 'unknown', model: 'x', steps: 40, reason: 'no price for model x' });
    expect(stored.findings).toHaveLength(maxStoredFindings);
    expect(stored.findings.every((f) => f.severity === 'blocking')).toBe(true);
    expect(stored.blocking).toBe(40);
    expect(stored.omitted).toBe(findings.length - maxStoredFindings);
  });
});

const estimate = { kind: 'range', model: 'gpt-4.1-mini', steps: 2, lowUsd: 0.01, highUsd: 0.08 } as const;
const passed: PlanChecks = storeChecks([], estimate);
const protectedFinding: Finding = {
  kind: 'protected-path',
  severity: 'blocking',
  step: 1,
  file: '.github/workflows/ci.yml',
  pattern: '.github/workflows/**',
};
const blocked: PlanChecks = storeChecks([protectedFinding], estimate);
const gate = (over: Partial<GateInput>) =>
  approvalGate({
    planId: 'abcd1234',
    stored: passed,
    current: [],
    allowBlockedPlans: false,
    maxEstimatedCostUsd: undefined,
    overBudget: false,
    role: 'write',
    ...over,
  });

describe('approvalGate', () => {
  it('lets a plan that passed its checks through', () => {
    expect(gate({})).toEqual({ ok: true });
  });

  it('refuses a blocked plan, naming the finding and the fix, unless blocked plans are allowed', () => {
    const verdict = gate({ stored: blocked });
    expect(verdict.ok).toBe(false);
    if (verdict.ok) return;
    expect(verdict.reason).toContain('1 blocking finding');
    expect(verdict.reason).toContain('.github/workflows/ci.yml');
    expect(verdict.fix).toContain('`protected-paths`');
    expect(verdict.fix).toContain('/revise <feedback>');
    expect(gate({ stored: blocked, allowBlockedPlans: true })).toEqual({ ok: true });
  });

  it('refuses what the approving run would enforce, even when the comment said the checks passed', () => {
    const verdict = gate({ current: [{ ...protectedFinding, step: 2, file: '.github/workflows/release.yml' }] });
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringContaining('release.yml') });
    // A warning re-found at approval does not block.
    expect(
      gate({ current: [{ kind: 'command-not-allowed', severity: 'warning', step: 2, command: 'npm test' }] }),
    ).toEqual({ ok: true });
    // The same finding stored and re-found is named once.
    const twice = gate({ stored: blocked, current: [{ ...protectedFinding }] });
    expect(twice).toMatchObject({ ok: false, reason: expect.stringContaining('has 1 blocking finding') });
  });

  it('holds the estimate to max-estimated-cost-usd: plain approval refused, --over-budget needs maintain', () => {
    expect(gate({ maxEstimatedCostUsd: 0.08 })).toEqual({ ok: true });
    const plain = gate({ maxEstimatedCostUsd: 0.05 });
    expect(plain).toMatchObject({
      ok: false,
      reason: expect.stringContaining('exceeds `max-estimated-cost-usd` ($0.0500)'),
      fix: expect.stringContaining('/approve --over-budget abcd1234'),
    });
    expect(gate({ maxEstimatedCostUsd: 0.05, overBudget: true, role: 'write' })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('needs maintain'),
    });
    expect(gate({ maxEstimatedCostUsd: 0.05, overBudget: true, role: 'maintain' })).toEqual({ ok: true });
    expect(gate({ maxEstimatedCostUsd: 0.05, overBudget: true, role: 'admin' })).toEqual({ ok: true });
  });

  it('fails closed when a ceiling is set but there is no estimate to hold to it', () => {
    const unknown = storeChecks([], {
      kind: 'unknown',
      model: 'mystery',
      steps: 1,
      reason: 'no price for model mystery',
    });
    expect(gate({ stored: unknown, maxEstimatedCostUsd: 1 })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('no price for model mystery'),
    });
    expect(gate({ stored: undefined, maxEstimatedCostUsd: 1 })).toMatchObject({ ok: false });
    expect(gate({ stored: unknown, maxEstimatedCostUsd: 1, overBudget: true, role: 'maintain' })).toEqual({ ok: true });
  });
});

describe('checks in the plan comment and the record', () => {
  it('shows "Checks passed" and the estimate above the approve instruction', () => {
    const body = planComment(makeRecord({ overrides: { checks: passed } }));
    expect(body).toContain('Checks passed');
    expect(body).toContain('$0.0100–$0.0800 (estimate)');
    expect(body.indexOf('Checks passed')).toBeLessThan(body.indexOf('/approve '));
  });

  it('shows a blocking finding with how to fix it while the plan is open, without the fix once it is not', () => {
    const text = renderChecks(blocked, true);
    expect(text).toContain('Checks failed');
    expect(text).toContain('⛔ step 1: `.github/workflows/ci.yml` is protected');
    expect(text).toContain('To fix:');
    expect(renderChecks(blocked, false)).not.toContain('To fix:');
    expect(
      renderChecks(
        { ...passed, estimate: { kind: 'unknown', model: 'mystery', steps: 1, reason: 'no price for model mystery' } },
        true,
      ),
    ).toContain('no price for model mystery');
  });

  it('never offers a plain approval for a plan its checks blocked: it says how to fix it and the one override', () => {
    const body = planComment(makeRecord({ overrides: { checks: blocked } }));
    const id = makeRecord().planId;
    expect(body).toContain('this plan cannot be approved as it is.');
    expect(body).toContain('To fix: adjust `protected-paths` and ask for the plan again with `/revise <feedback>`');
    expect(body).toContain('**Status:** proposed, blocked by its checks: revise it as the checks above say');
    expect(body).toContain(
      `To run it as it is instead, the workflow must set \`allow-blocked-plans: true\`; then a maintainer can reply \`/approve ${id}\`.`,
    );
    expect(body).not.toContain('To run this plan, a maintainer replies');
    expect(body).not.toContain(`    /approve ${id}`);
    expect(body).not.toContain('waiting for approval');
    // A plan whose checks passed keeps the approve line.
    expect(planComment(makeRecord({ overrides: { checks: passed } }))).toContain(
      `To run this plan, a maintainer replies:\n\n    /approve ${id}`,
    );
  });

  it('writes the same checks as plain text for the terminal, with the fix its host offers', () => {
    const withReason = storeChecks(
      [
        protectedFinding,
        { kind: 'command-not-allowed', severity: 'warning', step: 2, command: 'a <b>', reason: 'x & y' },
      ],
      estimate,
    );
    const text = renderChecksText(withReason, (blocking) => `fix ${blocking.length}`);
    expect(text).toBe(
      [
        '⛔ Checks failed: 1 blocking finding; this plan cannot be approved as it is.',
        '',
        '- ⛔ step 1: ".github/workflows/ci.yml" is protected by `protected-paths` (".github/workflows/**"); the executor cannot write it',
        '- ⚠️ step 2: the verify command "a <b>" is not in `allowed-commands` (x & y); the executor cannot run it',
        '',
        'fix 1',
        '',
        "Execution cost: $0.0100–$0.0800 (estimate) for the executor gpt-4.1-mini, 2 steps, from planning's measured usage; planning each next step and the summary come on top.",
      ].join('\n'),
    );
  });

  it('passes a plan whose only findings are warnings, listing them with ⚠️ and no fix', () => {
    const warned = storeChecks(
      [{ kind: 'command-not-allowed', severity: 'warning', step: 1, command: 'make test' }],
      estimate,
    );
    expect(warned.blocking).toBe(0);
    const text = renderChecks(warned, true);
    expect(text).toContain('Checks passed** with 1 warning');
    expect(text).toContain('⚠️ step 1: the verify command `make test` is not in `allowed-commands`');
    expect(text).not.toContain('To fix:');
    expect(gate({ stored: warned })).toEqual({ ok: true });
  });

  it('hashes the checks with the plan, round-trips them through the record, and keeps old records valid', () => {
    const base = makeRecord();
    expect(hashPlan(base.snapshot.context)).toBe(hashContext(base.snapshot.context));
    const record = { ...base, checks: blocked, planHash: hashPlan(base.snapshot.context, blocked, base.scope) };
    expect(record.planHash).not.toBe(base.planHash);
    const decoded = decodeRecord(`x\n${encodeRecord(record)}`);
    expect(decoded).toEqual({ ok: true, record });
    const comment = (body: string) => ({
      id: 1,
      nodeId: 'n',
      author: 'bot',
      body,
      url: '',
      createdAt: '',
      updatedAt: '',
    });
    expect(verifyPlanComment(comment(planComment(record)), 'bot', planComment).ok).toBe(true);
    // Swapping the checks under an unchanged plan breaks the hash.
    const swapped = { ...record, checks: passed };
    expect(verifyPlanComment(comment(planComment(swapped)), 'bot', planComment)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('hash'),
    });
  });
});

describe('baseTreeLookup', () => {
  it('answers from the base commit: its files and directories, not later or untracked ones', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plangate-tree-'));
    try {
      const run = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: dir,
          encoding: 'utf8',
          env: {
            ...process.env,
            GIT_AUTHOR_NAME: 'a',
            GIT_AUTHOR_EMAIL: 'a@example.com',
            GIT_COMMITTER_NAME: 'a',
            GIT_COMMITTER_EMAIL: 'a@example.com',
          },
        }).trim();
      run('init', '--quiet');
      mkdirSync(path.join(dir, 'src/deep'), { recursive: true });
      writeFileSync(path.join(dir, 'src/deep/a b.ts'), 'x');
      writeFileSync(path.join(dir, 'README.md'), 'x');
      run('add', '--all');
      run('commit', '--quiet', '-m', 'base');
      const base = run('rev-parse', 'HEAD');
      writeFileSync(path.join(dir, 'later.md'), 'x');
      run('add', '--all');
      run('commit', '--quiet', '-m', 'later');
      const present = ['README.md', 'src', 'src/deep', 'src/deep/a b.ts'];
      const absent = ['later.md', 'src/dee', 'missing', 'src/*', '../README.md', '/README.md', 'src/./deep'];
      const exists = await baseTreeLookup(createGit(dir), base, [...absent, ...present]);
      expect(present.map(exists)).toEqual([true, true, true, true]);
      expect(absent.map(exists)).toEqual(absent.map(() => false));
      // Asked about a directory and a file under it at once, git may show only the file.
      const nested = await baseTreeLookup(createGit(dir), base, ['src/deep', 'src/deep/']);
      expect(nested('src/deep')).toBe(true);
      // Only what was asked is known: the lookup never lists the whole tree.
      expect(exists('later.md')).toBe(false);
      expect(await baseTreeLookup(createGit(dir), base, [])).toBeTypeOf('function');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
