import { ClientError } from "../errors.js";
import { type AttemptOutcome, attemptOnce, type RunEvent } from "./attempt.js";
import { busyAdvice, closedEarlyAdvice } from "./busy.js";
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
      if (outcome.closedOnUpload) {
        return { retry: { reason: `the service closed the connection during the upload (${outcome.reason})`, retryAfterMs: null, timedOut: false, busy: closedEarlyAdvice } };
      }
      return { retry: { reason: `cannot connect (${outcome.reason})`, retryAfterMs: null, timedOut: false, busy: null } };
    case "timeout":
      return { retry: { reason: "no answer within the time-out", retryAfterMs: null, timedOut: true, busy: null } };
    case "stream_error":
      if (outcome.code !== "TIMEOUT") return { final: serviceError(500, outcome.body) };
      return { retry: { reason: `the service timed out (${outcome.detail})`, retryAfterMs: null, timedOut: true, busy: null } };
    case "answer": {
      if (!TRANSIENT_STATUS.has(outcome.status)) return { final: serviceError(outcome.status, outcome.body) };
      const retryAfterMs = parseRetryAfter(outcome.retryAfter, nowMs);
      const busy = outcome.status === 504 ? null : busyAdvice(outcome.status, outcome.body);
      return { retry: { reason: `the service answered ${outcome.status}`, retryAfterMs, timedOut: outcome.status === 504, busy } };
    }
    default:
      throw new Error(`unknown outcome ${(outcome as { kind: string }).kind}`);
  }
}

function tries(n: number): string {
  return `${n} attempt${n === 1 ? "" : "s"}`;
}

/** Why the loop gave up: what failed last, the bound that ended it, and what to do. */
function givingUp(url: string, failure: TransientFailure, attempts: number, bound: string): ClientError {
  const fix = failure.busy ?? "is the service running? Start it with `npm start`, or point --server / ML_DIAGNOSE_SERVER at it";
  return new ClientError("UNREACHABLE", `${url}: ${failure.reason} after ${tries(attempts)} (${bound})\n  fix: ${fix}`);
}

/**
 * POSTs the body until the service answers for good, with full-jitter backoff on top of any Retry-After. A busy
 * service (429, 503, an upload cut off) is retried until `policy.maxWaitMs` has passed since the first attempt;
 * connection errors, 504 and time-outs (with a doubled time-out) at most `policy.retries` times within that.
 * Any other error status is final. Returns the successful body; throws UNREACHABLE when the retries run out,
 * SERVICE_ERROR for a final error.
 */
export async function sendWithRetry(options: SendOptions): Promise<string> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const { policy } = options;
  const deadline = clock.now() + policy.maxWaitMs;
  let timeoutMs = options.timeoutMs;
  let otherFailures = 0;
  for (let retry = 0; ; retry++) {
    const outcome = await attemptOnce({ url: options.url, body: options.body, onEvent: options.onEvent ?? null, timeoutMs });
    if (outcome.kind === "answer" && outcome.status >= 200 && outcome.status < 300) return outcome.body;
    const verdict = judge(outcome, clock.now());
    if ("final" in verdict) throw verdict.final;
    const failure = verdict.retry;
    if (!failure.busy && ++otherFailures > policy.retries) throw givingUp(options.url, failure, retry + 1, `--retries ${policy.retries}`);
    const left = deadline - clock.now();
    const delayMs = Math.min(nextDelay(failure, retry, policy, random), Math.max(0, left));
    // The service's Retry-After is a floor: an attempt before it would be refused again.
    if (left <= 0 || delayMs < (failure.retryAfterMs ?? 0)) throw givingUp(options.url, failure, retry + 1, `--max-wait ${policy.maxWaitMs / 1000} s`);
    if (failure.timedOut) timeoutMs *= 2;
    options.onRetry?.({ retry: retry + 1, delayMs, reason: failure.reason, timeoutMs });
    await clock.sleep(delayMs);
  }
}

/** A retry as stderr announces it. */
export function retryLine(n: RetryNotice): string {
  return `retry ${n.retry} in ${(n.delayMs / 1000).toFixed(1)} s: ${n.reason}`;
}
