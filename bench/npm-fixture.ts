import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

/**
 * A real lockfile for `npm ci` with no registry reachable: the part of plangate's own
 * package-lock.json that one of its dependencies pulls in, with every tarball the registry served
 * for it. The tarballs come from npm's cache, where the project's own `npm ci` left them (found by
 * the lockfile's integrity, so they are the registry's bytes); one the cache no longer holds is
 * packed from the installed copy in node_modules, and its entry takes that tarball's integrity.
 * Either way the fixture installs offline on any clone after `npm ci`.
 */

const lockEntry = z.looseObject({
  version: z.string(),
  integrity: z.string().regex(/^sha512-/),
  dev: z.boolean().optional(),
  link: z.boolean().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
  peerDependencies: z.record(z.string(), z.string()).optional(),
  peerDependenciesMeta: z.record(z.string(), z.object({ optional: z.boolean().optional() })).optional(),
});
type LockEntry = z.infer<typeof lockEntry>;

const lockfileSchema = z.object({
  lockfileVersion: z.literal(3),
  packages: z.record(z.string(), z.unknown()),
});

export interface NpmFixture {
  /** The fixture's package.json dependencies: the roots, at the versions plangate's package.json asks for. */
  dependencies: Record<string, string>;
  /** package-lock.json entries by install path, each with the integrity of the tarball served for it. */
  entries: Map<string, LockEntry>;
  /** Tarballs by the registry path each entry's `resolved` names (`/name/-/base-version.tgz`). */
  tarballs: Map<string, Buffer>;
  /** How many tarballs came from npm's cache; the rest were packed from node_modules. */
  fromCache: number;
  bytes: number;
}

/** `node_modules/a/node_modules/@s/b` → `@s/b`. */
const packageName = (installPath: string) => installPath.slice(installPath.lastIndexOf('node_modules/') + 13);

/** Where the registry serves `installPath`'s tarball, as the public registry names it. */
const tarballPath = (installPath: string, version: string) => {
  const name = packageName(installPath);
  return `/${name}/-/${name.slice(name.lastIndexOf('/') + 1)}-${version}.tgz`;
};

/**
 * The install path `dependency` resolves to from `from`, as Node's module resolution walks up:
 * `from/node_modules/dep`, then each enclosing node_modules, then the top.
 */
function resolveFrom(packages: Record<string, unknown>, from: string, dependency: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = `${base === '' ? '' : `${base}/`}node_modules/${dependency}`;
    if (candidate in packages) return candidate;
    if (base === '') return undefined;
    const up = base.lastIndexOf('/node_modules/');
    base = up === -1 ? '' : base.slice(0, up);
  }
}

/** The lockfile entries `roots` need, dependencies of dependencies included. */
function closure(packages: Record<string, unknown>, roots: readonly string[]): Map<string, LockEntry> {
  const out = new Map<string, LockEntry>();
  const pending = roots.map((root) => {
    const found = resolveFrom(packages, '', root);
    if (!found) throw new Error(`package-lock.json has no ${root}`);
    return found;
  });
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (out.has(next)) continue;
    const entry = lockEntry.parse(packages[next]);
    if (entry.link || entry.dev) throw new Error(`${next} is a link or a dev dependency: not a registry package`);
    out.set(next, entry);
    const named = { ...entry.dependencies, ...entry.optionalDependencies, ...entry.peerDependencies };
    for (const dependency of Object.keys(named)) {
      const found = resolveFrom(packages, next, dependency);
      const optional =
        entry.optionalDependencies?.[dependency] !== undefined ||
        entry.peerDependenciesMeta?.[dependency]?.optional === true;
      // An optional dependency the lockfile holds only for plangate's development is left out, as npm leaves it.
      const devOnly = found !== undefined && (packages[found] as { dev?: unknown }).dev === true;
      if (found && !(optional && devOnly)) pending.push(found);
      else if (!optional) throw new Error(`package-lock.json has no ${dependency} for ${next}`);
    }
  }
  return out;
}

/** npm's cache folder (`npm config get cache`), asked of npm so a configured one is found too. */
function npmCacheDir(cwd: string): string {
  return path.join(execFileSync('npm', ['config', 'get', 'cache'], { cwd, encoding: 'utf8' }).trim(), '_cacache');
}

/** The tarball npm's content-addressed cache holds for `integrity`, checked against it; undefined when absent. */
function fromNpmCache(cacheDir: string, integrity: string): Buffer | undefined {
  const hex = Buffer.from(integrity.slice('sha512-'.length), 'base64').toString('hex');
  const file = path.join(cacheDir, 'content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
  if (!existsSync(file)) return undefined;
  const bytes = readFileSync(file);
  return sha512(bytes) === integrity ? bytes : undefined;
}

const sha512 = (bytes: Buffer) => `sha512-${createHash('sha512').update(bytes).digest('base64')}`;

/** Packs the installed copies at `installPaths` (one `npm pack` for all), by install path. */
function packInstalled(projectRoot: string, installPaths: readonly string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (installPaths.length === 0) return out;
  const dir = mkdtempSync(path.join(tmpdir(), 'plangate-bench-pack-'));
  try {
    const packed = z
      .array(z.object({ filename: z.string() }))
      .parse(
        JSON.parse(
          execFileSync(
            'npm',
            ['pack', '--json', '--ignore-scripts', '--pack-destination', dir, ...installPaths.map((p) => `./${p}`)],
            { cwd: projectRoot, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
          ),
        ),
      );
    installPaths.forEach((installPath, i) => {
      const file = packed[i]?.filename;
      if (file === undefined) throw new Error(`npm pack made no tarball for ${installPath}`);
      out.set(installPath, readFileSync(path.join(dir, file)));
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** The fixture for `roots` (dependencies of plangate's package.json), from its lockfile. */
export function npmFixture(projectRoot: string, roots: readonly string[]): NpmFixture {
  const lock = lockfileSchema.parse(JSON.parse(readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')));
  const manifest = z
    .object({ dependencies: z.record(z.string(), z.string()) })
    .parse(JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')));
  const dependencies = Object.fromEntries(
    roots.map((root) => {
      const range = manifest.dependencies[root];
      if (range === undefined) throw new Error(`${root} is not a dependency of plangate`);
      return [root, range];
    }),
  );
  const entries = closure(lock.packages, roots);
  const cacheDir = npmCacheDir(projectRoot);
  const tarballs = new Map<string, Buffer>();
  const missing: string[] = [];
  for (const [installPath, entry] of entries) {
    const bytes = fromNpmCache(cacheDir, entry.integrity);
    if (bytes) tarballs.set(tarballPath(installPath, entry.version), bytes);
    else missing.push(installPath);
  }
  const fromCache = tarballs.size;
  for (const [installPath, bytes] of packInstalled(projectRoot, missing)) {
    const entry = entries.get(installPath) as LockEntry;
    entries.set(installPath, { ...entry, integrity: sha512(bytes) });
    tarballs.set(tarballPath(installPath, entry.version), bytes);
  }
  const bytes = [...tarballs.values()].reduce((sum, b) => sum + b.length, 0);
  return { dependencies, entries, tarballs, fromCache, bytes };
}

/** Writes the fixture's package.json and package-lock.json into `dir`, every tarball resolved at `origin`. */
export function writeNpmFixture(dir: string, fixture: NpmFixture, origin: string): void {
  const root = { name: 'plangate-bench-npm-fixture', version: '1.0.0', dependencies: fixture.dependencies };
  const packages: Record<string, unknown> = { '': root };
  for (const [installPath, entry] of fixture.entries) {
    packages[installPath] = { ...entry, resolved: `${origin}${tarballPath(installPath, entry.version)}` };
  }
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(root, null, 2)}\n`);
  writeFileSync(
    path.join(dir, 'package-lock.json'),
    `${JSON.stringify({ name: root.name, version: root.version, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}
