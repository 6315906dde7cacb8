import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startService } from "../support/http-service.js";
import { builtCli } from "../support/built.js";

/**
 * `watch --stop-on --signal-pid` stopping a real Python training process started as CI scripts start it: in the
 * background of a non-interactive shell (`bash -c 'python3 train.py & ml-diagnose watch … --signal-pid $!'`), where
 * SIGINT is ignored, and one that catches SIGINT and goes on. The real `ml-diagnose` process, the real service.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const TRAIN = join(ROOT, "test/fixtures/watch-stop/train.py");

let svc: RunningService;
let tmp: string;
beforeAll(async () => {
  svc = await startService();
  tmp = await mkdtemp(join(tmpdir(), "ml-diagnose-stop-"));
});
afterAll(async () => {
  await svc?.close();
  await rm(tmp, { recursive: true, force: true });
});

/**
 * Runs the script in bash -c (no terminal, no job control) and returns what it printed. After the watch ends the
 * shell says whether the training is still there (`kill -0`), then kills it so no test leaves it behind.
 */
async function script(folder: string, trainFlags: string): Promise<{ stdout: string; stderr: string }> {
  const command = [
    `python3 ${TRAIN} ${folder} ${trainFlags} &`,
    "pid=$!",
    `node ${builtCli()} watch ${folder} --interval 1 --idle 60 --stop-on critical --signal-pid $pid --signal-grace 2`,
    'echo "watch exit=$?"',
    'if kill -0 $pid 2>/dev/null; then echo "training still running"; kill -KILL $pid; else echo "training gone"; fi',
  ].join("\n");
  const child = spawn("bash", ["-c", command], { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ML_DIAGNOSE_SERVER: svc.url } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  await once(child, "close");
  return { stdout, stderr };
}

describe("watch --stop-on stops the training for real", { timeout: 180_000 }, () => {
  it("a background job of a non-interactive shell ignores SIGINT: it is seen and stopped with SIGTERM at once", async () => {
    const r = await script(join(tmp, "bg"), "");
    expect(r.stdout, r.stderr).toContain("[training.nonfinite_loss]");
    expect(r.stderr).toMatch(/process \d+ ignores SIGINT \(a background job of a non-interactive shell does\): sending SIGTERM/);
    expect(r.stderr).toMatch(/process \d+ ended after SIGTERM/);
    expect(r.stderr).not.toContain("sent SIGINT");
    expect(r.stdout).toContain("watch exit=1");
    expect(r.stdout).toContain("training gone");
  });

  it("a process that catches SIGINT and goes on gets SIGTERM after --signal-grace", async () => {
    const r = await script(join(tmp, "catches"), "--catch-sigint");
    expect(r.stdout, r.stderr).toContain("SIGINT caught; going on");
    expect(r.stderr).toMatch(/sent SIGINT to process \d+; waiting up to 2 s \(--signal-grace\) for it to stop/);
    expect(r.stderr).toMatch(/process \d+ still runs 2 s after SIGINT: sending SIGTERM/);
    expect(r.stderr).toMatch(/process \d+ ended after SIGTERM/);
    expect(r.stdout).toContain("watch exit=1");
    expect(r.stdout).toContain("training gone");
  });
});
