import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isClientError } from "../../client/errors.js";
import { backoffDelay, type Clock, parseRetryAfter, type RetryPolicy } from "../../client/transport/retry.js";
import { type RetryNotice, sendWithRetry } from "../../client/transport/send.js";

/**
 * The retry loop against a real local HTTP server: the clock records the waits instead of sleeping, and the
 * random source is fixed, so the assertion is on the schedule the loop chose, never on wall time.
 */

const POLICY: RetryPolicy = { retries: 4, maxWaitMs: 120_000, baseDelayMs: 1000, maxDelayMs: 30_000 };
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

type Answer = { status: number; headers?: Record<string, string>; body: string };

/** A server that answers from a script, one answer per request, and counts requests. */
function scripted(answers: Answer[], port = 0): Promise<{ url: string; port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const a = answers[Math.min(hits++, answers.length - 1)]!;
      res.writeHead(a.status, { "content-type": "application/json", ...a.headers }).end(a.body);
    });
  });
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(port, "127.0.0.1", () => {
      const p = (server.address() as AddressInfo).port;
      resolve({ url: `http://127.0.0.1:${p}/v1/analyse`, port: p, hits: () => hits });
    }),
  );
}

/** A port nothing listens on (yet): bound, read, released. */
async function freePort(): Promise<number> {
  const { port } = await scripted([{ status: 200, body: "{}" }]);
  await new Promise((r) => servers.pop()!.close(r));
  return port;
}

/** A clock whose time moves only by the waits it is asked for, which it records. */
function recordingClock(onSleep: (ms: number, n: number) => Promise<void> | void = () => {}): Clock & { waits: number[] } {
  const waits: number[] = [];
  let now = Date.parse("2026-11-25T08:00:00Z");
  return {
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
      await onSleep(ms, waits.length);
    },
  };
}

describe("sendWithRetry over real HTTP", () => {
  it("retries a refused connection with backoff, then a 503 after its Retry-After, then returns the 200 body", async () => {
    const port = await freePort();
    let server: Awaited<ReturnType<typeof scripted>> | null = null;
    // The service comes up while the client waits after the refused connection.
    const clock = recordingClock(async (_ms, n) => {
      if (n === 1) server = await scripted([{ status: 503, headers: { "retry-after": "2" }, body: '{"detail":"busy","code":"OVERLOADED"}' }, { status: 200, body: '{"ok":true}' }], port);
    });
    const notices: RetryNotice[] = [];
    const body = await sendWithRetry({ url: `http://127.0.0.1:${port}/v1/analyse`, body: "{}", timeoutMs: 10_000, policy: POLICY, clock, random: () => 0.5, onRetry: (n) => notices.push(n) });
    expect(body).toBe('{"ok":true}');
    // Retry 1: full jitter over min(30 s, 1 s · 2⁰) with random 0.5; retry 2: the server's Retry-After, 2 s, plus
    // full jitter over min(30 s, 1 s · 2¹).
    expect(clock.waits).toEqual([500, 3000]);
    expect(notices.map((n) => n.reason)).toEqual(["cannot connect (ECONNREFUSED)", "the service answered 503"]);
    expect(server!.hits()).toBe(2);
  });

  it("follows the documented backoff ceilings 1, 2, 4, 8 s… capped at 30 s, then gives up after --retries as UNREACHABLE", async () => {
    const { url, hits } = await scripted([{ status: 504, body: "{}" }]);
    const clock = recordingClock();
    const policy = { ...POLICY, retries: 6, maxWaitMs: 600_000 };
    const err = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy, clock, random: () => 0.999 }).catch((e) => e);
    expect(isClientError(err) && err.code).toBe("UNREACHABLE");
    expect(err.exitCode).toBe(3);
    expect(err.message).toContain("after 7 attempts (--retries 6)");
    expect(clock.waits).toEqual([999, 1998, 3996, 7992, 15984, 29970]);
    expect(hits()).toBe(7);
  });

  it("retries a busy service (429) past --retries until --max-wait, each wait its Retry-After plus a rising jitter", async () => {
    const refusal = { status: 429, headers: { "retry-after": "1" }, body: '{"detail":"limit","code":"TOO_MANY_REQUESTS"}' };
    const { url, hits } = await scripted([refusal, refusal, refusal, refusal, refusal, refusal, { status: 200, body: "done" }]);
    const clock = recordingClock();
    const body = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy: POLICY, clock, random: () => 0.5 });
    expect(body).toBe("done");
    expect(hits()).toBe(7);
    expect(clock.waits).toEqual([1500, 2000, 3000, 5000, 9000, 16000]);
  });

  it("bounds the whole run by --max-wait and names the per-client limit and what to do", async () => {
    const { url } = await scripted([{ status: 429, headers: { "retry-after": "1" }, body: '{"detail":"limit","code":"TOO_MANY_REQUESTS"}' }]);
    const clock = recordingClock();
    const err = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy: { ...POLICY, maxWaitMs: 20_000 }, clock, random: () => 0.5 }).catch((e) => e);
    expect(err.code).toBe("UNREACHABLE");
    // 1.5 + 2 + 3 + 5 s, then the 9 s wait is cut to the 8.5 s left, and the run ends at the deadline.
    expect(clock.waits).toEqual([1500, 2000, 3000, 5000, 8500]);
    expect(err.message).toContain("the service answered 429 after 6 attempts (--max-wait 20 s)");
    expect(err.message).toContain("SERVICE_MAX_CONCURRENT_PER_CLIENT");
    expect(err.message).toContain("fewer `ml-diagnose` jobs in parallel");
  });

  it.each([
    ["OVERLOADED", "SERVICE_MAX_CONCURRENT_ANALYSES"],
    ["SHUTTING_DOWN", "shutting down"],
  ])("a 503 %s names its cause: %s", async (code, named) => {
    const { url } = await scripted([{ status: 503, headers: { "retry-after": "5" }, body: JSON.stringify({ detail: "busy", code }) }]);
    const err = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy: { ...POLICY, maxWaitMs: 4000 }, clock: recordingClock(), random: () => 0.5 }).catch((e) => e);
    expect(err.message).toContain("--max-wait 4 s");
    expect(err.message).toContain(named);
  });

  it("reads a 429 the service sent before reading the upload and closing the connection", async () => {
    // As server/admission.ts does: answer at once with `connection: close`, never read the body.
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      if (hits === 1) res.writeHead(429, { "retry-after": "1", connection: "close", "content-type": "application/json" }).end('{"detail":"limit","code":"TOO_MANY_REQUESTS"}');
      else _req.resume().on("end", () => res.writeHead(200).end("done"));
    });
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/analyse`;
    const notices: RetryNotice[] = [];
    const body = await sendWithRetry({ url, body: JSON.stringify({ x: "a".repeat(8_000_000) }), timeoutMs: 30_000, policy: { ...POLICY, retries: 0 }, clock: recordingClock(), random: () => 0, onRetry: (n) => notices.push(n) });
    expect(body).toBe("done");
    // Either the answer was read (429) or the write was cut off first; both are a busy service, retried though --retries is 0.
    expect(notices).toHaveLength(1);
    expect(notices[0]!.reason).toMatch(/^(the service answered 429|the service closed the connection during the upload \((EPIPE|ECONNRESET)\))$/);
  });

  it("stops before waiting past --max-wait", async () => {
    const { url, hits } = await scripted([{ status: 503, headers: { "retry-after": "90" }, body: "{}" }]);
    const clock = recordingClock();
    const err = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy: { ...POLICY, maxWaitMs: 60_000 }, clock, random: () => 0.5 }).catch((e) => e);
    expect(err.code).toBe("UNREACHABLE");
    expect(err.message).toContain("--max-wait 60 s");
    expect(clock.waits).toEqual([]);
    expect(hits()).toBe(1);
  });

  it.each([400, 404, 413, 500])("never retries a %i: the service's detail and a fix, exit 4", async (status) => {
    const { url, hits } = await scripted([{ status, body: JSON.stringify({ detail: "training_artifacts.metrics: expected a number", code: "X", request_id: "r-1" }) }]);
    const clock = recordingClock();
    const err = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy: POLICY, clock, random: () => 0.5 }).catch((e) => e);
    expect(err.code).toBe("SERVICE_ERROR");
    expect(err.exitCode).toBe(4);
    expect(err.message).toContain(`answered ${status} (X, request r-1): training_artifacts.metrics: expected a number`);
    expect(err.message).toContain("fix:");
    expect(hits()).toBe(1);
    expect(clock.waits).toEqual([]);
  });

  it("retries a 504 with a doubled time-out", async () => {
    const { url } = await scripted([{ status: 504, body: "{}" }, { status: 200, body: "done" }]);
    const notices: RetryNotice[] = [];
    const body = await sendWithRetry({ url, body: "{}", timeoutMs: 5000, policy: POLICY, clock: recordingClock(), random: () => 0, onRetry: (n) => notices.push(n) });
    expect(body).toBe("done");
    expect(notices).toEqual([{ retry: 1, delayMs: 0, reason: "the service answered 504", timeoutMs: 10_000 }]);
  });
});

describe("retry arithmetic", () => {
  it("full jitter stays below min(cap, base·2ⁿ)", () => {
    expect([0, 1, 2, 5, 10].map((n) => backoffDelay(n, POLICY, () => 0.999999))).toEqual([999, 1999, 3999, 29999, 29999]);
    expect(backoffDelay(3, POLICY, () => 0)).toBe(0);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-11-25T08:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7000);
    expect(parseRetryAfter("Wed, 25 Nov 2026 08:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});
