/** One timed request: status, wall time from send to the last byte, and the body text. */
export interface TimedResponse {
  status: number;
  ms: number;
  text: string;
}

/** POSTs a JSON body and times it to the last byte of the answer. */
export async function timedPost(url: string, body: string, signal?: AbortSignal): Promise<TimedResponse> {
  const started = performance.now();
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body, signal });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - started, text };
}

/** Reads a JSON document (e.g. /readyz) from the service. */
export async function getJson(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url);
  return (await res.json()) as Record<string, unknown>;
}

/** Waits until `probe` is true, checking every `everyMs`; false when `timeoutMs` passes first. */
export async function pollUntil(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 2): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return false;
}
