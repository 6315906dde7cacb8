import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/client-process.js";
import { type RunningService, startService } from "../support/http-service.js";
import { builtCli } from "../support/built.js";

/**
 * Every way a run can fail ends in its documented exit code (docs/client.md) with one line on stderr, never a
 * Node stack: the real `ml-diagnose` process, against the real service or a server that is not the service.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const BENIGN = "test/fixtures/checkpoint/safetensors/benign-mlp.safetensors";

let svc: RunningService;
let tmp: string;
let other: Server;
let otherUrl: string;

/** A web server that is not the diagnosis service: 404 pages for everything, a 200 HTML page on /v1/analyse?page. */
beforeAll(async () => {
  svc = await startService();
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-exit-"));
  other = createServer((req, res) => {
    req.resume();
    if (req.url === "/page/v1/analyse") res.writeHead(200, { "content-type": "text/html" }).end("<html><body>Welcome to nginx!</body></html>");
    else res.writeHead(404, { "content-type": "text/html" }).end("<html><body>404 Not Found</body></html>");
  });
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await svc?.close();
  await new Promise((r) => other?.close(r));
  await rm(tmp, { recursive: true, force: true });
});

/** One line on stderr, no stack frame. */
function oneLine(stderr: string): void {
  expect(stderr.trim().split("\n")).toHaveLength(1);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe("exit codes that never lie", { timeout: 120_000 }, () => {
  it("--output into a folder that does not exist: exit 2 before anything is sent", async () => {
    const out = join(tmp, "missing", "report.md");
    const r = await runCli(["analyse", BENIGN, "-q", "--output", out], { ML_DIAGNOSE_SERVER: otherUrl });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--output ${out}: the folder ${join(tmp, "missing")} does not exist`);
    oneLine(r.stderr);
  });

  it("--output onto a folder: exit 2 with the fix", async () => {
    const r = await runCli(["analyse", BENIGN, "-q", "--output", tmp], { ML_DIAGNOSE_SERVER: svc.url });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--output ${tmp} is a folder; give a file name`);
    oneLine(r.stderr);
    const compare = await runCli(["compare", "test/fixtures/real/runs/lightning-csv-adam-lr-explodes", "-q", "--output", tmp], { ML_DIAGNOSE_SERVER: svc.url });
    expect(compare.code).toBe(2);
    expect(compare.stderr).toContain("is a folder");
  });

  it("a reader that has gone (`| true`) ends quietly with the run's own code", async () => {
    const command = `node ${builtCli()} analyse ${BENIGN} --format json -q | true; echo "exit=\${PIPESTATUS[0]}" >&2`;
    // Not spawnSync: the service runs in this process and must go on answering.
    const child = spawn("bash", ["-c", command], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ML_DIAGNOSE_SERVER: svc.url } });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    await once(child, "close");
    expect(stderr.trim()).toBe("exit=0");
  });

  it("a 404 from a server that is not the service says so, and says nothing of --mlflow-run (exit 4)", async () => {
    const r = await runCli(["analyse", BENIGN, "-q"], { ML_DIAGNOSE_SERVER: otherUrl });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("the service answered 404: <html><body>404 Not Found</body></html>");
    expect(r.stderr).toContain("is --server (or ML_DIAGNOSE_SERVER) pointing at the diagnosis service?");
    expect(r.stderr).not.toContain("mlflow");
  });

  it("a 200 that is not an analysis (a web page) is exit 4, not a JSON stack trace", async () => {
    const r = await runCli(["analyse", BENIGN, "-q"], { ML_DIAGNOSE_SERVER: `${otherUrl}/page` });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("the answer is not JSON, so not an analysis response (it starts '<html><body>Welcome to nginx!");
    oneLine(r.stderr);
  });
});
