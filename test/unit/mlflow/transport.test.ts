import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ByteBudget } from "../../../artifacts/mlflow/budget.js";
import { trackingEndpoint } from "../../../artifacts/mlflow/endpoint.js";
import { isMlflowError, MlflowError } from "../../../artifacts/mlflow/errors.js";
import { GetRunResponse } from "../../../artifacts/mlflow/schemas.js";
import { Deadline } from "../../../graph/deadline.js";
import { fakeFetch, fakeTransport, json, runAnswer, TRACKING_URI } from "./fake-tracking.js";

const refused = () => {
  throw Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
};

async function failure(p: Promise<unknown>): Promise<MlflowError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isMlflowError(err)) throw new Error(`expected an MlflowError, got ${String(err)}`);
  return err;
}

describe("tracking endpoint", () => {
  it("moves credentials out of the URI into the header and never shows them", () => {
    const e = trackingEndpoint({ SERVICE_MLFLOW_TRACKING_URI: "https://ana:s3cret@mlflow.example:8443/prefix/?x=1" });
    expect(e.base).toBe("https://mlflow.example:8443/prefix");
    expect(e.display).toBe("https://mlflow.example:8443/prefix");
    expect(e.authorization).toBe(`Basic ${Buffer.from("ana:s3cret").toString("base64")}`);
  });

  it("prefers the bearer token; basic auth needs both user and password", () => {
    expect(trackingEndpoint({ SERVICE_MLFLOW_TRACKING_URI: TRACKING_URI, SERVICE_MLFLOW_TOKEN: "tok", SERVICE_MLFLOW_USERNAME: "u", SERVICE_MLFLOW_PASSWORD: "p" }).authorization).toBe("Bearer tok");
    expect(trackingEndpoint({ SERVICE_MLFLOW_TRACKING_URI: TRACKING_URI, SERVICE_MLFLOW_USERNAME: "u" }).authorization).toBeNull();
  });

  it("is MLFLOW_NOT_CONFIGURED (400) without a tracking URI", () => {
    expect(() => trackingEndpoint({})).toThrow(expect.objectContaining({ code: "MLFLOW_NOT_CONFIGURED", status: 400 }));
  });
});

describe("transport", () => {
  afterEach(() => vi.useRealTimers());

  it("retries refused connections and 5xx with doubling back-off, then answers", async () => {
    let calls = 0;
    const { fetch } = fakeFetch({
      "/api/2.0/mlflow/runs/get": () => {
        calls++;
        if (calls === 1) refused();
        if (calls === 2) return json({ error_code: "INTERNAL_ERROR" }, 502);
        return json(runAnswer("r1"));
      },
    });
    const delays: number[] = [];
    const http = fakeTransport(fetch, { sleep: async (ms) => void delays.push(ms), backoffMs: 100 });
    const answer = await http.json(GetRunResponse, "run 'r1'", "/api/2.0/mlflow/runs/get", { query: { run_id: "r1" } });
    expect(answer.run.info.run_id).toBe("r1");
    expect(delays).toEqual([100, 200]);
  });

  it("gives up after the bounded attempts with 503 naming the URI without credentials", async () => {
    const { fetch, seen } = fakeFetch({ "/api/2.0/mlflow/runs/get": refused });
    const endpoint = trackingEndpoint({ SERVICE_MLFLOW_TRACKING_URI: "http://ana:s3cret@127.0.0.1:5999", SERVICE_MLFLOW_TOKEN: "tok-123" });
    const err = await failure(fakeTransport(fetch, { endpoint, attempts: 3 }).json(GetRunResponse, "run 'r1'", "/api/2.0/mlflow/runs/get"));
    expect(seen).toHaveLength(3);
    expect(err).toMatchObject({ code: "MLFLOW_UNAVAILABLE", status: 503 });
    expect(err.message).toContain("http://127.0.0.1:5999");
    expect(err.message).toContain("ECONNREFUSED");
    expect(err.message).not.toMatch(/s3cret|ana|tok-123/);
  });

  it("maps 404 and RESOURCE_DOES_NOT_EXIST to MLFLOW_NOT_FOUND naming the resource, without retrying", async () => {
    const { fetch, seen } = fakeFetch({
      "/a": () => json({ error_code: "RESOURCE_DOES_NOT_EXIST", message: "Run with id=r9 not found" }, 404),
      "/b": () => json({ error_code: "RESOURCE_DOES_NOT_EXIST", message: "gone" }, 400),
    });
    const http = fakeTransport(fetch);
    const a = await failure(http.json(z.unknown(), "run 'r9'", "/a"));
    expect(a).toMatchObject({ code: "MLFLOW_NOT_FOUND", status: 404 });
    expect(a.message).toBe("run 'r9' was not found on the tracking server http://127.0.0.1:5999: Run with id=r9 not found");
    expect((await failure(http.json(z.unknown(), "x", "/b"))).code).toBe("MLFLOW_NOT_FOUND");
    expect(seen).toHaveLength(2);
  });

  it("answers 502 on refused credentials, telling which settings to fix, without retrying", async () => {
    const { fetch, seen } = fakeFetch({ "/a": () => new Response("denied", { status: 401 }) });
    const err = await failure(fakeTransport(fetch).json(z.unknown(), "run 'r1'", "/a"));
    expect(err).toMatchObject({ code: "MLFLOW_BAD_RESPONSE", status: 502 });
    expect(err.message).toMatch(/access refused \(401: denied\); set SERVICE_MLFLOW_TOKEN/);
    expect(seen).toHaveLength(1);
  });

  it("sends the authorization header and JSON bodies; the URL carries no credentials", async () => {
    const { fetch, seen } = fakeFetch({ "/api/2.0/mlflow/runs/search": () => json({}) });
    const endpoint = trackingEndpoint({ SERVICE_MLFLOW_TRACKING_URI: "http://u:p@127.0.0.1:5999" });
    await fakeTransport(fetch, { endpoint }).json(z.unknown(), "run search", "/api/2.0/mlflow/runs/search", { body: { max_results: 1 } });
    expect(seen[0]).toMatchObject({ method: "POST", body: { max_results: 1 } });
    expect(seen[0]!.headers.get("authorization")).toBe(`Basic ${Buffer.from("u:p").toString("base64")}`);
    expect(seen[0]!.headers.get("content-type")).toBe("application/json");
  });

  it("rejects an answer that does not fit the schema with 502 naming the field", async () => {
    const { fetch } = fakeFetch({ "/a": () => json({ run: { info: { experiment_id: 7 } } }) });
    const err = await failure(fakeTransport(fetch).json(GetRunResponse, "run 'r1'", "/a"));
    expect(err.code).toBe("MLFLOW_BAD_RESPONSE");
    expect(err.message).toContain("run.info.experiment_id");
  });

  it("rethrows the caller's abort as is and stops retrying", async () => {
    const caller = new Deadline();
    const { fetch, seen } = fakeFetch({
      "/a": () => {
        caller.abort(new Error("client disconnected"));
        refused();
        throw new Error("unreachable");
      },
    });
    const err = await fakeTransport(fetch, { deadline: caller }).json(z.unknown(), "x", "/a").catch((e: unknown) => e);
    expect(err).toEqual(new Error("client disconnected"));
    expect(seen).toHaveLength(1);
  });

  it("times a silent server out after SERVICE_MLFLOW_TIMEOUT_MS with 503", async () => {
    vi.useFakeTimers();
    const hang = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) => init.signal!.addEventListener("abort", () => reject(init.signal!.reason)))) as unknown as typeof fetch;
    const pending = failure(fakeTransport(hang, { timeoutMs: 1000 }).json(z.unknown(), "run 'r1'", "/a"));
    await vi.advanceTimersByTimeAsync(1000);
    const err = await pending;
    expect(err).toMatchObject({ code: "MLFLOW_UNAVAILABLE" });
    expect(err.message).toBe("run 'r1': the tracking server http://127.0.0.1:5999 did not answer within 1000 ms (SERVICE_MLFLOW_TIMEOUT_MS)");
  });

  it("caps a JSON answer at the document cap and counts it in the request's budget", async () => {
    const big = JSON.stringify({ runs: [], pad: "x".repeat(2000) });
    const { fetch } = fakeFetch({ "/a": () => new Response(big), "/b": () => json({ ok: true }) });
    const budget = new ByteBudget(1 << 20, { bytes: 1 << 20, variable: "SERVICE_MAX_DOWNLOAD_FILE_BYTES" }, { bytes: 1024, variable: "SERVICE_MAX_BODY_BYTES" });
    const http = fakeTransport(fetch, { budget });
    const err = await failure(http.json(z.unknown(), "run search", "/a"));
    expect(err).toMatchObject({ code: "DOWNLOAD_TOO_LARGE", status: 413 });
    expect(err.message).toMatch(/per-file download cap of 1\.0 KiB \(SERVICE_MAX_BODY_BYTES\)/);
    await http.json(z.unknown(), "b", "/b");
    expect(budget.total).toBe('{"ok":true}'.length);
  });
});
