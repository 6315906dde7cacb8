import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";
import { networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { debugUiEnabled, isLoopbackHost, loadServiceSettings } from "../../config/env.js";
import { type RunningService, startService } from "../support/http-service.js";
import { builtServer } from "../support/built.js";

const ROOT = new URL("../../", import.meta.url).pathname;

/** This machine's first non-loopback IPv4 address, if it has one. */
function outsideAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return null;
}

/** Whether a TCP connection to host:port is accepted. */
async function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.on("connect", () => resolve(true)).on("error", () => resolve(false));
    socket.on("close", () => socket.destroy());
    socket.once("connect", () => socket.end());
  });
}

describe("listen address and debug surfaces", () => {
  let svc: RunningService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it("defaults HOST to loopback and serves the debug surfaces only there unless SERVICE_DEBUG_UI says", () => {
    expect(loadServiceSettings({}).HOST).toBe("127.0.0.1");
    expect(["127.0.0.1", "127.1.2.3", "::1", "localhost"].every(isLoopbackHost)).toBe(true);
    expect(["0.0.0.0", "::", "10.0.0.5", "127.0.0.1.example"].some(isLoopbackHost)).toBe(false);
    expect(debugUiEnabled(loadServiceSettings({}))).toBe(true);
    expect(debugUiEnabled(loadServiceSettings({ HOST: "0.0.0.0" }))).toBe(false);
    expect(debugUiEnabled(loadServiceSettings({ HOST: "0.0.0.0", SERVICE_DEBUG_UI: "1" }))).toBe(true);
    expect(debugUiEnabled(loadServiceSettings({ SERVICE_DEBUG_UI: "0" }))).toBe(false);
  });

  it("beyond loopback: /debug and /v1/graph are 404 naming SERVICE_DEBUG_UI, /readyz gives the mode only", async () => {
    svc = await startService({ HOST: "0.0.0.0", SERVICE_LLM_MODEL_NAME: "private-model", SERVICE_LLM_BASE_URL: "http://127.0.0.1:9/v1", SERVICE_LLM_TEMPERATURE: "0", SERVICE_LLM_MAX_TOKENS: "100" });
    for (const path of ["/debug", "/debug/samples", "/v1/graph", "/v1/graph?format=mermaid"]) {
      const res = await fetch(`${svc.url}${path}`);
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toMatch(/set SERVICE_DEBUG_UI=1/);
    }
    const ready = await (await fetch(`${svc.url}/readyz`)).text();
    expect(JSON.parse(ready).llm).toEqual({ mode: "llm" });
    expect(ready).not.toContain("private-model");
    expect(ready).not.toContain("127.0.0.1:9");
  });

  it("beyond loopback with SERVICE_DEBUG_UI=1, and on loopback by default, they are served", async () => {
    const settings: Array<Record<string, string>> = [{ HOST: "0.0.0.0", SERVICE_DEBUG_UI: "1" }, {}];
    for (const env of settings) {
      svc = await startService(env);
      expect((await fetch(`${svc.url}/debug`)).status).toBe(200);
      expect((await fetch(`${svc.url}/v1/graph`)).status).toBe(200);
      expect((await (await fetch(`${svc.url}/readyz`)).json()).llm).toMatchObject({ mode: "deterministic" });
      await svc.close();
      svc = undefined;
    }
  });

  it("offers the samples that ship with the service (web/samples), not the test folder", async () => {
    svc = await startService();
    const shipped = readdirSync(new URL("../../web/samples/", import.meta.url)).filter((f) => f.endsWith(".json")).sort();
    const listed = (await (await fetch(`${svc.url}/debug/samples`)).json()) as Array<{ file: string }>;
    expect(listed.map((s) => s.file)).toEqual(shipped);
    const first = shipped[0]!;
    expect(await (await fetch(`${svc.url}/debug/samples/${first}`)).text()).toBe(readFileSync(new URL(`../../web/samples/${first}`, import.meta.url), "utf8"));
  });

  it("npm start with no HOST listens on 127.0.0.1 only", { timeout: 90_000 }, async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0" };
    const child = spawn(process.execPath, [builtServer()], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
    try {
      let output = "";
      const listening = await new Promise<{ host: string; port: number }>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          const line = output.split("\n").find((l) => l.includes('"msg":"listening"'));
          if (line) resolve(JSON.parse(line) as { host: string; port: number });
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      expect(listening.host).toBe("127.0.0.1");
      expect(await accepts("127.0.0.1", listening.port)).toBe(true);
      const outside = outsideAddress();
      if (outside) expect(await accepts(outside, listening.port)).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
