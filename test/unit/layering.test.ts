import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

/**
 * The layering rules `npm run lint` enforces (.dependency-cruiser.cjs), run against a fixture tree
 * whose every file breaks one rule or keeps to them: each breaking import is reported under the rule
 * it breaks, and nothing else is.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ruleSet = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[] };

async function violations(baseDir: string): Promise<IViolation[]> {
  const { output } = await cruise(['src'], {
    baseDir,
    ruleSet: { forbidden: ruleSet.forbidden } as never,
    validate: true,
    tsPreCompilationDeps: true,
  });
  return (output as ICruiseResult).summary.violations;
}

describe('layering rules', () => {
  it('report each import that breaks a rule, under that rule, and only those', async () => {
    const found = (await violations(path.join(root, 'test/fixtures/layering')))
      .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
      .sort();
    expect(found).toEqual([
      'layer-tools: src/tools/tool.ts -> src/mcp/server.ts',
      'pure-machine-and-text: src/text/leaf.ts -> fs',
      'render-without-github-or-record: src/render/view.ts -> src/github/client.ts',
      'sandbox-through-its-entry: src/tools/part.ts -> src/sandbox/account/switch.ts',
    ]);
  });

  it('find nothing in plangate itself', async () => {
    expect(await violations(root)).toEqual([]);
  });
});
