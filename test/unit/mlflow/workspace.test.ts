import { mkdirSync, readdirSync, readFileSync, utimesSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ByteBudget } from "../../../artifacts/mlflow/budget.js";
import type { ArtifactSource } from "../../../artifacts/mlflow/client.js";
import { saveFile } from "../../../artifacts/mlflow/files.js";
import { createWorkspace, sweepStaleWorkspaces, WORKSPACE_PREFIX } from "../../../artifacts/workspace.js";
import { fakeTransport } from "./fake-tracking.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "ws-test-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("request workspace", () => {
  it("is a fresh directory with the recognizable prefix, removed by dispose (twice is fine)", async () => {
    const ws = await createWorkspace(root);
    expect(readdirSync(root)).toEqual([ws.dir.slice(root.length + 1)]);
    expect(ws.dir.startsWith(join(root, WORKSPACE_PREFIX))).toBe(true);
    await Promise.all([ws.dispose(), ws.dispose()]);
    expect(readdirSync(root)).toEqual([]);
  });

  it("sweeps only workspaces older than the limit, and nothing that is not a workspace", async () => {
    const now = Date.now();
    const stale = await createWorkspace(root);
    const fresh = await createWorkspace(root);
    mkdirSync(join(root, "someone-elses-dir"));
    utimesSync(stale.dir, new Date(now - 700_000), new Date(now - 700_000));
    utimesSync(join(root, "someone-elses-dir"), new Date(now - 700_000), new Date(now - 700_000));
    const removed = await sweepStaleWorkspaces(root, 600_000, now);
    expect(removed).toEqual([stale.dir.slice(root.length + 1)]);
    expect(readdirSync(root).sort()).toEqual([fresh.dir.slice(root.length + 1), "someone-elses-dir"].sort());
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
