import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ByteBudget } from "../../../artifacts/mlflow/budget.js";
import type { ArtifactSource } from "../../../artifacts/mlflow/client.js";
import { saveFile } from "../../../artifacts/mlflow/files.js";
import { createWorkspace, PROCESS_DIR_PREFIX, processDirName, removeOwnWorkspaces, sweepStaleWorkspaces, WORKSPACE_PREFIX } from "../../../artifacts/workspace.js";
import { fakeTransport } from "./fake-tracking.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ws-test-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const own = () => processDirName();
/** A pid no process has any more: a child that has exited. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;
const age = (path: string, ms: number) => utimesSync(path, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe("request workspace", () => {
  it("is a fresh directory in this process's directory (host and pid in its name), removed by dispose (twice is fine)", async () => {
    const ws = await createWorkspace(root);
    expect(own()).toBe(`${PROCESS_DIR_PREFIX}${hostname().replace(/[^A-Za-z0-9._-]/g, "_")}-${process.pid}`);
    expect(readdirSync(root)).toEqual([own()]);
    expect(ws.dir.startsWith(join(root, own(), WORKSPACE_PREFIX))).toBe(true);
    await Promise.all([ws.dispose(), ws.dispose()]);
    expect(readdirSync(join(root, own()))).toEqual([]);
    removeOwnWorkspaces(root);
    expect(readdirSync(root)).toEqual([]);
  });

  it("at start-up removes at once the directories of this host's processes that are gone, whatever their age", async () => {
    const dead = processDirName(hostname(), deadPid());
    const live = processDirName(hostname(), process.ppid);
    for (const name of [dead, live, own()]) mkdirSync(join(root, name, `${WORKSPACE_PREFIX}a`), { recursive: true });
    // Our own pid before we made anything: a restarted container's predecessor had it.
    const removed = await sweepStaleWorkspaces(root, 600_000);
    expect(removed.sort()).toEqual([dead, own()].sort());
    expect(readdirSync(root)).toEqual([live]);
    expect(readdirSync(join(root, live))).toEqual([`${WORKSPACE_PREFIX}a`]);
  });

  it("removes what it cannot tell from a live owner only past the age limit, and nothing that is not a workspace", async () => {
    const elsewhere = processDirName("another-host", 1);
    const live = processDirName(hostname(), process.ppid);
    for (const dir of [join(elsewhere, `${WORKSPACE_PREFIX}old`), join(elsewhere, `${WORKSPACE_PREFIX}new`), join(live, `${WORKSPACE_PREFIX}old`), `${WORKSPACE_PREFIX}flat-old`, `${WORKSPACE_PREFIX}flat-new`, "someone-elses-dir"]) {
      mkdirSync(join(root, dir), { recursive: true });
    }
    for (const dir of [join(elsewhere, `${WORKSPACE_PREFIX}old`), join(live, `${WORKSPACE_PREFIX}old`), `${WORKSPACE_PREFIX}flat-old`, "someone-elses-dir"]) age(join(root, dir), 700_000);
    const removed = await sweepStaleWorkspaces(root, 600_000);
    expect(removed.sort()).toEqual([join(elsewhere, `${WORKSPACE_PREFIX}old`), join(live, `${WORKSPACE_PREFIX}old`), `${WORKSPACE_PREFIX}flat-old`].sort());
    expect(readdirSync(root).sort()).toEqual([elsewhere, live, `${WORKSPACE_PREFIX}flat-new`, "someone-elses-dir"].sort());
    expect(readdirSync(join(root, elsewhere))).toEqual([`${WORKSPACE_PREFIX}new`]);
  });
});

/** A source whose one file streams `chunks`, then optionally fails. */
function streamingSource(chunks: Uint8Array[], failAfter = false): ArtifactSource {
  return {
    label: "run 'r1'",
    list: async () => [],
    open: async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const c of chunks) controller.enqueue(c);
          if (failAfter) controller.error(new TypeError("terminated"));
          else controller.close();
        },
      });
      return { response: new Response(body), touch: () => undefined, release: () => undefined, timedOut: () => false };
    },
  };
}

describe("saving a pulled file", () => {
  const kib = (n: number) => new Uint8Array(n * 1024).fill(7);
  const budget = (total: number, file: number) =>
    new ByteBudget(total, { bytes: file, variable: "SERVICE_MAX_DOWNLOAD_FILE_BYTES" }, { bytes: file, variable: "SERVICE_MAX_BODY_BYTES" });

  it("streams into the workspace and counts the bytes", async () => {
    const http = fakeTransport(fetch, { budget: budget(1 << 20, 1 << 20) });
    const target = await saveFile(http, streamingSource([kib(1), kib(2)]), { path: "w/m.safetensors", is_dir: false }, join(root, "checkpoint/m.safetensors"));
    expect(readFileSync(target).length).toBe(3 * 1024);
    expect(http.budget.total).toBe(3 * 1024);
  });

  it("stops at the per-file cap while bytes arrive (no listed size), leaving no half file", async () => {
    const http = fakeTransport(fetch, { budget: budget(1 << 20, 2048) });
    const save = saveFile(http, streamingSource([kib(1), kib(1), kib(1)]), { path: "w/m.ckpt", is_dir: false }, join(root, "checkpoint/m.ckpt"));
    await expect(save).rejects.toMatchObject({ code: "DOWNLOAD_TOO_LARGE", message: expect.stringContaining("over the per-file download cap of 2.0 KiB") });
    expect(readdirSync(join(root, "checkpoint"))).toEqual([]);
  });

  it("refuses a file whose listed size is over a cap before opening it", async () => {
    let opened = false;
    const source: ArtifactSource = { ...streamingSource([]), open: async () => ((opened = true), ({}) as never) };
    const http = fakeTransport(fetch, { budget: budget(4096, 1 << 20) });
    const save = saveFile(http, source, { path: "w/m.ckpt", is_dir: false, file_size: 5000 }, join(root, "checkpoint/m.ckpt"));
    await expect(save).rejects.toMatchObject({ code: "DOWNLOAD_TOO_LARGE", message: expect.stringContaining("per-request download cap of 4.0 KiB (SERVICE_MAX_DOWNLOAD_BYTES)") });
    expect(opened).toBe(false);
  });

  it("removes the part file when the transfer breaks off", async () => {
    const http = fakeTransport(fetch, { budget: budget(1 << 20, 1 << 20) });
    const save = saveFile(http, streamingSource([kib(1)], true), { path: "w/m.ckpt", is_dir: false }, join(root, "checkpoint/m.ckpt"));
    await expect(save).rejects.toMatchObject({ code: "MLFLOW_UNAVAILABLE", message: expect.stringContaining("broke off") });
    expect(readdirSync(join(root, "checkpoint"))).toEqual([]);
  });
});
