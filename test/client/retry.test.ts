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

function recordingClock(onSleep: (ms: number, n: number) => Promise<void> | void = () => {}): Clock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.parse("2026-11-25T08:00:00Z"),
    sleep: async (ms) => {
      waits.push(ms);
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
    // Retry 1: full jitter over min(30 s, 1 s · 2⁰) with random 0.5; retry 2: the server's Retry-After, 2 s.
    expect(clock.waits).toEqual([500, 2000]);
    expect(notices.map((n) => n.reason)).toEqual(["cannot connect (ECONNREFUSED)", "the service answered 503"]);
    expect(server!.hits()).toBe(2);
  });

  it("follows the documented backoff ceilings 1, 2, 4, 8 s… capped at 30 s, then gives up as UNREACHABLE", async () => {
    const { url, hits } = await scripted([{ status: 503, body: "{}" }]);
    const clock = recordingClock();
    const policy = { ...POLICY, retries: 6 };
    const err = await sendWithRetry({ url, body: "{}", timeoutMs: 10_000, policy, clock, random: () => 0.999 }).catch((e) => e);
    expect(isClientError(err) && err.code).toBe("UNREACHABLE");
    expect(err.exitCode).toBe(3);
    expect(clock.waits).toEqual([999, 1998, 3996, 7992, 15984, 29970]);
    expect(hits()).toBe(7);
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
