import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * What a sealed command sees of the file system (sandbox/network/namespace-seal.ts). A network namespace
 * closes the network but shares the files, and the user's own services listen on Unix sockets in
 * them: tmux's server in /tmp/tmux-<uid> runs whatever it is sent, the systemd user manager and the
 * session bus in /run/user/<uid> start units, docker (/run/docker.sock, rootless under /run/user)
 * starts containers on any network, the system bus reaches systemd-resolved, which resolves any name
 * (a DNS query carries data out). Each of them runs outside the namespace, as the user, so any one
 * would undo the seal.
 *
 * So each command also gets a mount namespace in which the folders where such sockets live are
 * replaced: /tmp and /var/tmp by folders of the run's own (kept across its commands, removed with the
 * run), /run (and /var/run where it is not a link to it) and /dev/shm by empty tmpfs. What the command
 * needs from them comes back at the same path: the work tree, HOME, the PATH folders (a version
 * manager's under /run/user, say), the proxy's socket; its temp folder (TMPDIR) is made empty. Sockets
 * that live elsewhere (sandbox/network/namespace-sockets.ts) are covered by /dev/null.
 *
 * The steps are run by the bridge (sandbox/network/namespace-bridge.ts) as root of the namespace's user
 * namespace, before it starts the command in a user namespace nested in that one, which holds no
 * capability over these mounts: it cannot unmount them to see what is under them.
 */

/** One step the bridge takes, in order, before the command starts. */
export type MountStep =
  /** A new tmpfs at `at`, of this mode. */
  | { op: 'tmpfs'; at: string; mode: string }
  /** `from` (a folder or a file) also at `at`; the bridge makes `at` like `from` when it is missing. */
  | { op: 'bind'; from: string; at: string }
  /** An empty folder at `at`, with its parents. */
  | { op: 'dir'; at: string }
  /** The mount at `from` moved to `at`. */
  | { op: 'move'; from: string; at: string }
  /** /dev/null over the file `at`, where there is one. */
  | { op: 'cover'; at: string };

/** A folder a sealed command gets a replacement of. */
export interface HiddenFolder {
  /** Its real path: where the replacement is mounted. */
  at: string;
  /** The paths it is known by: its real path, its usual name and a link to it (/var/run for /run). */
  names: string[];
  /** A fresh tmpfs of this mode for every command, or the run folder's subfolder of this name for every command of the run. */
  replacement: { tmpfs: string } | { own: string };
}

/** The folders replaced where they exist, in this order; a link to one already listed adds a name to it. */
const candidates: { name: string; replacement: HiddenFolder['replacement'] }[] = [
  { name: '/tmp', replacement: { own: 'tmp' } },
  { name: '/var/tmp', replacement: { own: 'var-tmp' } },
  { name: '/run', replacement: { tmpfs: '0755' } },
  { name: '/var/run', replacement: { tmpfs: '0755' } },
  { name: '/dev/shm', replacement: { tmpfs: '1777' } },
];

/** Whether `inner` lies strictly inside `outer` (both absolute and normalized). */
function inside(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Whether `file` is `folder` or lies inside it. */
function within(file: string, folder: string): boolean {
  return file === folder || inside(file, folder);
}

/** The real path of `file`, or undefined where it does not exist. */
function real(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/**
 * The folders this machine has of those replaced, each once (by its real path) with every name it
 * goes by; one inside another is left to the outer one.
 */
export function hiddenFolders(): HiddenFolder[] {
  const found: HiddenFolder[] = [];
  for (const { name, replacement } of candidates) {
    const at = real(name);
    if (at === undefined || !statSync(at).isDirectory()) continue;
    const same = found.find((f) => f.at === at);
    if (same) {
      if (!same.names.includes(name)) same.names.push(name);
      continue;
    }
    found.push({ at, names: [...new Set([name, at])], replacement });
  }
  return found.filter((f) => !found.some((other) => other !== f && inside(f.at, other.at)));
}

/** The hidden folder `file` is one of, by any of its names; undefined when it is none. */
export function hiddenFolderAt(folders: readonly HiddenFolder[], file: string): string | undefined {
  const named = path.resolve(file);
  const realFile = real(named);
  return folders.find((f) => f.names.includes(named) || f.at === realFile)?.names[0];
}

/** The hidden folder `file` lies inside, by one of its names, with the path under it (`/x/y`). */
function placeIn(folders: readonly HiddenFolder[], file: string): { index: number; under: string } | undefined {
  for (const [index, folder] of folders.entries()) {
    const name = folder.names.find((n) => inside(file, n));
    if (name !== undefined) return { index, under: file.slice(name.length) };
  }
  return undefined;
}

/**
 * The folders right under a shared temp folder (/tmp, /var/tmp) that hold `files`: a toolchain or a
 * checkout kept there (`/tmp/ci/node_modules/.bin`) is a whole tree whose programs link to and load
 * each other (`.bin/node` is `../node/bin/node`), so the command keeps it whole, as it keeps a folder
 * of HOME. Services put their sockets in folders of their own there (`tmux-<uid>`, `.X11-unix`),
 * which no PATH entry names; a tmpfs replacement (/run, /dev/shm) keeps only the paths named.
 */
export function toolTrees(folders: readonly HiddenFolder[], files: readonly string[]): string[] {
  const trees = new Set<string>();
  for (const file of files.filter((f) => path.isAbsolute(f)).map((f) => path.resolve(f))) {
    for (const folder of folders.filter((f) => 'own' in f.replacement)) {
      const name = folder.names.find((n) => inside(file, n));
      const top = name === undefined ? undefined : path.relative(name, file).split(path.sep)[0];
      if (name !== undefined && top) trees.add(path.join(name, top));
    }
  }
  return [...trees];
}

/** What a command's view is made from. */
export interface MountPlan {
  folders: readonly HiddenFolder[];
  /**
   * The run's folder, private to the user: it holds `stage/<n>` (an empty folder for each of
   * `folders`, where its replacement is put together) and the `own` replacements.
   */
  runFolder: string;
  /** Folders and files the command must find where they are (the work tree first); missing ones are skipped. */
  kept: readonly string[];
  /** Folders the command finds empty where they are, when a replacement hides them: its temp folders. */
  fresh: readonly string[];
  /** Sockets to cover, wherever they are (sandbox/network/namespace-sockets.ts). */
  sockets: readonly string[];
}

/** The stage folder of `folders[index]` under `runFolder`. */
export function stageFolder(runFolder: string, index: number): string {
  return path.join(runFolder, 'stage', String(index));
}

/**
 * The steps that make the command's view: each replacement put together in its stage folder (the
 * kept paths bound into it, the fresh folders made), then moved over the folder it replaces (the one
 * holding the run folder last, since the stages live there), then the sockets outside covered.
 */
export function mountSteps(plan: MountPlan): MountStep[] {
  const { folders, runFolder } = plan;
  const kept: { file: string; index: number; under: string }[] = [];
  for (const file of [...new Set(plan.kept.filter((k) => path.isAbsolute(k)).map((k) => path.resolve(k)))].sort(
    (a, b) => a.length - b.length,
  )) {
    if (real(file) === undefined || kept.some((k) => within(file, k.file))) continue;
    const place = placeIn(folders, file);
    if (place) kept.push({ file, ...place });
  }
  const steps: MountStep[] = [];
  for (const [index, folder] of folders.entries()) {
    const stage = stageFolder(runFolder, index);
    const { replacement } = folder;
    steps.push(
      'tmpfs' in replacement
        ? { op: 'tmpfs', at: stage, mode: replacement.tmpfs }
        : { op: 'bind', from: path.join(runFolder, replacement.own), at: stage },
    );
    for (const k of kept.filter((k) => k.index === index))
      steps.push({ op: 'bind', from: k.file, at: stage + k.under });
    for (const file of new Set(plan.fresh.filter((f) => path.isAbsolute(f)).map((f) => path.resolve(f)))) {
      const place = placeIn(folders, file);
      if (place?.index === index && !kept.some((k) => within(file, k.file)))
        steps.push({ op: 'dir', at: stage + place.under });
    }
  }
  const holdsRunFolder = placeIn(folders, runFolder)?.index;
  const order = [...folders.keys()].sort((a, b) => Number(a === holdsRunFolder) - Number(b === holdsRunFolder));
  for (const index of order) steps.push({ op: 'move', from: stageFolder(runFolder, index), at: folders[index]!.at });
  for (const socket of plan.sockets) {
    const hidden = placeIn(folders, socket) !== undefined && !kept.some((k) => within(socket, k.file));
    if (!hidden) steps.push({ op: 'cover', at: socket });
  }
  return steps;
}
