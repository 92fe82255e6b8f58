import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startEgressProxy, type EgressProxy } from '../src/sandbox/network/egress-proxy.js';
import type { EgressLookup } from '../src/sandbox/network/egress-vetting.js';
import { startLocalRegistry, type LocalRegistry } from './local-registry.js';
import { npmFixture, writeNpmFixture, type NpmFixture } from './npm-fixture.js';
import { projectRoot } from './paths.js';
import { probeEnv, readProbe } from './process-timing.js';
import { median, ratio } from './stats.js';

/**
 * What the sealed network's egress proxy adds to `npm ci`: a real lockfile (the part of plangate's
 * own that its MCP SDK pulls in) installed from a registry on loopback, with a fresh npm cache each
 * time so every tarball is downloaded, directly and through the proxy (src/sandbox/network/egress-proxy.ts,
 * as the action starts it, with the registry its one allowed destination), alternating.
 *
 * Over HTTPS npm opens CONNECT tunnels, which is how it reaches registry.npmjs.org under
 * `allowed-domains: npm`; over plain HTTP it sends each request to the proxy to forward. Through the
 * proxy the registry is named by a host name only the proxy can resolve (its lookup is the
 * benchmark's), so an install that bypassed the proxy would fail rather than be timed; the
 * lookups the proxy made are counted to show it carried every install.
 */

/** The fixture's dependencies: the MCP SDK's tree, about a hundred packages (express, hono, ajv…). */
const ROOTS = ['@modelcontextprotocol/sdk'];
/** The registry's name through the proxy: `.invalid` never resolves anywhere else (RFC 2606). */
const REGISTRY_NAME = 'registry.plangate-bench.invalid';

/** One install: its wall time, npm's CPU, and the benchmark process's (the registry's, and the proxy's when proxied). */
export interface NpmInstallSample {
  wallMs: number;
  npmCpuMs: number;
  serverCpuMs: number;
}

export interface NpmInstallFigures {
  protocol: 'https' | 'http';
  /** How the proxy carried the install. */
  through: 'CONNECT tunnels' | 'plain HTTP forwarding';
  /** Each install, in the order run (the warm-up left out). */
  direct: NpmInstallSample[];
  proxied: NpmInstallSample[];
  /** Medians of the samples, field by field. */
  directMedian: NpmInstallSample;
  proxiedMedian: NpmInstallSample;
  /** Each round's proxied / direct wall time: the two installs of a round ran back to back. */
  roundRatios: number[];
  /** The judged figure: the median of roundRatios. */
  ratio: number;
  /** Median proxied wall / median direct wall: the same question asked of the medians. */
  ratioOfMedians: number;
  /** (npm + registry + proxy CPU) proxied / direct, medians: what the proxy costs in work, which a busy machine does not blur. */
  cpuRatio: number;
  /**
   * The proxy's own CPU per install: the benchmark process's median CPU proxied minus direct (the
   * registry's work is the same both ways), and that as a share of a direct install's CPU.
   */
  proxyCpuMs: number;
  proxyCpuShare: number;
  /** Connections the registry accepted per install (median): the proxy's upstream ones when proxied. */
  registryConnections: { direct: number; proxied: number };
  /** Destinations the proxy looked up per proxied install (median): one per tunnel, or per forwarded request. */
  proxyLookups: number;
}

export interface NpmProxyFigures {
  roots: string[];
  /** Lockfile entries installed. */
  packages: number;
  /** Distinct tarballs (one package version can sit at several install paths). */
  tarballs: number;
  tarballBytes: number;
  /** Tarballs taken from npm's cache; the rest were packed from node_modules. */
  fromCache: number;
  npm: string;
  /** Measured rounds (each one install per protocol and mode), after one warm-up pair. */
  rounds: number;
  installs: NpmInstallFigures[];
  wallSeconds: number;
}

interface Setup {
  protocol: 'https' | 'http';
  registry: LocalRegistry;
  directDir: string;
  proxiedDir: string;
  cafile?: string;
}

/** A self-signed certificate for 127.0.0.1 and the registry's name, made with openssl for this run. */
function selfSigned(dir: string): { key: Buffer; cert: Buffer; certFile: string } {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${REGISTRY_NAME}`,
      '-addext',
      `subjectAltName=DNS:${REGISTRY_NAME},IP:127.0.0.1`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile), cert: readFileSync(certFile), certFile };
}

/** The environment npm runs in: nothing of the benchmark's own npm settings, no user or global npmrc. */
function npmEnv(home: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    npm_config_userconfig: path.join(home, 'npmrc'),
    npm_config_globalconfig: path.join(home, 'global-npmrc'),
  };
}

/**
 * One `npm ci` with an empty cache: its wall time, npm's CPU (bench/probe.cjs, preloaded as for
 * every process the benchmark times) and this process's own CPU meanwhile, where the registry and
 * the proxy run.
 */
async function install(
  dir: string,
  home: string,
  cafile: string | undefined,
  proxy: string | undefined,
): Promise<NpmInstallSample> {
  rmSync(path.join(dir, 'node_modules'), { recursive: true, force: true });
  const cache = mkdtempSync(path.join(home, 'cache-'));
  const probeDir = path.join(home, 'probe');
  const args = [
    'ci',
    '--offline=false',
    '--no-audit',
    '--no-fund',
    '--ignore-scripts',
    '--no-update-notifier',
    '--loglevel=error',
    '--cache',
    cache,
    ...(cafile ? ['--cafile', cafile] : []),
    ...(proxy ? ['--proxy', proxy, '--https-proxy', proxy] : []),
  ];
  const env = { ...npmEnv(home), ...probeEnv(probeDir) };
  const cpu = process.cpuUsage();
  const start = performance.now();
  const child = spawn('npm', args, { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? 1)));
  const wallMs = performance.now() - start;
  const server = process.cpuUsage(cpu);
  rmSync(cache, { recursive: true, force: true });
  if (code !== 0) throw new Error(`npm ci in ${dir} exited ${code}:\n${stderr.slice(-2000)}`);
  const npm = readProbe(probeDir, child.pid, wallMs);
  return { wallMs, npmCpuMs: npm.selfCpuMs + npm.childCpuMs, serverCpuMs: (server.user + server.system) / 1000 };
}

const medianOf = (samples: readonly NpmInstallSample[]): NpmInstallSample => ({
  wallMs: median(samples.map((x) => x.wallMs)),
  npmCpuMs: median(samples.map((x) => x.npmCpuMs)),
  serverCpuMs: median(samples.map((x) => x.serverCpuMs)),
});

const cpuOf = (x: NpmInstallSample) => x.npmCpuMs + x.serverCpuMs;

export async function measureNpmThroughProxy(rounds: number, workDir: string): Promise<NpmProxyFigures> {
  const started = performance.now();
  const fixture: NpmFixture = npmFixture(projectRoot, ROOTS);
  const home = path.join(workDir, 'npm-home');
  mkdirSync(home, { recursive: true });
  const tls = selfSigned(home);
  let lookups = 0;
  const lookup: EgressLookup = async (host) => {
    if (host !== REGISTRY_NAME) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
    lookups++;
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const setups: Setup[] = [];
  let proxy: EgressProxy | undefined;
  try {
    for (const protocol of ['https', 'http'] as const) {
      const registry = await startLocalRegistry(fixture.tarballs, protocol === 'https' ? tls : undefined);
      const directDir = path.join(home, `${protocol}-direct`);
      const proxiedDir = path.join(home, `${protocol}-proxied`);
      mkdirSync(directDir);
      mkdirSync(proxiedDir);
      writeNpmFixture(directDir, fixture, registry.origin);
      writeNpmFixture(proxiedDir, fixture, `${protocol}://${REGISTRY_NAME}:${registry.port}`);
      setups.push({
        protocol,
        registry,
        directDir,
        proxiedDir,
        ...(protocol === 'https' ? { cafile: tls.certFile } : {}),
      });
    }
    proxy = await startEgressProxy({
      destinations: setups.map((s) => ({ host: REGISTRY_NAME, port: s.registry.port })),
      lookup,
    });
    const proxyUrl = proxy.url;
    const samples = new Map(
      setups.map((s) => [s, { direct: [] as NpmInstallSample[], proxied: [] as NpmInstallSample[] }]),
    );
    const connections = new Map(setups.map((s) => [s, { direct: [] as number[], proxied: [] as number[] }]));
    const lookupCounts = new Map(setups.map((s) => [s, [] as number[]]));
    // Round 0 (one pair, the first protocol's) warms the page cache and npm's own start; each later
    // round flips the order, so a slow spell of the shared machine does not fall on one mode alone.
    for (let round = 0; round <= rounds; round++) {
      for (const setup of round === 0 ? setups.slice(0, 1) : setups) {
        const modes = round % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
        for (const mode of modes) {
          setup.registry.takeCounts();
          const before = lookups;
          const sample = await install(
            mode === 'direct' ? setup.directDir : setup.proxiedDir,
            home,
            setup.cafile,
            mode === 'proxied' ? proxyUrl : undefined,
          );
          const counts = setup.registry.takeCounts();
          const looked = lookups - before;
          if (counts.tarballs !== fixture.tarballs.size || counts.notFound > 0)
            throw new Error(
              `npm ci (${setup.protocol}, ${mode}) fetched ${counts.tarballs} of ${fixture.tarballs.size} tarballs (${counts.notFound} requests not found)`,
            );
          if ((mode === 'proxied') !== looked > 0)
            throw new Error(`npm ci (${setup.protocol}, ${mode}) made the proxy look up the registry ${looked} times`);
          if (round === 0) continue;
          samples.get(setup)?.[mode].push(sample);
          connections.get(setup)?.[mode].push(counts.connections);
          if (mode === 'proxied') lookupCounts.get(setup)?.push(looked);
        }
      }
    }
    const refused = proxy.refusals();
    if (refused.length > 0) throw new Error(`the proxy refused ${refused.map((r) => r.host).join(', ')}`);
    const installs = setups.map((setup): NpmInstallFigures => {
      const { direct, proxied } = samples.get(setup) ?? { direct: [], proxied: [] };
      const c = connections.get(setup) ?? { direct: [], proxied: [] };
      const directMedian = medianOf(direct);
      const proxiedMedian = medianOf(proxied);
      const roundRatios = proxied.map((p, i) => ratio(p.wallMs, direct[i]?.wallMs ?? Number.NaN));
      return {
        protocol: setup.protocol,
        through: setup.protocol === 'https' ? 'CONNECT tunnels' : 'plain HTTP forwarding',
        direct,
        proxied,
        directMedian,
        proxiedMedian,
        roundRatios,
        ratio: median(roundRatios),
        ratioOfMedians: ratio(proxiedMedian.wallMs, directMedian.wallMs),
        cpuRatio: ratio(median(proxied.map(cpuOf)), median(direct.map(cpuOf))),
        proxyCpuMs: proxiedMedian.serverCpuMs - directMedian.serverCpuMs,
        proxyCpuShare: ratio(proxiedMedian.serverCpuMs - directMedian.serverCpuMs, median(direct.map(cpuOf))),
        registryConnections: { direct: median(c.direct), proxied: median(c.proxied) },
        proxyLookups: median(lookupCounts.get(setup) ?? []),
      };
    });
    return {
      roots: ROOTS,
      packages: fixture.entries.size,
      tarballs: fixture.tarballs.size,
      tarballBytes: fixture.bytes,
      fromCache: fixture.fromCache,
      npm: execFileSync('npm', ['--version'], { env: npmEnv(home), encoding: 'utf8' }).trim(),
      rounds,
      installs,
      wallSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await proxy?.close();
    for (const setup of setups) await setup.registry.close();
    rmSync(home, { recursive: true, force: true });
  }
}
