import * as core from '@actions/core';
import {
  classifyProviderFailure,
  malformedCompletion,
  notJsonAnswer,
  observeFailure,
  type ProviderContext,
} from './provider-error.js';
import { NotJsonAnswer } from './answer-body.js';
import { decideRetry, defaultRetryLimits, formatWait, type RetryLimits } from './retry-policy.js';

/**
 * The attempts of one model request: each failure is read once (provider-error.ts), the policy
 * (retry-policy.ts) says whether and when to try again, each retry is one log line with the cause
 * and the wait, and the failure that remains is thrown classified. The sleep is injected, so tests
 * never wait for real.
 */

/** How the attempts of one request go; the chat client's options carry these. */
export interface RetryOptions {
  /** Retries after a failed attempt on 408/409/429/5xx, connection failures and timeouts (`model-retries`). */
  maxRetries?: number;
  /** Waits between attempts; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** In [0, 1), for the backoff's jitter. */
  random?: () => number;
  /** Told about every retry, in one line with the cause and the wait; the default logs it. */
  onRetry?: (line: string) => void;
  /** Caps of the waits; the defaults suit real providers. */
  limits?: Partial<Omit<RetryLimits, 'retries'>>;
}

const sleepFor = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function withRetries<T>(
  call: () => Promise<T>,
  context: ProviderContext,
  options: RetryOptions & { timeoutMs: number },
): Promise<T> {
  const limits: RetryLimits = { ...defaultRetryLimits, ...options.limits, retries: options.maxRetries ?? 6 };
  const sleep = options.sleep ?? sleepFor;
  const log = options.onRetry ?? ((line: string) => core.info(line));
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      // Something other than the API answered (answer-body.ts): the same URL answers the same again.
      if (error instanceof NotJsonAnswer) throw notJsonAnswer(error, context);
      if (error instanceof SyntaxError) throw malformedCompletion(error.message, context);
      const failure = observeFailure(error);
      const decision = decideRetry(failure, attempt, waited, limits, options.random);
      if (!decision.retry) {
        throw classifyProviderFailure(failure, context, {
          attempts: attempt,
          timeoutMs: options.timeoutMs,
          ...(decision.why ? { gaveUp: decision.why } : {}),
        });
      }
      log(
        `${context.role} model "${context.model}": ${failureWords(failure, options.timeoutMs)}; retry ${attempt} of ${limits.retries} in ${formatWait(decision.waitMs)}${decision.source === 'backoff' ? '' : ` (${decision.source})`}.`,
      );
      await sleep(decision.waitMs);
      waited += decision.waitMs;
    }
  }
}

/** A failed attempt in a few words, for the retry's log line. */
function failureWords(failure: ReturnType<typeof observeFailure>, timeoutMs: number): string {
  if (failure.status !== undefined) return `HTTP ${failure.status}${failure.code ? ` (${failure.code})` : ''}`;
  switch (failure.network) {
    case 'timeout':
      return `no answer within ${formatWait(timeoutMs)}`;
    case 'refused':
      return 'connection refused';
    case 'dns':
      return 'host name did not resolve';
    default:
      return `connection failed${failure.systemCode ? ` (${failure.systemCode})` : ''}`;
  }
}
