import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../server/errors.js";
import { type CountingServer, startCountingServer } from "../support/counting-server.js";
import { type RunningService, startService } from "../support/http-service.js";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  json: { detail: string; code: string; request_id: string };
}

/** A raw request (any method, header and path bytes), so the service sees exactly what a hostile client sends. */
function send(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    // With its length declared: Node sends a DELETE body without one, and the server would read it as the next request.
    const length = body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) };
    const req = http.request({ hostname, port, method, path, headers: { ...headers, ...length } }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const JSON_TYPE = { "content-type": "application/json" };
const WORK_ROUTES = ["/v1/analyse", "/v1/analyze", "/v1/report", "/debug/report"];

describe("the error contract on every route", () => {
  let svc: RunningService;
  let tracking: CountingServer;
  const answers: Answer[] = [];
  const call = async (...args: Parameters<typeof send> extends [string, ...infer R] ? R : never) => {
    const answer = await send(svc.url, ...args);
    answers.push(answer);
    return answer;
  };
  beforeAll(async () => {
    tracking = await startCountingServer({ status: 404, body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: "Run not found.\nTraceback (most recent call last):\n  File x" } });
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: tracking.url });
  });
  afterAll(async () => {
    await svc.close();
    await tracking.close();
  });

  it("a wrong method is a 405 with Allow naming the route's methods", async () => {
    for (const [method, path, allow] of [
      ["PUT", "/v1/analyse", "POST"],
      ["GET", "/v1/analyze", "POST"],
      ["GET", "/v1/report", "POST"],
      ["DELETE", "/healthz", "GET, HEAD"],
      ["POST", "/readyz", "GET, HEAD"],
      ["POST", "/v1/knowledge", "GET, HEAD"],
      ["PATCH", "/openapi.json", "GET, HEAD"],
    ] as const) {
      const res = await call(method, path, JSON_TYPE, "{}");
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.json.code).toBe("METHOD_NOT_ALLOWED");
    }
    expect((await call("GET", "/v2/nothing")).status).toBe(404);
  });

  it("a body the server cannot decode (charset, Content-Encoding) is a 415 on every work route", async () => {
    for (const path of WORK_ROUTES) {
      for (const headers of [
        { "content-type": "application/json; charset=latin1" },
        { "content-type": "application/json; charset=utf-7" },
        { "content-type": "application/json; charset=nonsense-42" },
        { ...JSON_TYPE, "content-encoding": "gzip" },
        { ...JSON_TYPE, "content-encoding": "x-unknown" },
      ]) {
        const res = await call("POST", path, headers, "{}");
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(415);
        expect(res.json.code).toBe("UNSUPPORTED_MEDIA_TYPE");
      }
    }
  });

  it("every 400 detail starts with 'Error decoding request:', whichever route refused", async () => {
    const refusals = [
      await call("POST", "/v1/analyse", JSON_TYPE, "{"),
      await call("POST", "/v1/report", JSON_TYPE, '{"dataset_name": 5}'),
      await call("POST", "/debug/report", JSON_TYPE, "[]"),
      await call("POST", "/debug/report", JSON_TYPE, "{"),
      await call("GET", "/v1/knowledge"),
      await call("GET", "/v1/knowledge?q=a&limit=many"),
      await call("GET", "/v1/graph?format=png"),
      await call("GET", "/debug/samples/%E0%A4%A"),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(res.json.detail).toMatch(/^Error decoding request: \S/);
      expect(res.json.detail).not.toMatch(/^Error decoding request: Error decoding request:/);
    }
  });

  it("a string past its bound is a 400 that does not echo it", async () => {
    const huge = "d".repeat(4 * 1024 * 1024);
    for (const request of [
      { dataset_name: huge },
      { language: huge },
      { model_name: huge },
      { mlflow: { experiment: huge, run_name: "r" } },
      { mlflow: { run_uri: `runs:/abc/${huge}` } },
      { dataset_artifacts: { dataset_name: huge, num_rows: 10 } },
    ]) {
      const res = await call("POST", "/v1/analyse", JSON_TYPE, JSON.stringify(request));
      expect(res.status).toBe(400);
      expect(res.json.detail).toMatch(/^Error decoding request: [\w.]+: (Too big|longer than)/);
      expect(res.json.detail.length).toBeLessThan(200);
    }
  });

  it("an upstream message is passed on as one line", async () => {
    const res = await call("POST", "/v1/analyse", JSON_TYPE, JSON.stringify({ mlflow: { run_id: "0123456789abcdef0123456789abcdef" } }));
    expect(res.status).toBe(404);
    expect(res.json.detail).toContain("Run not found. Traceback (most recent call last): File x");
    expect(res.json.detail).not.toMatch(/[\r\n]/);
  });

  it("every code above is one of the documented list", () => {
    expect(answers.length).toBeGreaterThan(30);
    for (const { json } of answers) expect(ERROR_CODES.has(json.code), json.code).toBe(true);
  });
});
