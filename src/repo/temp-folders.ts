/**
 * The names of the folders a run makes in the system's temp dir: its work-tree copy (work-tree.ts)
 * and its sandbox account's HOME and temp dir (tools/account-prepare.ts). Each carries the pid of
 * the action that made it, so that a later run can tell a folder a killed job left behind from one
 * a live job still uses (tools/account-leftovers.ts).
 */

/** `mkdtemp`'s prefix for a folder of this run: its kind, this action's pid, then mkdtemp's six characters. */
export function tempFolderPrefix(kind: 'work' | 'sandbox'): string {
  return `${kind === 'work' ? 'plangate-' : 'plangate-sandbox-'}${process.pid}-`;
}

const tempFolderName = /^plangate-(sandbox-)?([1-9]\d*)-[A-Za-z0-9]{6}$/;

/** The kind of the temp-dir folder `name` and the pid of the action that made it; undefined: not a run's folder. */
export function parseTempFolder(name: string): { kind: 'work' | 'sandbox'; pid: number } | undefined {
  const match = tempFolderName.exec(name);
  return match ? { kind: match[1] ? 'sandbox' : 'work', pid: Number(match[2]) } : undefined;
}
