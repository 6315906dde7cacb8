/** Time as the retry loop sees it; tests pass a clock that records the waits instead of sleeping. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * How hard to try. A busy service (429, 503, an upload refused by a closed connection) is tried again until
 * `maxWaitMs` has passed since the first attempt, attempts included: it will have room soon. Other failures (no
 * connection, time-outs) count against `retries` too: a service that is not there rarely appears.
 */
export interface RetryPolicy {
  retries: number;
  maxWaitMs: number;
  /** First backoff ceiling; it doubles per retry up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_BASE_DELAY_MS = 1000;
export const DEFAULT_MAX_DELAY_MS = 30_000;

/**
 * Exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff And Jitter", 2015): the
 * wait before retry n (0-based) is uniform in [0, min(maxDelay, base·2ⁿ)), so clients that failed together do
 * not come back together.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number): number {
  return Math.floor(random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retry));
}

/** `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
export function parseRetryAfter(header: string | null, nowMs: number): number | null {
  if (header === null || header.trim() === "") return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** What ended an attempt that may be retried: the reason a person reads, and the server's Retry-After if any. */
export interface TransientFailure {
  reason: string;
  retryAfterMs: number | null;
  /** The attempt ran out of time (504 or our own time-out): the next one gets a longer time-out. */
  timedOut: boolean;
  /**
   * The service is there but has no room now (429, 503, or it closed the connection on the upload): retried until
   * --max-wait, whatever --retries says. Its text says which limit and what to do about it.
   */
  busy: string | null;
}

/**
 * The wait before the next attempt: the service's Retry-After is its lower bound, and the jittered backoff is added
 * to it, so the wait rises with each retry and clients refused together (a 429 says "1 s" to all of them) spread.
 */
export function nextDelay(failure: TransientFailure, retry: number, policy: RetryPolicy, random: () => number): number {
  return (failure.retryAfterMs ?? 0) + backoffDelay(retry, policy, random);
}
