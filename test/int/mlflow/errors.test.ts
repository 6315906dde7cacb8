import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../../support/http-service.js";
import { workspacesIn } from "../../support/workspaces-left.js";

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("tracking-server errors over HTTP", () => {
  let workspaces: string;
  beforeAll(async () => {
    workspaces = await mkdtemp(join(tmpdir(), "mlflow-errors-"));
  });
  afterAll(() => rm(workspaces, { recursive: true, force: true }));

  it("an unreachable server is a 503 naming the configured URI without its credentials", async () => {
    const port = await closedPort();
    const svc: RunningService = await startService({
      SERVICE_MLFLOW_TRACKING_URI: `http://ana:pa55word@127.0.0.1:${port}/mlflow`,
      SERVICE_MLFLOW_TOKEN: "tok-never-shown",
      SERVICE_WORKSPACE_DIR: workspaces,
    });
    try {
      const res = await postJson(`${svc.url}/v1/analyse`, { mlflow: { run_id: "abc123" } });
      expect(res.status).toBe(503);
      expect(res.json).toMatchObject({ code: "MLFLOW_UNAVAILABLE", detail: expect.stringContaining(`the tracking server http://127.0.0.1:${port}/mlflow is unreachable (ECONNREFUSED)`) });
      expect(res.text).not.toMatch(/ana|pa55word|tok-never-shown/);
      expect(svc.logs.join("\n")).not.toMatch(/pa55word|tok-never-shown/);
      expect(workspacesIn(workspaces)).toEqual([]);
    } finally {
      await svc.close();
    }
  });

  it("an mlflow reference without a configured server is a 400 saying so", async () => {
    const svc = await startService({});
    try {
      const res = await postJson(`${svc.url}/v1/analyse`, { mlflow: { run_uri: "runs:/abc123/model" } });
      expect(res.status).toBe(400);
      expect(res.json).toMatchObject({
        code: "MLFLOW_NOT_CONFIGURED",
        detail: "Error decoding request: mlflow: this service has no tracking server configured (SERVICE_MLFLOW_TRACKING_URI is unset); send the artifacts inline instead",
      });
    } finally {
      await svc.close();
    }
  });
});
