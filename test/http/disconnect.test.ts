import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WORKSPACE_PREFIX } from "../../artifacts/workspace.js";
import { type CountingServer, startCountingServer } from "../support/counting-server.js";
import { type FakeOpenAI, fakeModelEnv, startFakeOpenAI } from "../support/fake-openai.js";
import { type RunningService, startService } from "../support/http-service.js";

const body = readFileSync(new URL("../fixtures/samples/tabular-drift-evidently.json", import.meta.url), "utf8");

/** Sends an analysis over a real socket that the returned controller closes mid-request. */
function sendAndKeepHandle(url: string, payload: string, requestId: string) {
  const client = new AbortController();
  const answered = fetch(`${url}/v1/analyse`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-request-id": requestId },
    body: payload,
    signal: client.signal,
  }).catch((err: Error) => err);
  return { client, answered };
}

/** How long the polls below wait on a loaded machine; the model answers only after a minute, so it is no race. */
const PATIENCE = { timeout: 15_000 };

/** The request workspaces under a workspace root, whatever folders the process keeps them in. */
const requestWorkspaces = (root: string) => readdirSync(root, { recursive: true }).filter((p) => basename(String(p)).startsWith(WORKSPACE_PREFIX));

const logLines = (svc: RunningService) => svc.logs.map((line) => JSON.parse(line) as Record<string, unknown>);

/** The disconnect is logged once at info with the request id, and nothing about the request at error. */
function expectInfoOnly(svc: RunningService, requestId: string) {
  const mine = logLines(svc).filter((l) => l.request_id === requestId);
  expect(mine.filter((l) => String(l.msg).startsWith("client disconnected")).map((l) => l.level)).toEqual(["info"]);
  expect(mine.filter((l) => l.level === "error")).toEqual([]);
}

describe("a client that disconnects mid-analysis", () => {
  let svc: RunningService | undefined;
  let llm: FakeOpenAI | undefined;
  let tracking: CountingServer | undefined;
  let workspaces: string | undefined;
  afterEach(async () => {
    await svc?.close();
    await llm?.close();
    await tracking?.close();
    if (workspaces) rmSync(workspaces, { recursive: true, force: true });
    svc = llm = tracking = workspaces = undefined;
  });

  it("has its model calls aborted and its slot released, and is logged at info", async () => {
    // A model that would take a minute per call: only an abort ends the calls in time.
    llm = await startFakeOpenAI(() => ({ delayMs: 60_000, content: "{}" }));
    svc = await startService(fakeModelEnv(llm.baseURL, { SERVICE_LLM_MAX_RETRIES: "0" }));
    const { client, answered } = sendAndKeepHandle(svc.url, body, "gone-during-llm");
    await expect.poll(() => llm!.requests.length, PATIENCE).toBeGreaterThan(0);
    expect(svc.service.admission.inFlight).toBe(1);
    client.abort();
    expect(await answered).toBeInstanceOf(Error);
    await expect.poll(() => svc!.service.admission.inFlight, PATIENCE).toBe(0);
    // Every model call that reached the endpoint had its connection closed before an answer came.
    await expect.poll(() => llm!.abandoned > 0 && llm!.abandoned === llm!.requests.length, PATIENCE).toBe(true);
    expectInfoOnly(svc, "gone-during-llm");
    expect(svc.service.admission.open).toBe(0);
  });

  it("has its tracking-server pull aborted and its workspace removed", async () => {
    tracking = await startCountingServer("hold");
    workspaces = mkdtempSync(join(tmpdir(), "disconnect-ws-"));
    svc = await startService({ SERVICE_MLFLOW_TRACKING_URI: tracking.url, SERVICE_WORKSPACE_DIR: workspaces });
    const payload = JSON.stringify({ mlflow: { run_id: "0123456789abcdef0123456789abcdef" } });
    const { client, answered } = sendAndKeepHandle(svc.url, payload, "gone-during-pull");
    await expect.poll(() => tracking!.received.length, PATIENCE).toBeGreaterThan(0);
    expect(requestWorkspaces(workspaces)).toHaveLength(1);
    client.abort();
    expect(await answered).toBeInstanceOf(Error);
    await expect.poll(() => svc!.service.admission.inFlight, PATIENCE).toBe(0);
    await expect.poll(() => tracking!.abandoned, PATIENCE).toBeGreaterThan(0);
    await expect.poll(() => requestWorkspaces(workspaces!), PATIENCE).toEqual([]);
    expectInfoOnly(svc, "gone-during-pull");
  });
});
