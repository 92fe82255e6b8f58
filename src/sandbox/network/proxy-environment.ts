/**
 * What points a sandboxed process at the egress proxy: the variables tools read, loopback left
 * out (a repository's own test servers listen there). A convenience for well-behaved tools; what
 * seals the network is the operating system (sandbox/network/network-seal.ts, sandbox/network/namespace-seal.ts).
 */

/** Loopback is never proxied. */
const noProxy = 'localhost,127.0.0.1,::1';

/** The variables for a proxy at `url` (http://127.0.0.1:<port>). */
export function proxyEnvironment(url: string): NodeJS.ProcessEnv {
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: noProxy,
    no_proxy: noProxy,
    // Node's own fetch and http follow the variables only when asked to (Node 24).
    NODE_USE_ENV_PROXY: '1',
  };
}
