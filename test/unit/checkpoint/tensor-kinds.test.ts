import { describe, expect, it } from "vitest";
import {
  fanIn,
  fmt,
  isBias,
  isBuffer,
  isEmbedding,
  isFloat,
  isNorm,
  isWeight,
  listNames,
  looksLikeArange,
  tensorArtifact,
} from "../../../nodes/checkpoint/detectors/tensor-kinds.js";
import { checkpointInfo, scannedInfo, tensor } from "./checkpoint-info.js";

/** What kind of tensor a row is, by name, dtype and shape: the vocabulary every value detector relies on. */
const named = (name: string) => tensor(name, [4, 4]);

describe("tensor kinds by name", () => {
  it.each([
    "encoder.norm.weight", "bn1.weight", "bn.bias", "layer.ln_1.weight", "ln.weight", "LayerNorm.weight", "x.batchnorm.weight", "input_rmsnorm.weight",
    "gn_groupnorm.weight", "model.norm", "bn.running_mean", "bn.running_var", "bn.num_batches_tracked", "post_attention_layernorm.weight",
  ])("%s is a normalization tensor", (name) => {
    expect(isNorm(named(name))).toBe(true);
  });

  it.each(["normal_init.weight", "abnormal.weight", "fc.weight", "lnx.weight", "xbn.weight"])("%s is not a normalization tensor", (name) => {
    expect(isNorm(named(name))).toBe(false);
  });

  it.each(["embed_tokens.weight", "wte.weight", "wpe.weight", "tok_embeddings.weight", "word_embeddings.weight", "position_embeddings.weight", "token_type_embeddings.weight", "model.shared.weight", "shared.weight", "lm_head.weight", "Embedding.weight"])("%s is an embedding", (name) => {
    expect(isEmbedding(named(name))).toBe(true);
  });

  it.each(["fc.weight", "unshared.weight", "shared_mlp.weight"])("%s is not an embedding", (name) => {
    expect(isEmbedding(named(name))).toBe(false);
  });

  it.each([
    ["bn.running_mean", true], ["bn.running_var", true], ["bn.num_batches_tracked", true], ["emb.position_ids", true], ["attn.masked_bias", true],
    ["rotary.inv_freq", true], ["bn.running_var.x", false], ["fc.weight", false],
  ])("%s is a buffer: %s", (name, buffer) => {
    expect(isBuffer(named(name))).toBe(buffer);
  });

  it.each([["fc.bias", true], ["fc_bias", true], ["bias", true], ["fc.unbias", false], ["fc.bias_scale", false]])("%s is a bias: %s", (name, bias) => {
    expect(isBias(named(name))).toBe(bias);
  });
});

describe("float dtypes and trainable weights", () => {
  it("a known dtype decides; an unknown one is read from the client's name", () => {
    expect(isFloat(tensor("a", [4], {}, { dtype: "BF16" }))).toBe(true);
    expect(isFloat(tensor("a", [4], {}, { dtype: "I64", rawDtype: "float32" }))).toBe(false);
    for (const raw of ["torch.float8_e4m3fn", "half", "bf16", "fp8", "FLOAT"]) expect(isFloat(tensor("a", [4], {}, { dtype: null, rawDtype: raw })), raw).toBe(true);
    for (const raw of ["int4", "qint8", "bool"]) expect(isFloat(tensor("a", [4], {}, { dtype: null, rawDtype: raw })), raw).toBe(false);
  });

  it("a weight is a float model tensor of ≥ 2 dimensions, or a shapeless `.weight`, and nothing normalizing, bias or fixed", () => {
    expect(isWeight(tensor("fc.weight", [4, 4]))).toBe(true);
    expect(isWeight(tensor("conv", [4, 4, 3, 3]))).toBe(true);
    expect(isWeight(tensor("fc.weight", [4]))).toBe(false);
    expect(isWeight(tensor("fc.weight", null))).toBe(true);
    expect(isWeight(tensor("fc.scale", null))).toBe(false);
    expect(isWeight(tensor("fc.weight_v", null))).toBe(false);
    expect(isWeight(tensor("fc.weight", [4, 4], {}, { group: "optimizer" }))).toBe(false);
    expect(isWeight(tensor("fc.weight", [4, 4], {}, { group: "other" }))).toBe(false);
    expect(isWeight(tensor("fc.weight", [4, 4], {}, { dtype: "I8" }))).toBe(false);
    expect(isWeight(tensor("norm.weight", [4, 4]))).toBe(false);
    expect(isWeight(tensor("fc_bias", [4, 4]))).toBe(false);
    expect(isWeight(tensor("fc.weight", [4, 4], {}, { requiresGrad: false }))).toBe(false);
    expect(isWeight(tensor("fc.weight", [4, 4], {}, { requiresGrad: true }))).toBe(true);
  });

  it("an arange needs at least 2 elements, starts at 0 and has a mean and a std", () => {
    const arange = (n: number, extra = {}) => tensor("proj.weight", [n, 1], { min: 0, max: n - 1, mean: (n - 1) / 2, std: Math.sqrt((n * n - 1) / 12), ...extra });
    expect(looksLikeArange(arange(16))).toBe(true);
    expect(looksLikeArange(arange(2))).toBe(true);
    expect(looksLikeArange(tensor("p", [1, 1], { min: 0, max: 0, mean: 0, std: 0 }))).toBe(false);
    expect(looksLikeArange(arange(16, { min: 1 }))).toBe(false);
    expect(looksLikeArange(arange(16, { mean: null }))).toBe(false);
    expect(looksLikeArange(arange(16, { std: null }))).toBe(false);
    expect(looksLikeArange(tensor("p", [16, 1], null))).toBe(false);
    expect(looksLikeArange({ ...arange(16), numel: null })).toBe(false);
    // The tolerance is 1 % of the expected std, either side.
    const std = Math.sqrt((16 * 16 - 1) / 12);
    expect(looksLikeArange(arange(16, { std: std * 0.991 }))).toBe(true);
    expect(looksLikeArange(arange(16, { std: std * 0.98 }))).toBe(false);
    expect(looksLikeArange(arange(16, { mean: 7.5 * 0.991 }))).toBe(true);
    expect(looksLikeArange(arange(16, { mean: 7.5 * 0.98 }))).toBe(false);
  });
});

describe("fan-in, artifacts, names and numbers", () => {
  it("fan-in is elements per output unit, of a matrix or kernel only", () => {
    expect(fanIn(tensor("conv", [8, 3, 3, 3]))).toBe(27);
    expect(fanIn(tensor("fc", [64, 32]))).toBe(32);
    expect(fanIn(tensor("b", [64]))).toBeNull();
    expect(fanIn(tensor("w", null))).toBeNull();
    expect(fanIn({ ...tensor("w", [4, 4]), numel: 0 })).toBeNull();
  });

  it("evidence artifacts name the client statistics or the file, with the tensor after a colon", () => {
    expect(tensorArtifact(checkpointInfo(), "a.weight")).toBe("model_checkpoint_artifacts.metadata.tensor_stats:a.weight");
    expect(tensorArtifact(scannedInfo(), "a.weight")).toBe("model_checkpoint_artifacts.checkpoint_path:a.weight");
    expect(tensorArtifact(scannedInfo({ mode: "header_only" }))).toBe("model_checkpoint_artifacts.checkpoint_path");
    expect(tensorArtifact(scannedInfo(), "")).toBe("model_checkpoint_artifacts.checkpoint_path");
  });

  it("lists at most n names, then how many more", () => {
    const ts = ["a", "b", "c", "d", "e", "f", "g"].map((n) => tensor(n, [1]));
    expect(listNames(ts)).toBe("a, b, c, d, e and 2 more");
    expect(listNames(ts.slice(0, 5))).toBe("a, b, c, d, e");
    expect(listNames(ts, 2)).toBe("a, b and 5 more");
  });

  it("formats numbers to 4 significant digits, and n/a when missing", () => {
    expect(fmt(0.123456)).toBe("0.1235");
    expect(fmt(123456)).toBe("123500");
    expect(fmt(2)).toBe("2");
    expect(fmt(null)).toBe("n/a");
    expect(fmt(undefined)).toBe("n/a");
  });
});
