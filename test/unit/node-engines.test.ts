import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * One statement of which Node.js plangate needs, agreed everywhere: the action runs on what action.yml
 * declares, and package.json's `engines` (what the CLI and development need) admits nothing a direct
 * dependency refuses, so npm never warns EBADENGINE on a version the docs call enough.
 */
const root = path.resolve(import.meta.dirname, '../..');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
const pkg = readJson('package.json') as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const range = pkg.engines.node;
const lowest = semver.minVersion(range);

describe('Node.js versions', () => {
  it('names a valid engines range whose lowest version is 22.13 or later', () => {
    expect(semver.validRange(range)).not.toBeNull();
    expect(lowest && semver.gte(lowest, '22.13.0')).toBe(true);
  });

  it('admits the runtime action.yml declares (runs.using: node24)', () => {
    const action = parse(readFileSync(path.join(root, 'action.yml'), 'utf8')) as { runs: { using: string } };
    expect(action.runs.using).toBe('node24');
    expect(semver.satisfies('24.0.0', range)).toBe(true);
  });

  // Every direct dependency that states an engine must accept the lowest version engines admits.
  const stated = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]
    .filter((name) => name !== 'node')
    .map((name) => [
      name,
      (readJson(`node_modules/${name}/package.json`).engines as { node?: string } | undefined)?.node,
    ])
    .filter((entry): entry is [string, string] => entry[1] !== undefined);

  it('reads the engines of the dependencies that need a newer Node.js (openai needs 22)', () => {
    expect(stated.map(([name]) => name)).toContain('openai');
  });

  it.each(stated)('%s (node %s) accepts the lowest admitted Node.js version', (name, theirs) => {
    expect(semver.satisfies(lowest ?? '0.0.0', theirs), `${name} needs node ${theirs}; engines admits ${range}`).toBe(
      true,
    );
  });

  it('the CLI docs state the same minimum', () => {
    const docs = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');
    expect(docs).toContain(`Node.js ${lowest?.major}.${lowest?.minor} or later`);
  });
});
