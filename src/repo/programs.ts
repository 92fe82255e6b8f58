import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The programs the host starts (git, cp, rm, sudo, setpriv, env, chown, getent, useradd, find...),
 * each found once, on the absolute entries of the PATH the action started with, and started by
 * that absolute path.
 *
 * An empty PATH entry (`PATH=:/usr/bin`, or a trailing colon) and a relative one (`.`, `bin`, which
 * a workflow can add through `$GITHUB_PATH`) name a folder relative to the working directory, and
 * the host starts programs in the work tree, where a command, or a committed file named `git`, can
 * put a program of that name: started by bare name, it would run as the action, whose environment
 * holds the token and the API keys. So such entries are never searched, and the PATH handed to
 * every child (the host's git, the helpers, commands, MCP servers) drops them too.
 */

/** PATH when none is set, as the C library's own default. */
const defaultPath = '/usr/bin:/bin';

/**
 * `pathList` without the entries that depend on the working directory (empty and relative ones).
 * Never empty: an empty PATH means the working directory to the C library, so with no absolute
 * entry left it is the C library's default.
 */
export function absolutePath(pathList: string | undefined): string {
  const kept = (pathList ?? defaultPath).split(path.delimiter).filter((entry) => path.isAbsolute(entry));
  return kept.length > 0 ? [...new Set(kept)].join(path.delimiter) : defaultPath;
}

/** A program that cannot be found where plangate looks; `code` is ENOENT, as a failed spawn's. */
export class ProgramNotFoundError extends Error {
  override name = 'ProgramNotFoundError';
  readonly code = 'ENOENT';

  constructor(
    readonly program: string,
    searched: string,
  ) {
    super(
      `Cannot find the program ${program} in the absolute entries of PATH (${searched}). plangate starts programs only from absolute PATH entries, never from the working directory or a relative entry: install ${program} or add its folder to PATH as an absolute path.`,
    );
  }
}

/** The host's programs, found once on a PATH fixed when they were made. */
export interface Programs {
  /** The PATH programs are found on and children get: the absolute entries of the action's. */
  readonly path: string;
  /**
   * The absolute path of `name`, a bare program name (an absolute path is taken as it is). Looked
   * up once, then remembered. ProgramNotFoundError naming it and the PATH searched otherwise.
   */
  find(name: string): string;
}

/** The programs on `pathList`'s absolute entries (default: this process's PATH, read now). */
export function findPrograms(pathList: string | undefined = process.env.PATH): Programs {
  const searched = absolutePath(pathList);
  const found = new Map<string, string>();
  return {
    path: searched,
    find(name) {
      if (path.isAbsolute(name)) return name;
      const known = found.get(name);
      if (known !== undefined) return known;
      const file = lookUp(name, searched);
      if (file === undefined) throw new ProgramNotFoundError(name, searched);
      found.set(name, file);
      return file;
    },
  };
}

/**
 * The executable file `name` in the first entry of the absolute-only `pathList` that has one, or
 * undefined; a name with a slash is never searched for (it names a file relative to a folder).
 */
export function lookUp(name: string, pathList: string): string | undefined {
  if (name === '' || name.includes('/')) return undefined;
  for (const dir of absolutePath(pathList).split(path.delimiter)) {
    const candidate = path.join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here, or not executable: the next entry, as the shell would.
    }
  }
  return undefined;
}

let processPrograms: Programs | undefined;

/**
 * The programs on this process's PATH, for callers given none (the local CLI, tests); the action's
 * composition root makes its own at start and passes it in.
 */
export function defaultPrograms(): Programs {
  return (processPrograms ??= findPrograms(process.env.PATH));
}
