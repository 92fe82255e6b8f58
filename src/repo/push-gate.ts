import { inScope, type ApprovedScope } from '../scope/approved-scope.js';
import { hasDotGitComponent } from '../text/dot-git.js';
import { matchProtected } from '../text/protected-paths.js';
import { subcommand, type Git } from './git.js';

/**
 * The one gate before origin. The commit gate (change-gate.ts) holds each commit's staged changes;
 * this holds what actually leaves: before any push (a cycle's commit, a step's ref, a merge, an
 * amendment's resume, a rescue branch), every commit it would send that origin does not have is
 * read against the run's approved scope and amendments, `protected-paths` and `.git` in any
 * spelling. It sits in the host's git runner (git.ts calls it for every `push`), so a new way of
 * pushing cannot go around it. A commit that changes a path the rules do not allow stops the push
 * whole: nothing of it reaches origin.
 */

/** What every later push is held to, bound once the run's approval is known. */
export interface PushRules {
  /** Commits origin had before the run (the plan's base): nothing reachable from them is read. */
  known: readonly string[];
  protectedPaths: readonly string[];
  /** The approved scope widened by approved amendments; undefined under `scope: report`, which holds only the rest. */
  scope: Pick<ApprovedScope, 'paths'> | undefined;
}

/** One path a pushed commit changes that it may not. */
export interface PushViolation {
  commit: string;
  path: string;
  reason: string;
}

export interface PushGate {
  /** Binds the rules of the run; until then only commits that change no path (the lock's, a start commit) go out. */
  bind(rules: PushRules): void;
  /** Resolves when everything `args` (a `git push` command line) would send is allowed; throws {@link PushRefusedError} otherwise. */
  check(git: Git, args: readonly string[]): Promise<void>;
}

/** A push stopped by the gate: what it would have sent that the approval does not allow. */
export class PushRefusedError extends Error {
  override name = 'PushRefusedError';
  constructor(readonly violations: readonly PushViolation[]) {
    const shown = violations
      .slice(0, 5)
      .map((v) => `${v.path} (${v.reason}, in ${v.commit.slice(0, 7)})`)
      .join('; ');
    const more = violations.length > 5 ? `; and ${violations.length - 5} more` : '';
    super(`plangate refused to push: the commits change what the approval does not allow: ${shown}${more}.`);
  }

  /** What a maintainer can do about it. */
  get fix(): string {
    return 'Nothing was pushed. Look at the run log for the step that made these changes; a plan that names these paths (`/plan` again, or an amendment) lets a run change them.';
  }
}

export function createPushGate(): PushGate {
  let rules: PushRules | undefined;
  return {
    bind(bound) {
      rules = bound;
    },
    async check(git, args) {
      const violations: PushViolation[] = [];
      for (const source of pushedSources(args)) {
        for (const { commit, paths } of await changesSent(git, source, rules?.known ?? [])) {
          for (const path of paths) {
            const reason = refusal(path, rules);
            if (reason !== undefined) violations.push({ commit, path, reason });
          }
        }
      }
      if (violations.length > 0) throw new PushRefusedError(violations);
    },
  };
}

/** Why `path` may not reach origin under `rules`, or undefined when it may. */
function refusal(path: string, rules: PushRules | undefined): string | undefined {
  if (hasDotGitComponent(path)) return 'a .git path';
  if (rules === undefined) return 'no approval is bound to this push';
  const pattern = matchProtected(path, rules.protectedPaths);
  if (pattern !== undefined) return `protected by ${pattern}`;
  if (rules.scope !== undefined && !inScope(path, rules.scope)) return 'outside the approved scope';
  return undefined;
}

/**
 * The sources of a `git push` command line's refspecs (`src:dst`, `+src:dst`): what it would send.
 * A deletion (`:dst`) sends nothing. Options come before the remote; everything after it is a refspec.
 */
export function pushedSources(args: readonly string[]): string[] {
  if (subcommand(args) !== 'push') return [];
  const rest = args.slice(args.indexOf('push') + 1).filter((a) => !a.startsWith('-'));
  return rest
    .slice(1)
    .map((refspec) => refspec.replace(/^\+/, ''))
    .map((refspec) => (refspec.includes(':') ? refspec.slice(0, refspec.indexOf(':')) : refspec))
    .filter((source) => source !== '');
}

/**
 * Each commit `source` would send that origin does not have, with the paths it changes against its
 * first parent (everything, for a root commit): a merge is read as what it brings onto the branch,
 * and the commits it brings are read on their own. What origin has: `known`, and its branches as
 * last fetched or pushed (the remote-tracking refs, which only the host's git writes).
 */
async function changesSent(
  git: Git,
  source: string,
  known: readonly string[],
): Promise<Array<{ commit: string; paths: string[] }>> {
  const tip = await git(['rev-parse', '--verify', '--end-of-options', `${source}^{commit}`]);
  const listing = await git(['rev-list', '--parents', tip, '--not', ...known, '--remotes=origin']);
  const out: Array<{ commit: string; paths: string[] }> = [];
  for (const line of listing.split('\n').filter((l) => l !== '')) {
    const [commit = '', parent] = line.split(' ');
    const diff = await git([
      'diff-tree',
      '-r',
      '-z',
      '--no-renames',
      '--no-ext-diff',
      '--no-textconv',
      '--ignore-submodules=none',
      '--name-status',
      ...(parent === undefined ? ['--root', commit] : [parent, commit]),
    ]);
    out.push({ commit, paths: namesOf(diff) });
  }
  return out;
}

/** The paths of `--name-status -z` output: status, NUL, path, NUL, … (no renames, so one path each). */
function namesOf(output: string): string[] {
  const tokens = output.split('\0');
  const paths: string[] = [];
  // With --root, diff-tree first prints the commit it reads; statuses are single letters.
  let i = /^[0-9a-f]{40,64}$/.test(tokens[0] ?? '') ? 1 : 0;
  for (; i + 1 < tokens.length; i += 2) paths.push(tokens[i + 1] as string);
  return paths.filter((p) => p !== '');
}
