/**
 * Which of the service's limits refused a request, and what to do about it, read from the error body's `code`
 * (server/admission.ts): TOO_MANY_REQUESTS is the per-address limit, OVERLOADED the whole service's (analyses, or
 * queued jobs), SHUTTING_DOWN a draining instance.
 */
const ADVICE: Record<string, string> = {
  TOO_MANY_REQUESTS:
    "this machine's address had SERVICE_MAX_CONCURRENT_PER_CLIENT requests open (4 by default): run fewer `ml-diagnose` jobs in parallel, raise --max-wait, or raise SERVICE_MAX_CONCURRENT_PER_CLIENT on the service",
  OVERLOADED:
    "the service was at its limit for all clients (SERVICE_MAX_CONCURRENT_ANALYSES, or SERVICE_MAX_QUEUED_JOBS for jobs): raise --max-wait, run fewer jobs at once, or add capacity on the service",
  SHUTTING_DOWN: "the service was shutting down (draining): raise --max-wait to reach the restarted instance, or point --server at another one",
};

const CLOSED_EARLY =
  "the service closed the connection while the request was being sent, as it does when it refuses a request before reading it (a limit such as SERVICE_MAX_CONCURRENT_PER_CLIENT): run fewer jobs in parallel or raise --max-wait";

function bodyCode(body: string): string | null {
  try {
    const code = (JSON.parse(body) as { code?: unknown }).code;
    return typeof code === "string" ? code : null;
  } catch {
    return null;
  }
}

/** The limit a 429 or 503 answer names and what to do; a generic line when the body names none (a proxy's 503). */
export function busyAdvice(status: number, body: string): string {
  const code = bodyCode(body);
  if (code && ADVICE[code]) return ADVICE[code];
  return status === 429 ? ADVICE.TOO_MANY_REQUESTS! : "the service (or a proxy before it) was busy: raise --max-wait or run fewer jobs at once";
}

/** The advice for an upload cut off by the service closing the connection, with no answer read. */
export const closedEarlyAdvice = CLOSED_EARLY;
