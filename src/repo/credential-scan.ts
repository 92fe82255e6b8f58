import type { Git } from './git.js';
import type { ChangeKind } from './tree-status.js';

/**
 * The commit gate's read of what would land: the staged content of every added or changed file
 * (whoever wrote it: a file tool or a command) is read for credentials with a maintained rule set
 * (credential-rules.ts), and a change that adds one is held back. Only lines the change adds count,
 * so a fixture the base already holds does not hold back an edit next to it; a rename counts only
 * what it changes. Binary files are read as text (a credential is text wherever it sits), and a
 * file too large to read is held back rather than let through unread. What a finding says is the
 * rule and the line, never what it matched.
 */

/** The largest file (either version of it) the gate reads; a larger one is held back unread. */
export const maxScannedBytes = 8 * 1024 * 1024;

/** A change held back for what it holds, with why: the rules that fired and their lines. */
export interface CredentialHold {
  path: string;
  change: ChangeKind;
  reason: string;
}

/** Regular files, executables and symlinks (whose content is their target): what git stores as blobs. */
const blobModes = new Set(['100644', '100755', '120000']);
/** Findings named in one reason; the rest are counted. */
const maxNamedFindings = 3;

interface StagedBlob {
  path: string;
  /** The path git found it renamed from: its old content is the base the change is read against. */
  from?: string;
  srcMode: string;
  srcSha: string;
  dstSha: string;
  change: ChangeKind;
}

type Verdict =
  | { kind: 'clean' }
  | { kind: 'found'; findings: { rule: string; line: number }[] }
  | { kind: 'too-large' }
  | { kind: 'unreadable' };

/**
 * Verdicts by path and blobs, for the life of the process: the gate runs after every command, and
 * a file read once is not read again until it changes.
 */
const remembered = new Map<string, Verdict>();
const maxRemembered = 20_000;

/**
 * The staged changes (the index against HEAD) that must not land for what they add: a credential,
 * or content too large to read. A held rename holds its source's deletion back too, so the commit
 * keeps the file where it was. Runs git at the top of the work tree, as the gate does.
 */
export async function credentialHolds(git: Git, head: boolean): Promise<CredentialHold[]> {
  const blobs = await stagedBlobs(git, head);
  const holds: CredentialHold[] = [];
  let rules: typeof import('./credential-rules.js') | undefined;
  for (const blob of blobs) {
    const key = [blob.from ?? '', blob.srcSha, blob.path, blob.dstSha].join('\0');
    let verdict = remembered.get(key);
    if (verdict === undefined) {
      rules ??= await import('./credential-rules.js');
      verdict = await read(git, head, blob, rules.findCredentials);
      if (verdict.kind !== 'unreadable') {
        if (remembered.size >= maxRemembered) remembered.clear();
        remembered.set(key, verdict);
      }
    }
    const reason = reasonFor(verdict);
    if (reason === undefined) continue;
    holds.push({ path: blob.path, change: blob.change, reason });
    if (blob.from !== undefined)
      holds.push({ path: blob.from, change: 'deleted', reason: `renamed to ${blob.path}, which is held back` });
  }
  return holds;
}

/** Every staged blob that differs in content from HEAD's, renames found (`-M`), deletions left out. */
async function stagedBlobs(git: Git, head: boolean): Promise<StagedBlob[]> {
  const out = await git([
    'diff',
    '--cached',
    '--raw',
    '--no-abbrev',
    '-z',
    '-M',
    '--no-ext-diff',
    '--no-textconv',
    '--ignore-submodules=none',
    ...(head ? ['HEAD'] : []),
    '--',
  ]);
  const tokens = out.split('\0');
  const blobs: StagedBlob[] = [];
  for (let i = 0; i < tokens.length;) {
    // :srcMode dstMode srcSha dstSha STATUS NUL path (NUL dstPath for a rename or copy)
    const [srcMode = '', dstMode = '', srcSha = '', dstSha = '', status = ''] = (tokens[i] ?? '')
      .replace(/^:/, '')
      .split(' ');
    const twoPaths = status.startsWith('R') || status.startsWith('C');
    const first = tokens[i + 1] ?? '';
    const path = twoPaths ? (tokens[i + 2] ?? '') : first;
    i += twoPaths ? 3 : 2;
    if (path === '' || !blobModes.has(dstMode) || status.startsWith('D') || srcSha === dstSha) continue;
    blobs.push({
      path,
      ...(status.startsWith('R') ? { from: first } : {}),
      srcMode,
      srcSha,
      dstSha,
      change: changeOf(status),
    });
  }
  return blobs;
}

function changeOf(status: string): ChangeKind {
  if (status.startsWith('A') || status.startsWith('R') || status.startsWith('C')) return 'added';
  if (status.startsWith('T')) return 'type';
  return 'modified';
}

/**
 * Reads one staged blob against its base (HEAD's version, or the rename's source): the new
 * content whole, so a rule sees a key block in one piece, and which of its lines the change adds.
 */
async function read(
  git: Git,
  head: boolean,
  blob: StagedBlob,
  findCredentials: (path: string, content: string) => Promise<{ rule: string; start: number; end: number }[]>,
): Promise<Verdict> {
  try {
    const shas = [blob.dstSha, ...(blobModes.has(blob.srcMode) ? [blob.srcSha] : [])];
    for (const sha of shas) {
      if (Number(await git(['cat-file', '-s', sha])) > maxScannedBytes) return { kind: 'too-large' };
    }
    // One hunk holding the whole new side: more context lines than the largest file read has lines.
    // `--text`: a file the work tree's .gitattributes calls binary is read all the same.
    const patch = await git([
      '--literal-pathspecs',
      'diff',
      '--cached',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--text',
      `--unified=${maxScannedBytes + 1}`,
      blob.from === undefined ? '--no-renames' : '-M',
      ...(head ? ['HEAD'] : []),
      '--',
      ...(blob.from === undefined ? [] : [blob.from]),
      blob.path,
    ]);
    const { content, added } = newSide(patch);
    const lines = lineStarts(content);
    const findings: { rule: string; line: number }[] = [];
    for (const match of await findCredentials(blob.path, content)) {
      const first = lineAt(lines, match.start);
      const last = lineAt(lines, Math.max(match.start, match.end - 1));
      for (let line = first; line <= last; line += 1) {
        if (added.has(line)) {
          findings.push({ rule: match.rule, line: first });
          break;
        }
      }
    }
    return findings.length > 0 ? { kind: 'found', findings } : { kind: 'clean' };
  } catch {
    // Whatever failed (git, a rule), the content is unknown; its message is not repeated anywhere.
    return { kind: 'unreadable' };
  }
}

/**
 * The new side of a patch with full context: context and added lines in order, and the 1-based
 * numbers of the added ones. A type change is two patches (the old entry removed, the new added);
 * only lines of the new side are kept from either.
 */
export function newSide(patch: string): { content: string; added: Set<number> } {
  const lines: string[] = [];
  const added = new Set<number>();
  let inHunk = false;
  for (const line of patch.split('\n')) {
    if (inHunk) {
      const mark = line[0];
      if (mark === ' ' || mark === '+') {
        lines.push(line.slice(1));
        if (mark === '+') added.add(lines.length);
        continue;
      }
      if (mark === '-' || mark === '\\') continue;
      inHunk = false;
    }
    if (line.startsWith('@@')) inHunk = true;
  }
  return { content: lines.join('\n'), added };
}

/** Offsets at which each line of `text` starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line holding `offset`. */
function lineAt(starts: readonly number[], offset: number): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

/** Why a verdict holds its change back (rules and lines only), or undefined when it does not. */
function reasonFor(verdict: Verdict): string | undefined {
  switch (verdict.kind) {
    case 'clean':
      return undefined;
    case 'too-large':
      return `too large to check for credentials (over ${maxScannedBytes / 1024 / 1024} MiB)`;
    case 'unreadable':
      return 'could not be checked for credentials';
    case 'found': {
      const named = verdict.findings.slice(0, maxNamedFindings).map((f) => `${f.rule} on line ${f.line}`);
      const more = verdict.findings.length - named.length;
      return `holds a credential (${named.join(', ')}${more > 0 ? `, and ${more} more` : ''})`;
    }
  }
}
