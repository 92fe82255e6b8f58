import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/architecture.md names the layers and the files a `/plan` passes through: a rename or a new
// folder that the page does not follow fails here, so the page cannot drift from the code.
const root = path.resolve(import.meta.dirname, '../..');
const doc = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('names only files that exist', () => {
    const named = [...new Set(doc.match(/src\/[\w/.-]+\.ts/g) ?? [])];
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  it('lists every folder of src/ in its layer table, in the order the lint rules rank them', () => {
    const folders = readdirSync(path.join(root, 'src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const rows = doc.split('\n').filter((line) => /^\| `\w+\/`/.test(line));
    const tableOrder = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`(\w+)\/`/g)].map((m) => m[1]));
    expect([...tableOrder].sort()).toEqual([...folders].sort());
    // The lint configuration lists the layers bottom to top; the page lists them top to bottom.
    const config = readFileSync(path.join(root, '.dependency-cruiser.cjs'), 'utf8');
    // One rank per line of the `layers` list (folders on one line share it), bottom to top.
    const layersBlock = config.slice(config.indexOf('const layers'), config.indexOf('];'));
    const ranked = layersBlock
      .split('\n')
      .filter((line) => line.trim().startsWith('['))
      .map((line) => [...line.matchAll(/'(\w+)'/g)].map((m) => m[1]));
    const ranks = tableOrder.map((name) => rankOf(ranked, name));
    expect(ranks.every((rank, i) => rank >= 0 && (i === 0 || rank <= (ranks[i - 1] ?? 0)))).toBe(true);
  });
});

function rankOf(ranked: (string | undefined)[][], name: string | undefined): number {
  return ranked.findIndex((group) => group.includes(name));
}
