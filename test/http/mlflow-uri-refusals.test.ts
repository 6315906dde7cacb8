import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CountingServer, startCountingServer } from "../support/counting-server.js";
import { postJson, type RunningService, startService } from "../support/http-service.js";

const RUN = "0123456789abcdef0123456789abcdef";

/** Traversal and smuggling forms of an artifact path, the rule each one breaks, and (third) the rule a checkpoint_path names when it differs. */
const HOSTILE_PATHS: Array<[string, string, string?]> = [
  ["../../etc", "DOT_DOT_SEGMENT"],
  ["metrics/../../../mlruns", "DOT_DOT_SEGMENT"],
  ["%2e%2e/%2e%2e/etc", "ENCODED_CHARACTER"],
  ["%2E%2E/secrets", "ENCODED_CHARACTER"],
  [".%2e/secrets", "ENCODED_CHARACTER"],
  ["%252e%252e/secrets", "ENCODED_CHARACTER"],
  ["a%2f..%2fb", "ENCODED_CHARACTER"],
  ["/etc/passwd", "ABSOLUTE_PATH"],
  ["C:/Windows/system.ini", "ABSOLUTE_PATH"],
  ["weights\\model.pt", "BACKSLASH"],
  ["..\\..\\etc", "BACKSLASH", "DOT_DOT_SEGMENT"],
  ["model\u0000.pt", "CONTROL_CHARACTER", "NUL_BYTE"],
  ["logs\nforged.txt", "CONTROL_CHARACTER"],
];

describe("MLflow URIs from a request are checked before the tracking server is called", () => {
  let tracking: CountingServer;
  let svc: RunningService;
  beforeAll(async () => {
    tracking = await startCountingServer({ status: 404, body: { error_code: "RESOURCE_DOES_NOT_EXIST", message: "no such run" } });
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: tracking.url });
  });
  afterAll(async () => {
    await svc.close();
    await tracking.close();
  });

  it.each(HOSTILE_PATHS)("mlflow.run_uri with the path %j is a 400 (%s)", async (path, rule) => {
    const res = await postJson(`${svc.url}/v1/analyse`, { mlflow: { run_uri: `runs:/${RUN}/${path}` } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe("BAD_REQUEST");
    expect(res.json.detail).toMatch(new RegExp(`^Error decoding request: mlflow\\.run_uri: refused \\(${rule}\\): `));
    expect(tracking.received).toEqual([]);
  });

  it.each(["s3://bucket/run", "file:///etc/passwd", "http://elsewhere/runs/1", "models:/m/1"])("mlflow.run_uri %j (not runs:/) is a 400", async (uri) => {
    const res = await postJson(`${svc.url}/v1/analyse`, { mlflow: { run_uri: uri } });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(/^Error decoding request: mlflow\.run_uri: /);
    expect(tracking.received).toEqual([]);
  });

  const checkpointUris = HOSTILE_PATHS.flatMap(([path, runUriRule, rule = runUriRule]) => [
    [`runs:/${RUN}/${path}`, rule],
    [`models:/classifier/3/${path}`, rule],
    [`mlflow-artifacts:/1/${RUN}/artifacts/${path}`, rule],
  ]);
  it.each(checkpointUris)("checkpoint_path %j is a 400 (%s)", async (uri, rule) => {
    const res = await postJson(`${svc.url}/v1/analyse`, { model_checkpoint_artifacts: { checkpoint_path: uri } });
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(new RegExp(`^Error decoding request: model_checkpoint_artifacts\\.checkpoint_path: refused \\(${rule}\\): `));
    expect(tracking.received).toEqual([]);
  });

  it("forwards a well-formed run_uri (the server's 404 comes back naming the run)", async () => {
    const res = await postJson(`${svc.url}/v1/analyse`, { mlflow: { run_uri: `runs:/${RUN}/lightning_logs/version_3` } });
    expect(res.status).toBe(404);
    expect(res.json.code).toBe("MLFLOW_NOT_FOUND");
    expect(tracking.received.some((path) => path.includes(RUN))).toBe(true);
  });
});
