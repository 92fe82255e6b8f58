import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * action.yml's descriptions are what the Marketplace page, editors' hover texts and the inputs table
 * of docs/configuration.md show, where a paragraph is not read. Each stays short; what more an input
 * needs goes under its own heading in docs/configuration.md, which the generated table links.
 */
const root = path.resolve(import.meta.dirname, '../..');
const action = parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { description: string }>;
  outputs: Record<string, { description: string }>;
};
const reference = readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');

/** Words as a reader counts them: runs of text between spaces. */
const words = (text: string) => text.trim().split(/\s+/).length;
const maxWords = 40;

describe('action.yml descriptions', () => {
  const entries = [
    ...Object.entries(action.inputs).map(([name, spec]) => [`input ${name}`, spec.description] as const),
    ...Object.entries(action.outputs).map(([name, spec]) => [`output ${name}`, spec.description] as const),
  ];

  it.each(entries)(`%s is at most ${maxWords} words`, (_name, description) => {
    expect(words(description)).toBeLessThanOrEqual(maxWords);
  });

  it('counts words as a reader does', () => {
    expect(words(' Seconds one model\nrequest may  go. ')).toBe(6);
  });

  it('each longer explanation in docs/configuration.md belongs to an input the table links to it', () => {
    const detailed = [...reference.matchAll(/^#{3,4} `([a-z0-9-]+)`$/gm)].map((m) => m[1] ?? '');
    expect(detailed.length).toBeGreaterThan(0);
    for (const name of detailed) {
      expect(Object.keys(action.inputs)).toContain(name);
      expect(reference).toContain(`[More](#${name})`);
    }
  });
});
