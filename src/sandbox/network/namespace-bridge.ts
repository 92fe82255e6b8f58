import type { MountStep } from './namespace-mounts.js';

/**
 * The program that runs first inside a command's own network and mount namespaces
 * (sandbox/network/namespace-seal.ts), as root of their user namespace, where only loopback exists: it brings
 * loopback up, makes the command's view of the file system (the steps of sandbox/network/namespace-mounts.ts,
 * each a call of util-linux's mount), listens on 127.0.0.1:<port> and forwards each connection to the
 * host's egress proxy through its unix socket (a file, which the view keeps), then starts the command
 * in a user namespace nested in its own (unshare again), and ends with its exit code or signal. The
 * command's proxy variables name 127.0.0.1:<port>; nothing else in the namespace leads out.
 *
 * The nested user namespace is what makes the view hold: the command is root there, which is the
 * user outside and nobody more, with no capability over the mounts the bridge made, so it cannot
 * unmount them (nor, in a mount namespace of its own, the copies, which the kernel locks together).
 * The working folder is entered again once the view is made, so no path leads from it into what the
 * mounts cover.
 *
 * Started as `node -e <bridgeProgram> <spec> <file> <args...>`, `<spec>` being {@link BridgeSpec} as
 * JSON: plain CommonJS that needs nothing but node, so that the bundled CLI carries it as text and
 * writes no file for it. It fails with exit code 125 and a line naming the cause before the command
 * starts, or 127 and {@link bridgeMissingWords} when the command's program is not there.
 */

/** What the bridge is given: the proxy's socket, its port inside, the programs it runs (by absolute path) and the mount steps. */
export interface BridgeSpec {
  socket: string;
  port: number;
  ip: string;
  mount: string;
  unshare: string;
  steps: MountStep[];
}

/** The bridge's words for a program it cannot start, as sandbox/account/account-switch.ts recognises them. */
export const bridgeMissingWords = 'plangate network bridge: failed to execute';

/** The unshare options of the command's nested user namespace: its root is the bridge's root, which is the user. */
export const nestedUnshareArgs = ['--user', '--map-root-user', '--'];

export const bridgeProgram = `'use strict';
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const [specText, file, ...args] = process.argv.slice(1);
const spec = JSON.parse(specText);
const fail = (message) => {
  process.stderr.write('plangate network bridge: ' + message + '\\n');
  process.exit(125);
};
const said = (r) => String(r.stderr || (r.error && r.error.message) || 'exit code ' + r.status).trim();
// Helpers get no variable of the command's (a server's LIBMOUNT_* say): they are started by absolute path.
const quiet = { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: {} };
const up = spawnSync(spec.ip, ['link', 'set', 'lo', 'up'], quiet);
if (up.status !== 0) fail('cannot bring up loopback: ' + said(up));
const cwd = process.cwd();
const mount = (words, what) => {
  const r = spawnSync(spec.mount, ['-n', '-i', ...words], quiet);
  if (r.status !== 0) fail('cannot hide your services from the command (' + what + '): ' + said(r));
};
const exists = (at) => { try { fs.lstatSync(at); return true; } catch { return false; } };
for (const step of spec.steps) {
  try {
    if (step.op === 'tmpfs') mount(['-t', 'tmpfs', '-o', 'mode=' + step.mode + ',nosuid,nodev', 'plangate', step.at], 'a tmpfs at ' + step.at);
    else if (step.op === 'dir') fs.mkdirSync(step.at, { recursive: true });
    else if (step.op === 'move') mount(['--move', step.from, step.at], step.at + ' replaced');
    else if (step.op === 'cover') {
      // Followed, as mount follows it: a link into a folder the view replaced leads nowhere, which is hidden enough.
      let found;
      try { found = fs.statSync(step.at); } catch { found = undefined; }
      if (found && !found.isDirectory()) mount(['--bind', '/dev/null', step.at], step.at + ' covered');
    }
    else if (step.op === 'bind') {
      // Made so that another process of the run making the same one at once is no failure.
      if (fs.statSync(step.from).isDirectory()) fs.mkdirSync(step.at, { recursive: true });
      else {
        fs.mkdirSync(path.dirname(step.at), { recursive: true });
        fs.closeSync(fs.openSync(step.at, 'a'));
      }
      mount(['--bind', step.from, step.at], step.from + ' kept');
    } else fail('unknown step ' + JSON.stringify(step));
  } catch (error) {
    fail('cannot hide your services from the command (' + step.op + ' ' + step.at + '): ' + error.message);
  }
}
try {
  process.chdir(cwd);
} catch (error) {
  fail('the working folder ' + cwd + ' is not in the command\\'s view: ' + error.message);
}
try {
  fs.writeFileSync('/proc/sys/net/ipv4/ip_unprivileged_port_start', '0');
} catch {
  // Ports below 1024 stay the namespace root's: the command's own servers then use higher ones.
}
const program = (() => {
  if (file.includes('/')) return exists(file) ? file : undefined;
  for (const dir of String(process.env.PATH || '').split(':')) {
    if (!dir.startsWith('/')) continue;
    const candidate = path.join(dir, file);
    try {
      if (fs.statSync(candidate).isFile()) {
        fs.accessSync(candidate, fs.constants.X_OK);
        return candidate;
      }
    } catch {
      // Not here: the next entry, as the shell would.
    }
  }
  return undefined;
})();
if (program === undefined) {
  process.stderr.write('${bridgeMissingWords} ' + file + ': No such file or directory\\n');
  process.exit(127);
}
const server = net.createServer({ allowHalfOpen: true }, (client) => {
  const upstream = net.connect({ path: spec.socket, allowHalfOpen: true });
  for (const [a, b] of [[client, upstream], [upstream, client]]) {
    a.on('error', () => b.destroy());
    a.on('close', () => b.destroy());
    a.pipe(b);
  }
});
server.on('error', (error) => fail('cannot listen on 127.0.0.1:' + spec.port + ': ' + error.message));
server.listen(spec.port, '127.0.0.1', () => {
  const child = spawn(spec.unshare, [...${JSON.stringify(nestedUnshareArgs)}, program, ...args], { stdio: 'inherit' });
  child.on('error', (error) => fail('cannot start ' + spec.unshare + ': ' + error.message));
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code === null ? 1 : code);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
});
`;
