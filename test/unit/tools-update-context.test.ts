import { describe, expect, it } from 'vitest';
import type { StagedFields } from '../../src/machine/fields.js';
import { createToolbox } from '../../src/tools/toolbox.js';
import { createUpdateContextTool, stagedFieldsSchema } from '../../src/tools/update-context.js';

const plan = { steps: [{ title: 'Add the flag', files: ['src/cli.ts'], verify: 'npm test' }], risks: ['none'] };

describe('update_context schema per role', () => {
  it('lets the planner stage plan, directive, summary and question', () => {
    const planner = stagedFieldsSchema('planner');
    expect(planner.parse({ plan, directive: 'Do step 1' })).toEqual({ plan, directive: 'Do step 1' });
    expect(planner.safeParse({ summary: 'All done.' }).success).toBe(true);
    expect(planner.safeParse({ question: 'Which branch?' }).success).toBe(true);
  });

  it('never lets the planner stage result or outcome', () => {
    const planner = stagedFieldsSchema('planner');
    const result = planner.safeParse({ result: 'I did it' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'the planner cannot stage result; it may stage only plan, directive, summary, question',
    );
    expect(planner.safeParse({ directive: 'x', outcome: 'done' }).success).toBe(false);
  });

  it('lets the executor stage result and outcome, never plan or directive', () => {
    const executor = stagedFieldsSchema('executor');
    expect(executor.parse({ result: 'Added the flag', outcome: 'done' })).toEqual({
      result: 'Added the flag',
      outcome: 'done',
    });
    expect(executor.safeParse({ plan }).success).toBe(false);
    expect(executor.safeParse({ directive: 'next' }).success).toBe(false);
    expect(executor.safeParse({ outcome: 'finished' }).success).toBe(false);
  });

  it('requires at least one field, with a clear message', () => {
    const result = stagedFieldsSchema('executor').safeParse({});
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['stage at least one field: result, outcome']);
  });

  it('validates field contents: plan shape and non-empty strings', () => {
    const planner = stagedFieldsSchema('planner');
    expect(planner.safeParse({ plan: { steps: [] } }).success).toBe(false);
    expect(planner.safeParse({ plan: { steps: [{ title: 'x', extra: 1 }] } }).success).toBe(false);
    expect(planner.safeParse({ directive: '   ' }).success).toBe(false);
    expect(stagedFieldsSchema('executor').safeParse({ result: '' }).success).toBe(false);
  });
});

describe('update_context tool', () => {
  it('hands the parsed fields to the host and returns its text', async () => {
    const staged: StagedFields[] = [];
    const box = createToolbox([
      createUpdateContextTool('planner', (fields) => {
        staged.push(fields);
        return `Staged ${Object.keys(fields).join(', ')}.`;
      }),
    ]);
    const outcome = await box.call('update_context', JSON.stringify({ plan, directive: 'Do step 1' }));
    expect(outcome).toEqual({ ok: true, output: 'Staged plan, directive.' });
    expect(staged).toEqual([{ plan, directive: 'Do step 1' }]);
  });

  it('stages nothing when the arguments are refused', async () => {
    const staged: StagedFields[] = [];
    const box = createToolbox([createUpdateContextTool('executor', (fields) => (staged.push(fields), 'ok'))]);
    const outcome = await box.call('update_context', JSON.stringify({ plan }));
    expect(outcome.ok).toBe(false);
    expect(outcome.output).toMatch(/the executor cannot stage plan; it may stage only result, outcome/);
    expect(staged).toEqual([]);
  });

  it('refuses a plan whose files hold a pattern, naming the step and the entry', async () => {
    const staged: StagedFields[] = [];
    const box = createToolbox([createUpdateContextTool('planner', (fields) => (staged.push(fields), 'ok'))]);
    for (const [entry, said] of [
      ['notes/a.md/index|package.json', /step 2 names "notes\/a\.md\/index\|package\.json" in files, which holds `\|`/],
      ['!CHANGELOG.md', /step 2 names "!CHANGELOG\.md" in files, which starts a name with `!`/],
      ['docs/*.md', /which holds `\*`, which only a pattern would: files are literal paths/],
      ['src/{a,b}.ts', /which holds `\{`/],
      [':(glob)**', /which holds `\*`/],
      ['../outside.txt', /leaves the repository/],
      ['/etc/passwd', /is not a path inside the repository/],
    ] as const) {
      const refused = { steps: [plan.steps[0], { title: 'Notes', files: ['notes/a.md', entry] }] };
      const outcome = await box.call('update_context', JSON.stringify({ plan: refused }));
      expect(outcome.ok, entry).toBe(false);
      expect(outcome.output).toMatch(said);
    }
    expect(staged).toEqual([]);
    // Names frameworks give real files stay: they are read literally.
    const literal = {
      steps: [{ title: 'Pages', files: ['app/[id]/page.tsx', 'routes/+page.svelte', 'app/(shop)', '.'] }],
    };
    expect((await box.call('update_context', JSON.stringify({ plan: literal }))).ok).toBe(true);
  });

  it('offers each role exactly its fields in the JSON Schema', () => {
    const props = (role: 'planner' | 'executor') =>
      Object.keys(
        (createToolbox([createUpdateContextTool(role, () => '')]).specs[0]?.function.parameters?.properties ??
          {}) as object,
      );
    expect(props('planner')).toEqual(['directive', 'plan', 'question', 'summary']);
    expect(props('executor')).toEqual(['outcome', 'result']);
  });
});

describe('update_context question', () => {
  it('takes a question with options and stages it as one string the maintainer can answer', async () => {
    let staged: unknown;
    const tool = createUpdateContextTool('planner', (fields) => {
      staged = fields;
      return 'ok';
    });
    const box = createToolbox([tool]);
    const outcome = await box.call(
      'update_context',
      JSON.stringify({ question: { text: 'Which file?', options: ['src/greet.js', 'src/farewell.js'] } }),
    );
    expect(outcome.ok).toBe(true);
    expect(staged).toEqual({ question: 'Which file?\n1. src/greet.js\n2. src/farewell.js' });
    const bad = await box.call(
      'update_context',
      JSON.stringify({ question: { text: 'Which file?', options: ['only one'] } }),
    );
    expect(bad.ok).toBe(false);
  });
});
