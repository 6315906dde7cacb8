import { ClientError } from "../errors.js";
import { type AttemptOutcome, attemptOnce, type RunEvent } from "./attempt.js";
import { type Clock, nextDelay, parseRetryAfter, type RetryPolicy, systemClock, type TransientFailure } from "./retry.js";
import { serviceError } from "./service-error.js";

/** Statuses that say "not now" rather than "no": busy (503), per-client cap (429), time-out (504). */
const TRANSIENT_STATUS = new Set([429, 503, 504]);

/** A retry about to happen: printed on stderr, and recorded by tests. */
export interface RetryNotice {
  /** 1 for the first retry. */
  retry: number;
  delayMs: number;
  reason: string;
  /** The time-out of the attempt that follows. */
  timeoutMs: number;
}

export interface SendOptions {
  url: string;
  body: string;
  timeoutMs: number;
  policy: RetryPolicy;
  onEvent?: ((e: RunEvent) => void) | null;
  onRetry?: (notice: RetryNotice) => void;
  clock?: Clock;
  random?: () => number;
}

/** A failed outcome: retryable, or final (an error retrying will not change). */
function judge(outcome: AttemptOutcome, nowMs: number): { retry: TransientFailure } | { final: ClientError } {
  switch (outcome.kind) {
    case "network":
      return { retry: { reason: `cannot connect (${outcome.reason})`, retryAfterMs: null, timedOut: false } };
    case "timeout":
      return { retry: { reason: "no answer within the time-out", retryAfterMs: null, timedOut: true } };
    case "stream_error":
      if (outcome.code !== "TIMEOUT") return { final: serviceError(500, outcome.body) };
      return { retry: { reason: `the service timed out (${outcome.detail})`, retryAfterMs: null, timedOut: true } };
    case "answer": {
      if (!TRANSIENT_STATUS.has(outcome.status)) return { final: serviceError(outcome.status, outcome.body) };
      const retryAfterMs = parseRetryAfter(outcome.retryAfter, nowMs);
      return { retry: { reason: `the service answered ${outcome.status}`, retryAfterMs, timedOut: outcome.status === 504 } };
    }
    default:
      throw new Error(`unknown outcome ${(outcome as { kind: string }).kind}`);
  }
}

/**
 * POSTs the body until the service answers for good: connection errors, 429/503 (after their Retry-After), 504
 * and time-outs (with a doubled time-out) are retried with full-jitter backoff, at most `policy.retries` times
 * and `policy.maxWaitMs` of waiting in all; any other error status is final. Returns the successful body; throws
 * UNREACHABLE when the retries run out, SERVICE_ERROR for a final error.
 */
export async function sendWithRetry(options: SendOptions): Promise<string> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const { policy } = options;
  let timeoutMs = options.timeoutMs;
  let waitedMs = 0;
  for (let retry = 0; ; retry++) {
    const outcome = await attemptOnce({ url: options.url, body: options.body, onEvent: options.onEvent ?? null, timeoutMs });
    if (outcome.kind === "answer" && outcome.status >= 200 && outcome.status < 300) return outcome.body;
    const verdict = judge(outcome, clock.now());
    if ("final" in verdict) throw verdict.final;
    const failure = verdict.retry;
    const tried = `${retry + 1} attempt${retry === 0 ? "" : "s"}`;
    if (retry >= policy.retries) {
      throw new ClientError("UNREACHABLE", `${options.url}: ${failure.reason} after ${tried} (--retries ${policy.retries}). Is the service running? Start it with \`npm start\`, or point --server / ML_DIAGNOSE_SERVER at it`);
    }
    const delayMs = nextDelay(failure, retry, policy, random);
    if (waitedMs + delayMs > policy.maxWaitMs) {
      throw new ClientError("UNREACHABLE", `${options.url}: ${failure.reason} after ${tried}; waiting ${(delayMs / 1000).toFixed(1)} s more would pass --max-wait ${policy.maxWaitMs / 1000} s`);
    }
    if (failure.timedOut) timeoutMs *= 2;
    options.onRetry?.({ retry: retry + 1, delayMs, reason: failure.reason, timeoutMs });
    await clock.sleep(delayMs);
    waitedMs += delayMs;
  }
}
