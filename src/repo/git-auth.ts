import { z } from 'zod';
import { configEnv, type GitConfigEntry } from './git-env.js';

/**
 * How the host's fetch and push authenticate: an HTTP header for one git process, handed over in
 * its environment. Never in `.git/config`, where any command in the workspace could read it, and
 * never on the command line, which every user can read in /proc/<pid>/cmdline; a process's environ
 * is readable by its own user only, and the executor's commands run as another one when
 * `command-user` is set.
 */

/** The token and the GitHub server it is for (`GITHUB_SERVER_URL`, e.g. https://github.com). */
export interface GitAuth {
  token: string;
  serverUrl: string;
}

const serverUrlSchema = z.url({ protocol: /^https?$/ });

/**
 * The header entries, scoped to the server's URL so that a remote pointed elsewhere (by a command
 * rewriting `.git/config`) never receives the token. An empty value first resets the header list:
 * a header actions/checkout persisted would otherwise be sent as well, and GitHub refuses a request
 * with two Authorization headers.
 */
export function gitAuthConfig(auth: GitAuth): GitConfigEntry[] {
  const parsed = serverUrlSchema.safeParse(auth.serverUrl);
  if (!parsed.success)
    throw new Error(
      `The server URL ${JSON.stringify(auth.serverUrl)} is not an http(s) URL; git cannot authenticate to it.`,
    );
  const key = `http.${parsed.data.replace(/\/+$/, '')}/.extraheader`;
  return [
    { key, value: '' },
    { key, value: `AUTHORIZATION: basic ${basicCredentials(auth.token)}` },
  ];
}

/** The environment that lets one git command authenticate to `serverUrl` with `token`. */
export function gitAuthEnv(token: string, serverUrl: string): NodeJS.ProcessEnv {
  return configEnv(gitAuthConfig({ token, serverUrl }));
}

/** Every form the token takes in git's traffic, for redacting what git says. */
export function authSecrets(token: string): string[] {
  return token === '' ? [] : [token, basicCredentials(token)];
}

/** GitHub accepts an installation or Actions token as the password of user x-access-token. */
function basicCredentials(token: string): string {
  return Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
}
