import { performance } from 'node:perf_hooks';
import { createChatClient, defaultModelRetries } from '../src/models/chat-client.js';
import { formatWait } from '../src/models/retry-policy.js';
import { httpError, say, startScriptedModel, type Reply } from '../test/fakes/scripted-model.js';

/**
 * "Time to recover from N transient failures": one model request through the real chat client
 * and retry policy (action defaults: model-retries 6) against the scripted model, which fails N
 * times before it answers. The waits the policy chooses are counted on a virtual clock (the sleep
 * is injected, jitter at its midpoint), so the figure is the policy's, not the machine's; the real
 * time of the attempts themselves is measured alongside as overhead.
 */

export interface RecoveryFigure {
  /** Transient failures before the answer. */
  failures: number;
  /** What the failures carried: plain 503s (backoff) or 429s with `retry-after: 1`. */
  kind: 'backoff' | 'retry-after';
  /** Whether the request got its answer within the retries. */
  recovered: boolean;
  /** Requests the server received. */
  requests: number;
  /** What the policy waited in all (virtual). */
  waitedMs: number;
  /** Real time of the attempts (requests, parsing, classification), without the waits. */
  overheadMs: number;
}

export const recoveryCases: ReadonlyArray<Pick<RecoveryFigure, 'failures' | 'kind'>> = [
  { failures: 1, kind: 'backoff' },
  { failures: 3, kind: 'backoff' },
  { failures: 5, kind: 'backoff' },
  { failures: 3, kind: 'retry-after' },
];

export async function measureRecovery(failures: number, kind: RecoveryFigure['kind']): Promise<RecoveryFigure> {
  const failure: Reply = kind === 'backoff' ? httpError(503) : httpError(429, { 'retry-after': '1' });
  const server = await startScriptedModel({ script: { m: [...Array<Reply>(failures).fill(failure), say('ok')] } });
  let waitedMs = 0;
  try {
    const client = createChatClient(
      'planner',
      { model: 'm', baseURL: server.url, apiKey: 'bench' },
      {
        maxRetries: defaultModelRetries,
        random: () => 0.5,
        sleep: async (ms) => void (waitedMs += ms),
        onRetry: () => undefined,
      },
    );
    const started = performance.now();
    const recovered = await client.complete({ messages: [{ role: 'user', content: 'x' }], tools: [] }).then(
      () => true,
      () => false,
    );
    const overheadMs = performance.now() - started;
    return { failures, kind, recovered, requests: server.requests.length, waitedMs, overheadMs };
  } finally {
    await server.close();
  }
}

export async function measureRecoveries(): Promise<RecoveryFigure[]> {
  const out: RecoveryFigure[] = [];
  for (const c of recoveryCases) out.push(await measureRecovery(c.failures, c.kind));
  return out;
}

/** The report's section; empty for results measured before the figure existed. */
export function recoverySection(figures: readonly RecoveryFigure[] | undefined): string {
  if (!figures?.length) return '';
  const rows = figures.map(
    (f) =>
      `| ${f.failures} | ${f.kind === 'backoff' ? '503, no header (backoff)' : '429, retry-after: 1'} | ${f.recovered ? 'yes' : 'no'} | ${f.requests} | ${formatWait(f.waitedMs)} | ${formatWait(f.overheadMs)} |`,
  );
  return [
    '## Time to recover from transient failures',
    '',
    `One model request with the action's defaults (model-retries ${defaultModelRetries}) against a provider that fails N times before it answers. ` +
      'The waits are the retry policy’s (virtual clock, jitter at its midpoint); the overhead is the real time of the attempts (bench/fault-recovery.ts).',
    '',
    '| N | failures | recovered | requests | waited | overhead |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
