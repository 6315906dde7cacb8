import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAllChildren, runCommand, spawnTracked } from "../../../bench/lib/processes.js";
import { childEnv } from "../../../bench/lib/service.js";

/** Running, not a zombie waiting to be reaped. */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};

describe("bench processes", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-proc-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("stops a process together with the children it started", async () => {
    const pidFile = join(dir, "grandchild.pid");
    // A shell that starts a long sleep in the background and waits: the sleep is a grandchild.
    const tracked = spawnTracked("sh", ["-c", `sleep 60 & echo $! > ${pidFile}; wait`], { cwd: dir, env: childEnv({}), logFile: join(dir, "sh.log") });
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        try {
          if (readFileSync(pidFile, "utf8").trim()) (clearInterval(poll), resolve());
        } catch {
          // not written yet
        }
      }, 10);
    });
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);
    await tracked.stop(2000);
    expect(alive(tracked.child.pid!)).toBe(false);
    // SIGKILL is delivered asynchronously: allow the kernel a bounded moment.
    for (let i = 0; i < 100 && alive(grandchild); i++) await new Promise((r) => setTimeout(r, 10));
    expect(alive(grandchild)).toBe(false);
  });

  it("kills every live child at once on the way out", async () => {
    const tracked = spawnTracked("sleep", ["60"], { cwd: dir, env: childEnv({}), logFile: join(dir, "sleep.log") });
    killAllChildren();
    expect(await tracked.exited).toBeNull();
  });

  it("passes no SERVICE_* variable of the caller to a child", async () => {
    process.env.SERVICE_LLM_CACHE = "true";
    try {
      const out = await runCommand("sh", ["-c", "env"], { cwd: dir, env: childEnv({ EXTRA: "1" }), timeoutMs: 5000 });
      expect(out).not.toContain("SERVICE_LLM_CACHE");
      expect(out).toContain("EXTRA=1");
    } finally {
      delete process.env.SERVICE_LLM_CACHE;
    }
  });

  it("reports a failing command with its error output", async () => {
    await expect(runCommand("sh", ["-c", "echo broken >&2; exit 3"], { cwd: dir, env: childEnv({}), timeoutMs: 5000 })).rejects.toThrow(/failed \(3\): broken/);
  });
});
