import { describe, expect, it } from "vitest";
import { aboveLow, byId, findingsOf, infoOf } from "./fixtures.js";

describe("checkpoint detectors on scanned files", () => {
  it.each([
    "safetensors/benign-mlp.safetensors",
    "safetensors/benign-mlp-fp16.safetensors",
    "safetensors/benign-transformer.safetensors",
    "safetensors/benign-transformer-bf16.safetensors",
    "torch/smallnet.pt",
    "torch/smallnet-legacy.pt",
    "torch/smallnet-torch2.pth",
    "torch/pytorch_model.bin",
    "torch/lightning.ckpt",
  ])("benign %s: no finding above low", async (file) => {
    expect(aboveLow(findingsOf(await infoOf(file)))).toEqual([]);
  });

  it.each([
    ["safetensors/fault-nonfinite.safetensors", "checkpoint.nonfinite_weights", "critical", "encoder.fc2.weight"],
    ["torch/smallnet-faults.pt", "checkpoint.nonfinite_weights", "critical", "fc1.weight"],
    ["safetensors/fault-all-zero.safetensors", "checkpoint.all_zero_tensor", "high", "encoder.fc2.weight"],
    ["safetensors/fault-constant.safetensors", "checkpoint.constant_tensor", "high", "encoder.fc2.weight"],
    ["safetensors/fault-exploding.safetensors", "checkpoint.exploding_weights", "medium", "encoder.fc2.weight"],
    ["safetensors/fault-dead-units.safetensors", "checkpoint.dead_units", "medium", "encoder.fc2.weight"],
    ["safetensors/fault-batchnorm.safetensors", "checkpoint.batchnorm_stats", "high", "encoder.bn.running_var"],
    ["torch/smallnet-faults.pt", "checkpoint.batchnorm_stats", "high", "bn1.num_batches_tracked"],
    ["safetensors/fault-fp16-near-max.safetensors", "checkpoint.dtype_mix", "medium", "encoder.fc2.weight"],
    ["safetensors/fault-dtype-mix.safetensors", "checkpoint.dtype_mix", "info", "F16"],
    ["torch/mixed-precision.pt", "checkpoint.dtype_mix", "info", "BF16"],
    ["safetensors/fault-truncated.safetensors", "checkpoint.corrupt_file", "critical", "truncated"],
    ["safetensors/fault-hole.safetensors", "checkpoint.corrupt_file", "high", "hole"],
    ["safetensors/fault-overlap.safetensors", "checkpoint.corrupt_file", "high", "overlap"],
    ["safetensors/fault-header-too-large.safetensors", "checkpoint.corrupt_file", "high", "100000000-byte cap"],
  ])("%s → %s (%s) naming %s", async (file, id, severity, named) => {
    const found = byId(findingsOf(await infoOf(file)), id);
    expect(found.map((f) => f.severity)).toContain(severity);
    const f = found.find((x) => x.severity === severity)!;
    expect(`${f.description} ${f.evidence.map((e) => e.text).join(" ")}`).toContain(named);
  });

  it("the dead-unit proxy keeps its confidence at or below 0.5", async () => {
    const [f] = byId(findingsOf(await infoOf("safetensors/fault-dead-units.safetensors")), "checkpoint.dead_units");
    expect(f!.confidence).toBeLessThanOrEqual(0.5);
    expect(f!.evidence[0]!.text).toContain("40 of 64 output units");
  });

  it("an all-zero weight is reported once, not also as constant or dead", async () => {
    const found = findingsOf(await infoOf("safetensors/fault-all-zero.safetensors")).map((f) => f.id);
    expect(found).not.toContain("checkpoint.constant_tensor");
    expect(found).not.toContain("checkpoint.dead_units");
  });

  it("a Lightning checkpoint with Adam state is ≈3× its weights: info, not a fault", async () => {
    const [f] = byId(findingsOf(await infoOf("torch/lightning.ckpt")), "checkpoint.size_vs_params");
    expect(f).toMatchObject({ severity: "info" });
    expect(f!.description).toMatch(/optimizer state/);
  });

  it("a weights-only last.ckpt meant for resuming lacks optimizer state (medium)", async () => {
    const [f] = byId(findingsOf(await infoOf("torch/resume/last.ckpt")), "checkpoint.no_optimizer_state");
    expect(f).toMatchObject({ severity: "medium" });
    expect(f!.description).toContain("last.ckpt");
    expect(byId(findingsOf(await infoOf("torch/lightning.ckpt")), "checkpoint.no_optimizer_state")).toEqual([]);
  });

  it("Lightning hyper_parameters count as configuration and are checked against the head", async () => {
    const info = await infoOf("torch/lightning.ckpt");
    expect(byId(findingsOf(info), "checkpoint.missing_metadata")).toEqual([]);
    expect(byId(findingsOf(info), "checkpoint.shape_mismatch")).toEqual([]);
    const wrong = await infoOf("torch/lightning.ckpt", { config: { num_classes: 12 } });
    const [f] = byId(findingsOf(wrong), "checkpoint.shape_mismatch");
    expect(f!.evidence[0]!.text).toBe("Head model.classifier.weight has 10 outputs but config.num_classes says 12 classes.");
  });

  it.each([
    [{ vocab_size: 130 }, "has 128 rows but config.vocab_size is 130"],
    [{ hidden_size: 64 }, "has width 32 but config.hidden_size is 64"],
    [{ num_hidden_layers: 4 }, "hold 2 numbered layers but config.num_hidden_layers is 4"],
  ])("transformer shapes vs config %j", async (config, text) => {
    const [f] = byId(findingsOf(await infoOf("safetensors/benign-transformer.safetensors", { config })), "checkpoint.shape_mismatch");
    expect(f).toMatchObject({ severity: "high" });
    expect(f!.description).toContain(text);
    const agree = { vocab_size: 128, hidden_size: 32, num_hidden_layers: 2 };
    expect(byId(findingsOf(await infoOf("safetensors/benign-transformer.safetensors", { config: agree })), "checkpoint.shape_mismatch")).toEqual([]);
  });

  it("parameter count vs num_parameters counts a tied weight once and leaves buffers out", async () => {
    // pytorch_model.bin: embedding 100×16 (tied to lm_head) + 2 × (256 + 1024 + 1024 + 16)
    const exact = 1600 + 2 * (256 + 1024 + 1024 + 16);
    expect(byId(findingsOf(await infoOf("torch/pytorch_model.bin", { num_parameters: exact })), "checkpoint.param_count_mismatch")).toEqual([]);
    const [f] = byId(findingsOf(await infoOf("torch/pytorch_model.bin", { num_parameters: exact * 2 })), "checkpoint.param_count_mismatch");
    expect(f).toMatchObject({ severity: "medium" });
    // smallnet: BatchNorm running buffers are not parameters.
    const smallnet = 8 * 27 + 8 + 8 + 8 + 32 * 128 + 32 + 10 * 32 + 10;
    expect(byId(findingsOf(await infoOf("torch/smallnet.pt", { num_parameters: smallnet })), "checkpoint.param_count_mismatch")).toEqual([]);
  });

  it("above the byte budget the file is scanned header-only, with an info finding", async () => {
    const info = await infoOf("safetensors/fault-nonfinite.safetensors", {}, 1024);
    const found = findingsOf(info);
    expect(byId(found, "checkpoint.header_only")).toEqual([expect.objectContaining({ severity: "info" })]);
    expect(byId(found, "checkpoint.nonfinite_weights")).toEqual([]);
  });
});
