import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startProcess } from "../support/service-process.js";
import { builtServer } from "../support/built.js";

const root = new URL("../../", import.meta.url).pathname;
const body = readFileSync(new URL("../fixtures/samples/tabular-healthy.json", import.meta.url), "utf8");

let running: ChildProcess | null = null;
afterEach(() => {
  running?.kill("SIGKILL");
  running = null;
});

// Each test starts a real process: allow for a loaded two-core machine.
describe("the service process", { timeout: 90_000 }, () => {
  it("starts on the configured port and answers /readyz in deterministic mode", async () => {
    const svc = await startProcess();
    running = svc.child;
    const ready = await (await fetch(`${svc.url}/readyz`)).json();
    expect(ready).toMatchObject({ status: "ready", llm: { mode: "deterministic" } });
  });

  it("fails to start with a message naming a bad variable", async () => {
    const child = spawn(process.execPath, [builtServer()], {
      cwd: root,
      env: { PATH: process.env.PATH, SERVICE_LLM_MODEL_NAME: "m", SERVICE_LLM_MAX_TOKENS: "100" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(stderr).toMatch(/SERVICE_LLM_TEMPERATURE must be set/);
  });

  it("on SIGTERM refuses new analyses with 503 (Retry-After), finishes the one already arrived, then exits 0", async () => {
    const svc = await startProcess({ SERVICE_SHUTDOWN_GRACE_MS: "20000" });
    running = svc.child;
    // Hold a request open by sending its body in two halves: it arrived before the signal, so it is served.
    const req = http.request(`${svc.url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json" } });
    const response = new Promise<{ status: number; text: string }>((resolve) => {
      req.on("response", async (res) => {
        let text = "";
        for await (const c of res) text += c;
        resolve({ status: res.statusCode!, text });
      });
    });
    req.write(body.slice(0, 1000));
    for (;;) {
      const r = await (await fetch(`${svc.url}/readyz`)).json();
      if (r.open_requests === 1) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const exited = once(svc.child, "exit");
    svc.child.kill("SIGTERM");
    for (;;) {
      const r = await fetch(`${svc.url}/readyz`);
      if (r.status === 503) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const refused = await fetch(`${svc.url}/v1/analyse`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect((await refused.json()).code).toBe("SHUTTING_DOWN");
    req.end(body.slice(1000));
    const finished = await response;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.text).dataset_name).toBe("credit-risk-balanced");
    const [code] = await exited;
    expect(code).toBe(0);
    running = null;
  });
});
