/**
 * The program that runs first inside a command's own network namespace (tools/namespace-seal.ts),
 * where only loopback exists: it brings loopback up, listens on 127.0.0.1:<port> and forwards each
 * connection to the host's egress proxy through its unix socket (a file, which a namespace does not
 * hide), then starts the command and ends with its exit code or signal. The command's proxy
 * variables name 127.0.0.1:<port>; nothing else in the namespace leads out.
 *
 * Started as `node -e <bridgeProgram> <socket> <port> <ip> <file> <args...>`: plain CommonJS that
 * needs nothing but node, so that the bundled CLI carries it as text and writes no file for it.
 * It fails with exit code 125 and a line naming the cause before the command starts, or 127 and
 * {@link bridgeMissingWords} when the command's program is not there.
 */

/** The bridge's words for a program it cannot start, as tools/account-switch.ts recognises them. */
export const bridgeMissingWords = 'plangate network bridge: failed to execute';

export const bridgeProgram = `'use strict';
const net = require('node:net');
const { spawn, spawnSync } = require('node:child_process');
const [socketPath, port, ip, file, ...args] = process.argv.slice(1);
const fail = (message) => {
  process.stderr.write('plangate network bridge: ' + message + '\\n');
  process.exit(125);
};
const up = spawnSync(ip, ['link', 'set', 'lo', 'up'], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
if (up.status !== 0) fail('cannot bring up loopback: ' + String(up.stderr || (up.error && up.error.message) || 'exit code ' + up.status).trim());
const server = net.createServer({ allowHalfOpen: true }, (client) => {
  const upstream = net.connect({ path: socketPath, allowHalfOpen: true });
  for (const [a, b] of [[client, upstream], [upstream, client]]) {
    a.on('error', () => b.destroy());
    a.on('close', () => b.destroy());
    a.pipe(b);
  }
});
server.on('error', (error) => fail('cannot listen on 127.0.0.1:' + port + ': ' + error.message));
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(file, args, { stdio: 'inherit' });
  child.on('error', (error) => {
    const why = error.code === 'ENOENT' ? 'No such file or directory' : error.message;
    process.stderr.write('${bridgeMissingWords} ' + file + ': ' + why + '\\n');
    process.exit(error.code === 'ENOENT' ? 127 : 126);
  });
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal === null) process.exit(code === null ? 1 : code);
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
  });
});
`;
