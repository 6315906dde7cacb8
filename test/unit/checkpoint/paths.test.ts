import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckpointPathError, checkpointDownloadPath, resolveCheckpointPath } from "../../../nodes/checkpoint/paths.js";

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "ckpt-paths-")));
  root = join(base, "artifacts");
  outside = join(base, "elsewhere");
  mkdirSync(join(root, "run1"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "run1", "model.safetensors"), "x");
  writeFileSync(join(outside, "secret.pt"), "x");
  symlinkSync(join(outside, "secret.pt"), join(root, "run1", "link.pt"));
  symlinkSync(outside, join(root, "escape"));
  symlinkSync(join(root, "run1", "model.safetensors"), join(root, "run1", "alias.safetensors"));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

async function refusal(path: string, roots: string[] = [root]): Promise<CheckpointPathError> {
  try {
    await resolveCheckpointPath(path, roots);
  } catch (err) {
    if (err instanceof CheckpointPathError) return err;
    throw err;
  }
  throw new Error(`${path} was accepted`);
}

describe("resolveCheckpointPath", () => {
  it("accepts a file under a root and one reached by a symlink that stays inside", async () => {
    await expect(resolveCheckpointPath(join(root, "run1", "model.safetensors"), [root])).resolves.toEqual({ kind: "file", path: join(root, "run1", "model.safetensors"), size: 1 });
    await expect(resolveCheckpointPath(join(root, "run1", "alias.safetensors"), [root])).resolves.toMatchObject({ path: join(root, "run1", "model.safetensors") });
  });

  it.each(["runs:/0a1b2c/checkpoints/last.ckpt", "models:/resnet/3", "mlflow-artifacts:/12/abc/artifacts/model.pt"])("passes the MLflow URI %s through", async (uri) => {
    await expect(resolveCheckpointPath(uri, [])).resolves.toEqual({ kind: "mlflow", uri });
  });

  it.each([
    ["", "EMPTY"],
    ["/data/a\0b.pt", "NUL_BYTE"],
    ["s3://bucket/model.pt", "UNSUPPORTED_SCHEME"],
    ["file:///etc/passwd", "UNSUPPORTED_SCHEME"],
    ["https://example.org/model.pt", "UNSUPPORTED_SCHEME"],
    ["model.pt", "NOT_ABSOLUTE"],
    ["runs:/abc/../../etc/passwd", "DOT_DOT_SEGMENT"],
  ])("refuses %j (%s)", async (path, rule) => {
    const err = await refusal(path);
    expect(err).toMatchObject({ rule, code: "CHECKPOINT_PATH_REFUSED", status: 400, field: "model_checkpoint_artifacts.checkpoint_path" });
    expect(err.message).toContain(`refused (${rule})`);
  });

  it("refuses `..` even when it would land back inside the root", async () => {
    expect((await refusal(`${root}/run1/../run1/model.safetensors`)).rule).toBe("DOT_DOT_SEGMENT");
  });

  it("refuses files outside every root, and any file when no root is configured", async () => {
    expect((await refusal(join(outside, "secret.pt"))).rule).toBe("OUTSIDE_ROOTS");
    expect((await refusal(`${root}-sibling/model.pt`)).rule).toBe("OUTSIDE_ROOTS");
    expect((await refusal(join(root, "run1", "model.safetensors"), [])).rule).toBe("NO_ROOTS_CONFIGURED");
  });

  it("refuses a symlink (to a file or through a directory) that escapes the root", async () => {
    expect((await refusal(join(root, "run1", "link.pt"))).rule).toBe("SYMLINK_ESCAPE");
    expect((await refusal(join(root, "escape", "secret.pt"))).rule).toBe("SYMLINK_ESCAPE");
  });

  it("refuses missing files", async () => {
    expect((await refusal(join(root, "run1", "nope.pt"))).rule).toBe("NOT_FOUND");
  });
});

describe("resolveCheckpointPath on a folder", () => {
  let folderRoot: string;
  beforeAll(() => {
    folderRoot = join(base, "folders");
    mkdirSync(join(folderRoot, "checkpoint-4", "sub"), { recursive: true });
    mkdirSync(join(folderRoot, "many"));
    writeFileSync(join(folderRoot, "checkpoint-4", "model.safetensors"), "xy");
    writeFileSync(join(folderRoot, "checkpoint-4", "sub", "optimizer.pt"), "xyz");
    writeFileSync(join(folderRoot, "checkpoint-4", ".hidden"), "x");
    symlinkSync(join(folderRoot, "checkpoint-4", "model.safetensors"), join(folderRoot, "checkpoint-4", "alias.safetensors"));
    for (let i = 0; i <= 1000; i++) writeFileSync(join(folderRoot, "many", `shard-${i}.safetensors`), "");
  });

  it("lists every file inside, through symlinks that stay inside, skipping hidden entries", async () => {
    const resolved = await resolveCheckpointPath(join(folderRoot, "checkpoint-4"), [folderRoot]);
    expect(resolved).toEqual({
      kind: "folder",
      path: join(folderRoot, "checkpoint-4"),
      files: [
        { path: join(folderRoot, "checkpoint-4", "model.safetensors"), relative: "alias.safetensors", size: 2 },
        { path: join(folderRoot, "checkpoint-4", "model.safetensors"), relative: "model.safetensors", size: 2 },
        { path: join(folderRoot, "checkpoint-4", "sub", "optimizer.pt"), relative: "sub/optimizer.pt", size: 3 },
      ],
    });
  });

  it("refuses the whole folder when one entry escapes the roots through a symlink", async () => {
    const err = await refusal(join(root, "run1"));
    expect(err.rule).toBe("SYMLINK_ESCAPE");
    expect(err.message).toContain("link.pt");
    expect(err.message).not.toContain(outside);
  });

  it("refuses a folder with more files than a checkpoint has", async () => {
    expect((await refusal(join(folderRoot, "many"), [folderRoot])).rule).toBe("FOLDER_TOO_LARGE");
  });
});

describe("checkpointDownloadPath", () => {
  it("puts the MLflow artifact under the workspace with a safe file name", () => {
    expect(checkpointDownloadPath("/tmp/ws", "runs:/abc/checkpoints/last.ckpt")).toBe("/tmp/ws/checkpoint/last.ckpt");
    expect(checkpointDownloadPath("/tmp/ws", "models:/my model/3")).toBe("/tmp/ws/checkpoint/3");
    expect(checkpointDownloadPath("/tmp/ws", "runs:/abc/")).toBe("/tmp/ws/checkpoint/abc");
    expect(checkpointDownloadPath("/tmp/ws", "runs:/abc/.hidden")).toBe("/tmp/ws/checkpoint/hidden");
  });
});
