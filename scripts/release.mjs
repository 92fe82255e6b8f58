// Cuts a release of plangate from the commit checked out in the current directory: checks that the
// commit is ready (nothing uncommitted, package.json says this version, CHANGELOG.md has a section
// for it, dist/ is what a fresh `npm run bundle` makes, as CI checks), then tags it vX.Y.Z and moves
// the major tag vX to it, and pushes both. Users point `uses:` at vX for the latest release of a
// major version, or at vX.Y.Z (or the commit SHA) to pin one. docs/releasing.md is the whole process.
// Usage:
//   node scripts/release.mjs X.Y.Z [--dry-run] [--remote NAME]
//     --dry-run      run every check, print the git commands that would tag and push, change nothing
//     --remote NAME  the remote to push to (default: origin)
// Exits 1, with one line saying what to fix, when a check fails; nothing is tagged then.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const cwd = process.cwd();

/** Fails with one readable line: what is wrong and what to do. */
function fail(message) {
  process.stderr.write(`release: ${message}\n`);
  process.exit(1);
}

const say = (line) => process.stdout.write(`${line}\n`);

/** Runs git here and answers its output, trimmed; a failure ends the release with git's own words. */
function git(...args) {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    const detail = error instanceof Error && 'stderr' in error ? String(error.stderr).trim() : String(error);
    return fail(`git ${args.join(' ')} failed: ${detail.split('\n')[0]}`);
  }
}

function parseArgs(argv) {
  const options = { version: undefined, dryRun: false, remote: 'origin' };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--dry-run') options.dryRun = true;
    else if (arg === '--remote') options.remote = argv[++i] ?? fail('--remote needs a name');
    else if (arg.startsWith('-')) fail(`unknown option ${arg}; use --dry-run or --remote NAME`);
    else if (options.version === undefined) options.version = arg.replace(/^v/, '');
    else fail(`one version only, got ${options.version} and ${arg}`);
  }
  if (options.version === undefined) fail('name the version: node scripts/release.mjs X.Y.Z [--dry-run]');
  if (!/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.test(options.version))
    fail(`${options.version} is not a version X.Y.Z (three whole numbers, no leading zeros)`);
  return options;
}

/** The commit is what it says it is: committed, with this version in package.json and CHANGELOG.md. */
function checkCommit(version) {
  const dirty = git('status', '--porcelain', '--untracked-files=all');
  if (dirty !== '') fail(`the work tree has uncommitted changes; commit or stash them first:\n${dirty}`);
  const pkg = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8'));
  if (pkg.version !== version)
    fail(`package.json says version ${pkg.version}, not ${version}: set it, commit, and release again`);
  const changelog = existsSync(path.join(cwd, 'CHANGELOG.md'))
    ? readFileSync(path.join(cwd, 'CHANGELOG.md'), 'utf8')
    : '';
  const heading = new RegExp(`^## \\[?${version.replace(/\./g, '\\.')}\\]?(\\s|$)`, 'm');
  if (!heading.test(changelog))
    fail(`CHANGELOG.md has no "## [${version}]" section: write what changed, commit, and release again`);
}

/**
 * dist/ is what action.yml runs, so it must be exactly what a fresh bundle of this commit makes: the
 * bundle is rebuilt and any changed, deleted or new file under dist/ stops the release (the check
 * .ci/run and the Check dist workflow make).
 */
function checkDist() {
  if (git('ls-files', '--', 'dist') === '') fail('dist/ is not committed: run npm run bundle and commit all of dist/');
  try {
    execFileSync('npm', ['run', 'bundle'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const detail = error instanceof Error && 'stderr' in error ? String(error.stderr).trim() : String(error);
    fail(`npm run bundle failed: ${detail.split('\n').at(-1)}`);
  }
  const changed = git('status', '--porcelain', '--untracked-files=all', '--', 'dist');
  if (changed !== '') {
    // Leave the work tree as the release found it: the committed dist/ back, new files gone.
    git('checkout', '--', 'dist');
    git('clean', '-fdq', '--', 'dist');
    fail(
      `the committed dist/ differs from a fresh npm run bundle; run it and commit all of dist/, deletions included:\n${changed}`,
    );
  }
}

/** The tags: vX.Y.Z must be new here and on the remote; vX may only move forward, to a descendant. */
function checkTags(version, remote) {
  const full = `v${version}`;
  const major = `v${version.split('.')[0]}`;
  if (git('tag', '--list', full) !== '') fail(`the tag ${full} already exists here; a release is never tagged twice`);
  // Every tag on the remote, "<object>\trefs/tags/<name>", with "^{}" lines for the commits annotated tags point at.
  const remoteTags = new Map(
    git('ls-remote', '--tags', remote)
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [object = '', ref = ''] = line.split('\t');
        return [ref.replace(/^refs\/tags\//, ''), object];
      }),
  );
  if (remoteTags.has(full)) fail(`the tag ${full} already exists on ${remote}; a release is never tagged twice`);
  const previous = remoteTags.get(`${major}^{}`) ?? remoteTags.get(major);
  if (previous) {
    // Into FETCH_HEAD only: a dry run changes no ref here.
    git('fetch', '--quiet', remote, `refs/tags/${major}`);
    try {
      execFileSync('git', ['merge-base', '--is-ancestor', previous, 'HEAD'], { cwd, stdio: 'ignore' });
    } catch {
      fail(
        `${major} on ${remote} is at ${previous.slice(0, 12)}, which this commit does not descend from; moving it back would change what users of ${major} run`,
      );
    }
  }
  return { full, major };
}

const { version, dryRun, remote } = parseArgs(process.argv.slice(2));
checkCommit(version);
checkDist();
const { full, major } = checkTags(version, remote);
const commit = git('rev-parse', 'HEAD');
const message = `plangate ${full}`;
const steps = [
  ['tag', '--annotate', full, '--message', message, commit],
  ['tag', '--force', '--annotate', major, '--message', message, commit],
  ['push', remote, `refs/tags/${full}`],
  ['push', '--force', remote, `refs/tags/${major}`],
];
say(
  `release: ${commit.slice(0, 12)} is ready as ${full}: committed, package.json and CHANGELOG.md agree, dist/ is fresh`,
);
for (const step of steps) {
  say(
    `${dryRun ? 'would run' : 'running'}: git ${step.map((part) => (/\s/.test(part) ? `'${part}'` : part)).join(' ')}`,
  );
  if (!dryRun) git(...step);
}
say(
  dryRun
    ? `release: dry run, nothing tagged or pushed; run again without --dry-run to release ${full}`
    : `release: ${full} and ${major} point at ${commit.slice(0, 12)} on ${remote}; now publish the release notes (docs/releasing.md)`,
);
