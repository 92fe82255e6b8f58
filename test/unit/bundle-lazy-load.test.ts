import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a /plan run loads before its first line is the files index.js imports, and what main.ts's
// chunk imports in turn. A module left out of that set costs the run nothing until it is needed:
// undici and its HTTP client only behind a proxy. A job whose runner environment or event file is
// broken fails before main.ts's chunk loads, exactly as main.ts would fail it. scripts/bundle.mjs
// runs here as `npm run bundle` runs it, into a folder of its own (twice, to check it gives the same bytes).

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];

/** Runs scripts/bundle.mjs with a fresh folder as its working directory; returns that dist/. */
function bundle(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-bundle-')));
  dirs.push(dir);
  // The script builds src/ into ./dist; the links give it the project's sources and packages.
  fs.symlinkSync(path.join(root, 'src'), path.join(dir, 'src'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  execFileSync(process.execPath, [path.join(root, 'scripts/bundle.mjs')], { cwd: dir, stdio: 'pipe' });
  return path.join(dir, 'dist');
}

/** Relative imports of an ES module file: static ones and `import()` ones apart. */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const text = fs.readFileSync(file, 'utf8');
  const resolve = (spec: string) => path.resolve(path.dirname(file), spec);
  return {
    static: [...text.matchAll(/^(?:import|} from|export \* from) "(\.{1,2}\/[^"]+)"/gm)].map((m) =>
      resolve(m[1] ?? ''),
    ),
    dynamic: [...text.matchAll(/\bimport\("(\.{1,2}\/[^"]+)"\)/g)].map((m) => resolve(m[1] ?? '')),
  };
}

/** Every file loading `entry` loads: it and its static imports, transitively. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const next of importsOf(file).static) visit(next);
  };
  visit(entry);
  return seen;
}

/**
 * The packages whose code sits in these files, by esbuild's `// <path>/node_modules/<pkg>/...`
 * markers (the innermost node_modules: a package's own copy of another counts as that other).
 */
function packagesIn(files: Iterable<string>): Set<string> {
  const packages = new Set<string>();
  for (const file of files) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/^\/\/ (?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm))
      packages.add(m[1] ?? '');
  }
  return packages;
}

let dist: string;
beforeAll(() => {
  dist = bundle();
}, 60_000);
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the bundle a /plan run loads', () => {
  it('holds no undici, proxy tunnel or HTTP client; those load only for a proxy', () => {
    const index = path.join(dist, 'index.js');
    const [main] = importsOf(index).dynamic;
    if (main === undefined) throw new Error('index.js imports no main chunk');
    const loaded = new Set([...staticClosure(index), ...staticClosure(main)]);
    const packages = packagesIn(loaded);
    // The run's own dependencies are there, so the markers are read right.
    expect(packages).toContain('zod');
    expect(packages).toContain('@octokit/plugin-throttling');
    for (const lazy of ['undici', 'tunnel', '@actions/http-client', '@actions/github'])
      expect(packages).not.toContain(lazy);

    // They are still in the bundle, behind an import() that only a configured proxy reaches.
    const later = [...loaded].flatMap((file) => importsOf(file).dynamic).flatMap((chunk) => [...staticClosure(chunk)]);
    expect(packagesIn(later)).toContain('undici');
    expect(packagesIn(later)).toContain('@actions/github');
  });

  it('loads the credential rules only when a commit is checked', () => {
    const index = path.join(dist, 'index.js');
    const [main] = importsOf(index).dynamic;
    if (main === undefined) throw new Error('index.js imports no main chunk');
    const loaded = new Set([...staticClosure(index), ...staticClosure(main)]);
    for (const lazy of ['@secretlint/core', '@secretlint/secretlint-rule-preset-recommend'])
      expect(packagesIn(loaded)).not.toContain(lazy);
    const later = [...loaded].flatMap((file) => importsOf(file).dynamic).flatMap((chunk) => [...staticClosure(chunk)]);
    expect(packagesIn(later)).toContain('@secretlint/core');
    expect(packagesIn(later)).toContain('@secretlint/secretlint-rule-preset-recommend');
  });

  it('comes out the same, byte for byte, when built again', () => {
    const again = bundle();
    const listing = (dir: string) => fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
    expect(listing(again)).toEqual(listing(dist));
    for (const file of listing(dist)) {
      const a = path.join(dist, file);
      if (fs.statSync(a).isFile())
        expect(fs.readFileSync(path.join(again, file)).equals(fs.readFileSync(a)), file).toBe(true);
    }
  }, 60_000);
});

describe('the plangate command', () => {
  it('answers help and a wrong command line without loading its engine', () => {
    const cli = path.join(dist, 'cli.js');
    const loaded = staticClosure(cli);
    const packages = packagesIn(loaded);
    for (const engine of ['zod', 'openai', 'yaml', '@octokit/core']) expect(packages).not.toContain(engine);
    // The engine is in the bundle, behind the import() that running a command reaches.
    const later = [...loaded].flatMap((file) => importsOf(file).dynamic).flatMap((chunk) => [...staticClosure(chunk)]);
    expect(packagesIn(later)).toContain('openai');

    // The same answers from a copy of dist/ that holds only what cli.js loads first.
    const alone = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-cli-only-')));
    dirs.push(alone);
    fs.cpSync(dist, alone, { recursive: true });
    for (const chunk of fs.readdirSync(path.join(dist, 'chunks'))) {
      if (!loaded.has(path.join(dist, 'chunks', chunk))) fs.rmSync(path.join(alone, 'chunks', chunk));
    }
    const run = (folder: string, args: string[]) =>
      spawnSync(process.execPath, [path.join(folder, 'cli.js'), ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
      });
    for (const [args, code] of [
      [['--help'], 0],
      [['plan', '--help'], 0],
      [['plan', '--frobnicate', 'x'], 2],
      [['run', '--api-key=sk-never-on-the-command-line'], 2],
    ] as const) {
      const full = run(dist, [...args]);
      const early = run(alone, [...args]);
      expect(full.status, full.stderr).toBe(code);
      expect({ status: early.status, stdout: early.stdout, stderr: early.stderr }).toEqual({
        status: full.status,
        stdout: full.stdout,
        stderr: full.stderr,
      });
    }
    // A command that runs needs the engine: without it, the import fails.
    expect(run(alone, ['plan', 'Add a farewell function']).stderr).toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
  });
});

/** What a failed step leaves behind: its exit code, log, `outcome` output and job summary. */
interface StepResult {
  code: number | null;
  stdout: string;
  outcome: string | undefined;
  summary: string;
}

/** The `outcome` output, from either of the runner's formats (`name=value`, or @actions/core's heredoc). */
function outcomeOf(text: string): string | undefined {
  return /^outcome=(.*)$/m.exec(text)?.[1] ?? /^outcome<<(\S+)\n([\s\S]*?)\n\1$/m.exec(text)?.[2];
}

/** Runs `args` with node as the runner would, in an environment of `env` plus fresh output and summary files. */
function runStep(args: string[], env: NodeJS.ProcessEnv): StepResult {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-step-')));
  dirs.push(dir);
  const output = path.join(dir, 'output');
  const summary = path.join(dir, 'summary.md');
  fs.writeFileSync(output, '');
  fs.writeFileSync(summary, '');
  const result = spawnSync(process.execPath, args, {
    cwd: dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, ...env },
  });
  return {
    code: result.status,
    stdout: result.stdout,
    outcome: outcomeOf(fs.readFileSync(output, 'utf8')),
    summary: fs.readFileSync(summary, 'utf8'),
  };
}

describe('a job that cannot run', () => {
  const eventDir = () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-event-')));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'comment.json'), JSON.stringify({ action: 'created' }));
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"action": "created",\n');
    return dir;
  };
  const runner = (dir: string): NodeJS.ProcessEnv => ({
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: 'issue_comment',
    GITHUB_EVENT_PATH: path.join(dir, 'comment.json'),
    GITHUB_REPOSITORY: 'octo-org/sample',
    GITHUB_WORKSPACE: dir,
    'INPUT_API-KEY': 'canary-bundle-input',
  });

  it.for([
    ['no GITHUB_EVENT_PATH', (env: NodeJS.ProcessEnv) => ({ ...env, GITHUB_EVENT_PATH: undefined })],
    [
      'no GITHUB_REPOSITORY, a bad API URL',
      (env: NodeJS.ProcessEnv) => ({ ...env, GITHUB_REPOSITORY: undefined, GITHUB_API_URL: 'x' }),
    ],
    [
      'an event file that is no JSON',
      (env: NodeJS.ProcessEnv) => ({
        ...env,
        GITHUB_EVENT_PATH: path.join(path.dirname(env.GITHUB_EVENT_PATH ?? ''), 'broken.json'),
      }),
    ],
  ] as const)('fails before main.ts loads, as main.ts fails it: %s', ([, breakIt]) => {
    const env = breakIt(runner(eventDir()));
    const index = path.join(dist, 'index.js');
    const [main] = importsOf(index).dynamic;
    if (main === undefined) throw new Error('index.js imports no main chunk');

    // main.ts's own failure, reached the way index.js used to reach it.
    const script = `const { run } = await import(${JSON.stringify(pathToFileURL(main).href)}); await run();`;
    const viaMain = runStep(['--input-type=module', '-e', script], env);
    expect(viaMain.code).toBe(1);
    expect(viaMain.stdout).toMatch(/^::error::(The runner environment is incomplete|Cannot read the event payload)/m);

    // The entry alone, in a copy of dist/ that has no main chunk: loading it would fail the import.
    const alone = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'plangate-entry-only-')));
    dirs.push(alone);
    fs.cpSync(dist, alone, { recursive: true });
    fs.rmSync(path.join(alone, path.relative(dist, main)));
    const early = runStep([path.join(alone, 'index.js')], env);
    expect(early).toEqual(viaMain);
  });
});
