import { closeSync, readdirSync, readFileSync } from 'node:fs';

/**
 * File descriptors the action inherited and would hand on. Whatever started the action (a runner,
 * a wrapper script, a service manager) may leave a descriptor open without close-on-exec, on a file
 * only root may open, say: every process the action starts would inherit it, and one running as the
 * sandbox account could read it through the descriptor, whatever the file's permissions. sudo closes
 * such descriptors for what it starts, but setpriv (the switch when the action is root) does not, nor
 * does Node for a command run as the action's own user (`command-isolation: none`). Node marks close-on-exec only
 * the ones it finds at fds 0 to 15 and right after, so one further up stays inheritable.
 *
 * So they are closed once, first thing, before the action starts anything: no child of the action,
 * command, MCP server, git or helper, can inherit one. Node's own descriptors are opened close-on-exec
 * and are left alone, and so is the IPC channel of a Node parent (NODE_CHANNEL_FD).
 */

/** O_CLOEXEC as the `flags` line of /proc/<pid>/fdinfo shows it (octal, Linux). */
const closeOnExec = 0o2000000;

/**
 * Closes every descriptor above 2 that is not close-on-exec and returns their numbers. Where /proc
 * cannot tell (not Linux), it closes nothing: it cannot tell Node's own descriptors from inherited ones.
 */
export function closeInheritedDescriptors(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/fd');
  } catch {
    return [];
  }
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  const closed: number[] = [];
  for (const entry of entries) {
    const fd = Number(entry);
    if (!Number.isInteger(fd) || fd <= 2 || fd === channel) continue;
    const flags = descriptorFlags(fd);
    // Undefined: gone since the listing (the listing's own descriptor, for one).
    if (flags === undefined || (flags & closeOnExec) !== 0) continue;
    try {
      closeSync(fd);
      closed.push(fd);
    } catch {
      // Closed meanwhile.
    }
  }
  return closed;
}

/** The open flags of descriptor `fd` of this process, or undefined when it is not open. */
function descriptorFlags(fd: number): number | undefined {
  try {
    const match = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'));
    return match?.[1] === undefined ? undefined : parseInt(match[1], 8);
  } catch {
    return undefined;
  }
}
