import { GitError, type Git } from '../repo/git.js';
import { ToolError } from './tool-error.js';

/**
 * search's engine: git grep over the repository's own files, its failures turned into messages a
 * model can act on (a bad pattern says how to escape), its `-z` output parsed into hits.
 */

/**
 * git grep with PCRE, falling back to extended regexps on a git built without PCRE. Exit 1 means
 * no match; exit 128 is a bad pattern (or a broken repository), reported in git's own words.
 */
export async function gitGrep(git: Git, pattern: string, pathspec: string[]): Promise<string> {
  const run = (flavor: '-P' | '-E') =>
    git(['grep', '--untracked', '-n', '-I', '-z', '--no-color', flavor, '-e', pattern, '--', ...pathspec]);
  try {
    return await run('-P');
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (error.exitCode === 1 && error.stderr.trim() === '') return '';
    if (!/USE_LIBPCRE|not compiled with|Perl-compatible/i.test(error.stderr)) throw grepFailure(error, pattern);
  }
  try {
    return await run('-E');
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    if (error.exitCode === 1 && error.stderr.trim() === '') return '';
    throw grepFailure(error, pattern);
  }
}

function grepFailure(error: GitError, pattern: string): Error {
  const detail = error.stderr.replace(/^fatal:\s*/gm, '').trim();
  if (error.exitCode === 128 && /-e option|regex|regular expression|parenthes|bracket|character class/i.test(detail)) {
    return new ToolError(
      `Invalid search pattern ${JSON.stringify(pattern)}: ${detail}. Patterns are regular expressions; escape literal characters such as ( ) [ ] { } . * + ? | with a backslash.`,
    );
  }
  return new ToolError(`search failed: ${detail || error.message}`);
}

/** One match of `-z` output: path NUL line NUL text. */
export function parseGrepLine(line: string): { file: string; line: string; text: string } | null {
  const first = line.indexOf('\0');
  if (first < 0) return null;
  const second = line.indexOf('\0', first + 1);
  if (second < 0) return null;
  return { file: line.slice(0, first), line: line.slice(first + 1, second), text: line.slice(second + 1) };
}
