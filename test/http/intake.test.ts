import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { trainingHistoryRequest } from "../../bench/data/training-history.js";
import { type RunningService, startService } from "../support/http-service.js";
import { loopbackClients, openSlowBody, postFrom, type RawAnswer, type SlowBody } from "../support/loopback-clients.js";

/**
 * The request intake over real sockets: slow senders hold sockets, never analysis slots; one client cannot take
 * every place; work routes take JSON only; large bodies are parsed off the event loop.
 */

const sample = readFileSync(new URL("../fixtures/samples/tabular-healthy.json", import.meta.url), "utf8");

let svc: RunningService | null = null;
let slow: SlowBody[] = [];
afterEach(async () => {
  for (const s of slow) s.close();
  slow = [];
  await svc?.close();
  svc = null;
});

async function waitFor(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const json = (answer: RawAnswer) => JSON.parse(answer.text) as { detail: string; code: string; request_id: string };

describe("slow senders", () => {
  it.each([10, 50])("%i slow-body connections held open do not keep a normal client's analyses from answering 200", async (n) => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
    const service = svc;
    slow = loopbackClients(n).map((localAddress) => openSlowBody(`${service.url}/v1/analyse`, { localAddress }));
    await waitFor(() => service.service.admission.open === n, `${n} open requests`);
    for (let i = 0; i < 3; i++) {
      const answer = await postFrom(`${service.url}/v1/analyse`, sample, "127.0.0.1");
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).dataset_name).toBe("credit-risk-balanced");
    }
    expect(service.service.admission.inFlight).toBe(0);
    expect(service.service.admission.open).toBe(n);
  });

  it("answers a body not complete within SERVICE_BODY_TIMEOUT_MS with 408 and frees the client's place", async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent", SERVICE_BODY_TIMEOUT_MS: "400", SERVICE_MAX_CONCURRENT_PER_CLIENT: "1" });
    const url = `${svc.url}/v1/analyse`;
    const answer = await openSlowBody(url, { localAddress: "127.0.0.3", everyMs: 100 }).answer;
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe("close");
    expect(json(answer)).toMatchObject({ code: "REQUEST_TIMEOUT", request_id: expect.any(String) });
    expect(json(answer).detail).toMatch(/^the request body was not complete within 400 ms \(SERVICE_BODY_TIMEOUT_MS; \d+ bytes received\)$/);
    expect(svc.service.admission.open).toBe(0);
    // The same client (cap 1) is served at once: its place was given back.
    expect((await postFrom(url, sample, "127.0.0.3")).status).toBe(200);
  });
});

describe("per-client cap", () => {
  it("refuses a client's connections past SERVICE_MAX_CONCURRENT_PER_CLIENT with 429 and Retry-After while another client is served", async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
    const url = `${svc.url}/v1/analyse`;
    slow = Array.from({ length: 20 }, () => openSlowBody(url, { localAddress: "127.0.0.5" }));
    const service = svc;
    await waitFor(() => service.service.admission.open === 4, "4 open requests");
    const answered = await Promise.all(slow.slice(4).map((s) => s.answer));
    for (const answer of answered) {
      expect(answer.status).toBe(429);
      expect(answer.headers["retry-after"]).toBe("1");
      expect(json(answer).code).toBe("TOO_MANY_REQUESTS");
      expect(json(answer).detail).toContain("(127.0.0.5) already has 4 requests open");
    }
    expect((await postFrom(url, sample, "127.0.0.6")).status).toBe(200);
    expect(service.service.admission.open).toBe(4);
  });

  it("keys the cap on the client X-Forwarded-For names behind SERVICE_TRUST_PROXY proxies, not on entries the client wrote", async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent", SERVICE_TRUST_PROXY: "1", SERVICE_MAX_CONCURRENT_PER_CLIENT: "2" });
    const url = `${svc.url}/v1/analyse`;
    const from = (client: string) => ({ localAddress: "127.0.0.1", headers: { "x-forwarded-for": client } });
    slow = [openSlowBody(url, from("203.0.113.7")), openSlowBody(url, from("203.0.113.7"))];
    const service = svc;
    await waitFor(() => service.service.admission.open === 2, "2 open requests");
    // A forged entry in front of the proxy's own does not make another client.
    const forged = await openSlowBody(url, from("198.51.100.1, 203.0.113.7")).answer;
    expect(forged.status).toBe(429);
    expect(forged.headers["retry-after"]).toBe("1");
    const other = await postFrom(url, sample, "127.0.0.1", { "x-forwarded-for": "203.0.113.8" });
    expect(other.status).toBe(200);
  });
});

describe("content types and cross-origin calls", () => {
  const post = (url: string, body: string, headers: Record<string, string>) =>
    fetch(url, { method: "POST", headers, body }).then(async (res) => ({ status: res.status, headers: res.headers, json: (await res.json()) as Record<string, unknown> }));

  it("answers a cross-origin text/plain POST (what a web page can send unasked) with 415 and runs nothing", async () => {
    svc = await startService();
    for (const type of ["text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset=latin1"]) {
      const res = await post(`${svc.url}/v1/analyse`, sample, { origin: "https://elsewhere.example", "content-type": type });
      expect(res.status, type).toBe(415);
      expect(res.json).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE", request_id: expect.any(String) });
      expect(res.json.detail).toContain(JSON.stringify(type));
    }
    expect((await post(`${svc.url}/v1/report`, sample, { "content-type": "text/plain" })).status).toBe(415);
    expect((await post(`${svc.url}/debug/report`, "{}", { "content-type": "text/plain" })).status).toBe(415);
    expect(svc.logs.some((line) => line.includes("analysis started"))).toBe(false);
    const utf8 = await post(`${svc.url}/v1/analyse`, sample, { "content-type": "application/json; charset=UTF-8" });
    expect(utf8.status).toBe(200);
  });

  it("refuses preflights from origins not in SERVICE_CORS_ORIGINS and grants them to listed ones", async () => {
    svc = await startService({ SERVICE_CORS_ORIGINS: "https://dashboard.example, https://other.example" });
    const preflight = (origin: string) =>
      fetch(`${svc!.url}/v1/analyse`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    const refused = await preflight("https://elsewhere.example");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    expect((await refused.json()).code).toBe("FORBIDDEN");
    const granted = await preflight("https://dashboard.example");
    expect(granted.status).toBe(204);
    expect(granted.headers.get("access-control-allow-origin")).toBe("https://dashboard.example");
    expect(granted.headers.get("access-control-allow-headers")).toContain("content-type");
    const call = await post(`${svc.url}/v1/analyse`, sample, { origin: "https://dashboard.example", "content-type": "application/json" });
    expect(call.status).toBe(200);
    expect(call.headers.get("access-control-allow-origin")).toBe("https://dashboard.example");
  });
});

describe("large bodies", () => {
  it("keeps /healthz answering while ten 40 MB bodies are read and parsed", { timeout: 120_000 }, async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
    const body = Buffer.from(JSON.stringify(trainingHistoryRequest(760_000)));
    expect(body.length).toBeGreaterThan(40 * 1000 ** 2);
    // /debug/report reads and parses a body like an analysis route, then refuses it (not an analysis response):
    // the intake alone, without the analyses (test/http/healthz-under-load.test.ts runs those).
    const url = `${svc.url}/debug/report`;
    let finished = false;
    const posts = Promise.all(loopbackClients(10, 100).map((address) => postFrom(url, body, address))).finally(() => (finished = true));
    // Liveness answers while the bodies are read and parsed (on the worker pool); how fast is a number for the
    // healthz_under_load benchmark, not for a test on a shared machine.
    const probes: number[] = [];
    while (!finished) {
      probes.push((await fetch(`${svc.url}/healthz`)).status);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const answer of await posts) {
      expect(answer.status).toBe(400);
      expect(json(answer).detail).toMatch(/expected an analysis response$/);
    }
    expect(probes.length).toBeGreaterThan(0);
    expect(new Set(probes)).toEqual(new Set([200]));
  });
});
