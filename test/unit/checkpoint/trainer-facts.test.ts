import { describe, expect, it } from "vitest";
import { isFixed, isWeight, looksLikeArange } from "../../../nodes/checkpoint/detectors/tensor-kinds.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import type { TensorRecord } from "../../../nodes/checkpoint/table.js";
import { aboveLow, byId, findingsOf, fixture, infoOf, metadataInfo } from "./fixtures.js";

/**
 * Checkpoint facts read as the trainer meant them (scripts/fixtures/ml-pickles/make_trainer_checkpoints.py): the
 * EMA models Ultralytics and timm save keep BatchNorm counters at 0 by design, and a detection head's anchors,
 * strides and fixed DFL projection are constants, not weights.
 */
describe("EMA checkpoints written by their trainers", () => {
  it("yolo-best.pt (Ultralytics, one epoch): counters at 0, anchors and strides large, yet nothing above low", async () => {
    const scan = await scanCheckpointFile(fixture("ml-pickles/trainers/yolo-best.pt"));
    const counters = scan.tensors.filter((t) => t.name.endsWith("num_batches_tracked"));
    expect(counters.length).toBeGreaterThan(10);
    expect(counters.every((t) => t.stats?.max === 0)).toBe(true);
    expect(scan.tensors.some((t) => t.name.endsWith(".anchors"))).toBe(true);
    const info = await infoOf("ml-pickles/trainers/yolo-best.pt");
    const fixed = info.tensors.filter(isFixed).map((t) => t.name);
    expect(fixed).toEqual(expect.arrayContaining(["_modules.model._modules.14.anchors", "_modules.model._modules.14.strides", "_modules.model._modules.14._modules.dfl._modules.conv._parameters.weight"]));
    expect(fixed).not.toContain("_modules.model._modules.0._modules.conv._parameters.weight");
    const findings = findingsOf(info);
    expect(aboveLow(findings)).toEqual([]);
    expect(byId(findings, "checkpoint.library_pickle")[0]!.description).toMatch(/Ultralytics, PyTorch.*records Ultralytics \d+\.\d+\.\d+/);
  });

  it("timm-ema.pth.tar (CheckpointSaver with ModelEmaV2): the EMA's counters stay 0 while the model's advanced", async () => {
    const scan = await scanCheckpointFile(fixture("ml-pickles/trainers/timm-ema.pth.tar"));
    const counter = (prefix: string) => scan.tensors.find((t) => t.name === `${prefix}bn1.num_batches_tracked`)!.stats!.max;
    expect(counter("state_dict_ema.")).toBe(0);
    expect(counter("")).toBeGreaterThan(0);
    expect(byId(findingsOf(await infoOf("ml-pickles/trainers/timm-ema.pth.tar")), "checkpoint.batchnorm_stats")).toEqual([]);
  });
});

const row = (name: string, values: Partial<NonNullable<TensorRecord["values"]>>, extra: Partial<TensorRecord> = {}): TensorRecord => ({
  name, dtype: "F32", rawDtype: "F32", shape: [1, 16, 1, 1], numel: 16, group: "model", storage: null, requiresGrad: null,
  values: { nanCount: 0, infCount: 0, zeroFraction: null, min: null, max: null, mean: null, std: null, maxAbs: null, units: null, deadUnits: null, ...values },
  ...extra,
});

describe("fixed tensors told apart from trained weights", () => {
  const arange16 = { min: 0, max: 15, mean: 7.5, std: Math.sqrt((16 * 16 - 1) / 12) };

  it("knows an arange by its statistics, just inside and just outside", () => {
    expect(looksLikeArange(row("head.proj.weight", arange16))).toBe(true);
    expect(looksLikeArange(row("head.proj.weight", { ...arange16, std: Math.sqrt((16 * 17) / 12) }))).toBe(true);
    expect(looksLikeArange(row("head.proj.weight", { ...arange16, mean: 7.5 * 1.009 }))).toBe(true);
    expect(looksLikeArange(row("head.proj.weight", { ...arange16, mean: 7.5 * 1.02 }))).toBe(false);
    expect(looksLikeArange(row("head.proj.weight", { ...arange16, std: 4.85 }))).toBe(false);
    expect(looksLikeArange(row("head.proj.weight", { ...arange16, max: 16 }))).toBe(false);
  });

  it.each([
    "model.22.anchors", "model.22.strides", "model.22.dfl.conv.weight", "_modules.model._modules.22._modules.dfl._modules.conv._parameters.weight",
    "bert.embeddings.position_ids", "layers.0.rotary_emb.inv_freq", "h.0.attn.masked_bias", "blocks.0.attn.relative_position_index",
    "_modules.model._modules.22._buffers.something", "_modules.model._modules.22.stride_table",
  ])("%s is fixed", (name) => {
    expect(isFixed(row(name, {}))).toBe(true);
  });

  it.each(["model.22.cv2.0.0.conv.weight", "encoder.fc1.weight", "_modules.model._modules.0._modules.conv._parameters.weight", "anchors_head.weight"])("%s is a trained weight", (name) => {
    expect(isFixed(row(name, {}))).toBe(false);
    expect(isWeight(row(name, {}))).toBe(true);
  });

  it("reads requires_grad = false as fixed only beside tensors that require grad", () => {
    const frozen = { name: "head.proj.weight", dtype: "F32", shape: [1, 16, 1, 1], requires_grad: false, mean: 0, std: 9, min: -20, max: 20 };
    const trained = { name: "encoder.fc1.weight", dtype: "F32", shape: [64, 64], mean: 0, std: 0.1, min: -0.5, max: 0.5 };
    const info = (rows: object[]) => metadataInfo({ config: {}, tensor_stats: { num_tensors: rows.length, per_tensor: rows } });
    expect(byId(findingsOf(info([frozen, { ...trained, requires_grad: true }])), "checkpoint.exploding_weights")).toEqual([]);
    // Everything false (an EMA copy, a frozen export): requires_grad tells nothing, the weight is judged.
    expect(byId(findingsOf(info([frozen, { ...trained, requires_grad: false }])), "checkpoint.exploding_weights")).toHaveLength(1);
  });

  it("still judges a num_batches_tracked of 0 outside an EMA copy", () => {
    const info = metadataInfo({ config: {}, tensor_stats: { num_tensors: 1, per_tensor: [{ name: "bn1.num_batches_tracked", dtype: "I64", shape: [], mean: 0, std: 0, min: 0, max: 0 }] } });
    expect(byId(findingsOf(info), "checkpoint.batchnorm_stats")).toEqual([expect.objectContaining({ severity: "high" })]);
    const ema = metadataInfo({ config: {}, tensor_stats: { num_tensors: 1, per_tensor: [{ name: "model_ema.bn1.num_batches_tracked", dtype: "I64", shape: [], mean: 0, std: 0, min: 0, max: 0 }] } });
    expect(byId(findingsOf(ema), "checkpoint.batchnorm_stats")).toEqual([]);
  });
});
