/**
 * Names git treats as its own directory. A file under any of them, once committed, is written into
 * `.git` of whoever checks the branch out on a file system that folds the name (hooks, config), so
 * both the file tools and the commit gate refuse every spelling, not only the literal `.git`.
 */

/**
 * Code points HFS+ ignores when it compares names, as git lists them (`is_hfs_dotgit`): zero-width
 * joiners, direction marks and the byte order mark. `.g\u200cit` is `.git` on a Mac.
 */
export const hfsIgnorable = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/**
 * Whether one path component names git's directory in some spelling: `.git` in any case, with the
 * trailing dots and spaces NTFS drops (`.git.`, `.GIT `), an NTFS stream suffix (`.git::$INDEX_ALLOCATION`),
 * the NTFS short name `git~1`, or with HFS+ ignorable code points inside. Errs on the side of
 * refusing: a spelling that is `.git` on any file system counts everywhere.
 */
export function isDotGitComponent(name: string): boolean {
  let visible = name.replace(hfsIgnorable, '').toLowerCase();
  const stream = visible.indexOf(':');
  if (stream >= 0) visible = visible.slice(0, stream);
  const bare = visible.replace(/[. ]+$/, '');
  return bare === '.git' || bare === 'git~1';
}

/**
 * Whether a repository-relative path has such a component anywhere. Backslashes split too, because
 * Windows reads `a\.git\config` as a path into `.git`.
 */
export function hasDotGitComponent(relPath: string): boolean {
  return relPath.split(/[/\\]/).some(isDotGitComponent);
}
