import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCheckpointInfo } from "../../../nodes/checkpoint/build-info.js";
import { scanCheckpointFolder } from "../../../nodes/checkpoint/file/folder.js";
import { resolveCheckpointPath } from "../../../nodes/checkpoint/paths.js";
import type { CheckpointInfo } from "../../../nodes/checkpoint/table.js";
import { hostilePickle } from "../../support/hostile-containers.js";
import { aboveLow, byId, findingsOf, fixture, ids } from "./fixtures.js";

const scratch = mkdtempSync(join(tmpdir(), "ckpt-folder-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Resolves and scans a folder as the analyzer does (roots: the folder's parent). */
async function folderInfo(path: string, maxBytes?: number): Promise<CheckpointInfo> {
  const resolved = await resolveCheckpointPath(path, [join(path, "..")]);
  if (resolved.kind !== "folder") throw new Error(`${path} is not a folder`);
  const scan = await scanCheckpointFolder(resolved.path, resolved.files, { maxBytes });
  return buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: maxBytes ?? null });
}

/** A writable copy of a fixture folder, for the variants a test needs. */
function copyOf(relative: string): string {
  const to = join(mkdtempSync(join(scratch, "copy-")), relative.split("/").at(-1)!);
  cpSync(fixture(relative), to, { recursive: true });
  return to;
}

const roles = (info: CheckpointInfo) => Object.fromEntries(info.folder!.files.map((f) => [f.relative, f.role]));

describe("a checkpoint folder is one checkpoint", () => {
  it("a Trainer checkpoint-N: weights, config.json and trainer_state.json read; optimizer/scheduler/RNG files named as such", async () => {
    const info = await folderInfo(fixture("folders/hf-trainer/checkpoint-4"));
    expect(roles(info)).toEqual({
      "config.json": "config", "trainer_state.json": "trainer_state", "model.safetensors": "weights",
      "optimizer.pt": "optimizer", "scheduler.pt": "scheduler", "rng_state.pth": "rng_state",
    });
    expect(info.tensors.filter((t) => t.group === "model").map((t) => t.name).sort()).toEqual(["classifier.bias", "classifier.weight", "encoder.fc1.bias", "encoder.fc1.weight"]);
    expect(info.tensors.filter((t) => t.group === "optimizer").every((t) => t.name.startsWith("optimizer.pt:state."))).toBe(true);
    expect(info.config).toMatchObject({ num_labels: 3, torch_dtype: "float32" });
    expect(info.metadata).toMatchObject({ global_step: 4, epoch: 1, dtype: "F32" });
    expect(info.hasOptimizerState).toBe(true);
    expect(aboveLow(findingsOf(info))).toEqual([]);
    expect(ids(findingsOf(info))).not.toContain("checkpoint.missing_metadata");
  });

  it("the config beside the weights is checked against them", async () => {
    const folder = copyOf("folders/hf-trainer/checkpoint-4");
    const config = JSON.parse(readFileSync(join(folder, "config.json"), "utf8"));
    writeFileSync(join(folder, "config.json"), JSON.stringify({ ...config, num_labels: 5, torch_dtype: "bfloat16", id2label: undefined }));
    const found = findingsOf(await folderInfo(folder));
    expect(byId(found, "checkpoint.shape_mismatch")[0]!.description).toContain("config.num_labels says 5");
    expect(byId(found, "checkpoint.dtype_mix")[0]!.evidence[0]!.text).toContain("BF16");
  });

  it("NaN in optimizer.pt beside finite weights is critical and says it is the optimizer state", async () => {
    const [f] = byId(findingsOf(await folderInfo(fixture("folders/hf-nonfinite-optimizer/checkpoint-4"))), "checkpoint.nonfinite_weights");
    expect(f).toMatchObject({ severity: "critical", title: "Optimizer state holds non-finite values" });
    expect(f!.evidence.map((e) => e.text).join(" ")).toContain("optimizer.pt:state.2.exp_avg_sq (optimizer) holds 1 NaN");
  });

  it("sharded safetensors: every shard read into one table, checked against the index", async () => {
    const info = await folderInfo(fixture("folders/sharded"));
    expect(info.tensors.map((t) => t.name).sort()).toEqual(["classifier.bias", "classifier.weight", "encoder.fc1.bias", "encoder.fc1.weight"]);
    expect(info.tensors.every((t) => t.values !== null)).toBe(true);
    expect(aboveLow(findingsOf(info))).toEqual([]);
  });

  it("a shard the index names but the folder lacks makes the checkpoint unloadable (high), without a false shape finding", async () => {
    const found = findingsOf(await folderInfo(fixture("folders/sharded-missing-shard")));
    const [f] = byId(found, "checkpoint.corrupt_file");
    expect(f).toMatchObject({ severity: "high" });
    expect(f!.evidence[0]!.text).toContain("model-00002-of-00002.safetensors");
    expect(f!.description).toContain("missing_storage: shard model-00002-of-00002.safetensors named by model.safetensors.index.json is not in the folder");
    expect(byId(found, "checkpoint.shape_mismatch")).toEqual([]);
  });

  it("an index whose total_size disagrees with its shards is malformed", async () => {
    const folder = copyOf("folders/sharded");
    const index = JSON.parse(readFileSync(join(folder, "model.safetensors.index.json"), "utf8"));
    writeFileSync(join(folder, "model.safetensors.index.json"), JSON.stringify({ ...index, metadata: { total_size: 10 * index.metadata.total_size } }));
    expect(byId(findingsOf(await folderInfo(folder)), "checkpoint.corrupt_file")[0]!.evidence[0]!.text).toMatch(/total_size/);
  });

  it("a Lightning checkpoints/ folder: last.ckpt stands for the weights, the epoch checkpoint is another copy, not more tensors", async () => {
    const info = await folderInfo(fixture("folders/lightning/checkpoints"));
    expect(roles(info)).toEqual({ "last.ckpt": "weights", "epoch=0-step=2.ckpt": "copy" });
    expect(info.lightning?.globalStep).toBe(4);
    expect(info.tensors.filter((t) => t.group === "model")).toHaveLength(4);
    expect(info.pickles.map((p) => p.entry).sort()).toEqual(["epoch=0-step=2.ckpt:epoch_0_step_2/data.pkl", "last.ckpt:last/data.pkl"]);
    expect(aboveLow(findingsOf(info))).toEqual([]);
  });

  it("a hostile pickle anywhere in the folder, under any name, is critical and named", async () => {
    const folder = copyOf("folders/hf-trainer/checkpoint-4");
    writeFileSync(join(folder, "tokenizer.model"), hostilePickle(4, "os", "system"));
    const [f] = byId(findingsOf(await folderInfo(folder)), "checkpoint.unsafe_pickle");
    expect(f).toMatchObject({ severity: "critical" });
    expect(f!.evidence[0]!.artifact).toContain("tokenizer.model");
  });

  it("shares the byte budget across the folder's files: past it, files are read header-only", async () => {
    const info = await folderInfo(fixture("folders/hf-trainer/checkpoint-4"), 2000);
    expect(info.mode).toBe("header_only");
    expect(byId(findingsOf(info), "checkpoint.header_only")).toHaveLength(1);
  });
});
