import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The user's services on Unix sockets that lie outside the folders a sealed command's mount
 * namespace replaces (sandbox/network/namespace-mounts.ts): a network namespace closes abstract sockets, but a
 * socket that is a file stays reachable, and such a service leads out as the user. Docker runs a
 * container on any network; an ssh ControlMaster runs commands on its host over the connection it
 * holds; gpg's dirmngr fetches keys from URLs and names it is given; an agent signs as the user.
 * Each one found here is covered with an empty file for the command (`/dev/null`, which refuses
 * connections).
 *
 * Found once per command, and only where they are known to live: the places below, the sockets the
 * user's environment names (SSH_AUTH_SOCK, DOCKER_HOST, a D-Bus address, TMUX...), and those in ~/.ssh
 * (ControlMaster's, whatever their ControlPath calls them). A socket elsewhere in the home folder, or
 * one made after the command started, stays reachable: docs/security.md says so.
 */

/** Sockets in the home folder that services make there: Docker Desktop, Colima, Rancher Desktop, Lima, gpg, agents. */
export const homeSockets = [
  '.docker/run/docker.sock',
  '.docker/desktop/docker.sock',
  '.colima/docker.sock',
  '.colima/default/docker.sock',
  '.rd/docker.sock',
  '.lima/default/sock/docker.sock',
  '.gnupg/S.gpg-agent',
  '.gnupg/S.gpg-agent.ssh',
  '.gnupg/S.gpg-agent.extra',
  '.gnupg/S.gpg-agent.browser',
  '.gnupg/S.dirmngr',
  '.gnupg/S.keyboxd',
  '.1password/agent.sock',
];

/**
 * Sockets of system services outside /run: LXD's and Incus's (whose group is root on the host), Nix's
 * and Guix's build daemons (which download whatever URL a build names, for any user), and the syslog
 * socket, which a syslog daemon may forward to another machine.
 */
export const systemSockets = [
  '/var/snap/lxd/common/lxd/unix.socket',
  '/var/lib/lxd/unix.socket',
  '/var/lib/incus/unix.socket',
  '/nix/var/nix/daemon-socket/socket',
  '/var/guix/daemon-socket/socket',
  '/dev/log',
];

/** Folders under the home folder searched for sockets by any name, to this depth: ssh's ControlMaster sockets. */
const searchedFolders = [{ folder: '.ssh', depth: 2 }];

/**
 * The absolute paths a variable's value names as sockets: the value itself, `unix://<path>`
 * (DOCKER_HOST), `unix:path=<path>` among a D-Bus address's `;`- and `,`-separated parts, the first
 * part of TMUX's `<socket>,<pid>,<session>`.
 */
export function namedPaths(value: string): string[] {
  return value
    .split(/[;,]/)
    .map((part) => part.replace(/^unix:\/\//, '').replace(/^unix:path=/, ''))
    .filter((part) => path.isAbsolute(part));
}

/** Whether `file` is a socket (a link to one included). */
function isSocket(file: string): boolean {
  try {
    return statSync(file).isSocket();
  } catch {
    return false;
  }
}

/** The sockets under `folder`, down to `depth` levels of folders. */
function socketsUnder(folder: string, depth: number): string[] {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const file = path.join(folder, entry.name);
    if (entry.isSocket()) return [file];
    return entry.isDirectory() && depth > 1 ? socketsUnder(file, depth - 1) : [];
  });
}

/**
 * The sockets found now that a command must not reach: in the known places under each of `homes`
 * (the user's, the command's HOME), the system's, and those the variables of `environments` name.
 * Sorted, without duplicates.
 */
export function serviceSockets(homes: readonly string[], environments: readonly NodeJS.ProcessEnv[]): string[] {
  const candidates = new Set<string>(systemSockets);
  for (const home of new Set(homes.filter((h) => path.isAbsolute(h)))) {
    for (const file of homeSockets) candidates.add(path.join(home, file));
    for (const { folder, depth } of searchedFolders) {
      for (const file of socketsUnder(path.join(home, folder), depth)) candidates.add(file);
    }
  }
  for (const env of environments) {
    for (const value of Object.values(env)) {
      if (value !== undefined) for (const file of namedPaths(value)) candidates.add(path.normalize(file));
    }
  }
  return [...candidates].filter(isSocket).sort();
}
