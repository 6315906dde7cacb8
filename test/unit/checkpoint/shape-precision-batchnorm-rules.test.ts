import { describe, expect, it } from "vitest";
import { detectBatchNormStats } from "../../../nodes/checkpoint/detectors/batchnorm.js";
import { classifierHead, configuredClasses, detectShapeMismatch } from "../../../nodes/checkpoint/detectors/config.js";
import { inEmaCopy } from "../../../nodes/checkpoint/detectors/ema.js";
import { detectDtypeMix } from "../../../nodes/checkpoint/detectors/precision.js";
import type { TensorRecord } from "../../../nodes/checkpoint/table.js";
import { checkpointInfo, only, pickleReport, scannedInfo, tensor } from "./checkpoint-info.js";

/** CK-07, CK-08 and CK-11's shapes on hand-built tables. */
const on = (...tensors: TensorRecord[]) => scannedInfo({ tensors });

describe("CK-11: the classes a configuration names and the head that must match them", () => {
  it.each<[Record<string, unknown> | null, [string, number] | null]>([
    [null, null],
    [{}, null],
    [{ num_classes: 10, num_labels: 3 }, ["num_classes", 10]],
    [{ num_labels: 3 }, ["num_labels", 3]],
    [{ n_classes: 4 }, ["n_classes", 4]],
    [{ nb_classes: 5 }, ["nb_classes", 5]],
    [{ num_classes: "10", class_names: ["a", "b"] }, ["class_names", 2]],
    [{ id2label: { 0: "neg", 1: "pos", 2: "mixed" } }, ["id2label", 3]],
    [{ id2label: null, class_names: "a,b" }, null],
  ])("configuredClasses(%j) = %j", (config, expected) => {
    expect(configuredClasses(config)).toEqual(expected);
  });

  it.each([
    "classifier.weight", "model.head.weight", "heads.head.weight", "fc.weight", "logits.weight", "score.weight", "cls.weight",
    "output_layer.weight", "attn.out_proj.weight", "final_layer.weight", "linear_out.weight", "classifier.2.weight",
  ])("%s is a head by name, chosen over a later matrix", (name) => {
    const info = on(tensor(name, [10, 64]), tensor("later.proj.weight", [64, 64]));
    expect(classifierHead(info)?.name).toBe(name);
  });

  it.each(["myfc.weight", "classifier.bias", "classifier.weight_g", "fc.weight.extra"])("%s is not a head by name", (name) => {
    expect(classifierHead(on(tensor("a.weight", [64, 32]), tensor(name, [10, 64]), tensor("b.weight", [5, 64])))?.name).toBe("b.weight");
  });

  it("the last named head wins; an LM head is never one; without a named head, the last matrix only in a complete table without embeddings", () => {
    expect(classifierHead(on(tensor("fc.weight", [64, 32]), tensor("classifier.weight", [10, 64])))?.name).toBe("classifier.weight");
    expect(classifierHead(on(tensor("wte.weight", [100, 16]), tensor("lm_head.weight", [100, 16])))).toBeNull();
    expect(classifierHead(on(tensor("a.weight", [64, 32]), tensor("b.weight", [10, 64]), tensor("b.bias", [10])))?.name).toBe("b.weight");
    expect(classifierHead(scannedInfo({ tensors: [tensor("a.weight", [64, 32])], tensorsComplete: false }))).toBeNull();
    expect(classifierHead(on(tensor("a.weight", [64, 32]), tensor("b.weight", [64], {})))?.name).toBe("a.weight");
    expect(classifierHead(on())).toBeNull();
  });
});

describe("CK-11 shape mismatch", () => {
  const transformer = (config: Record<string, unknown>, extra: TensorRecord[] = []) => detectShapeMismatch(scannedInfo({
    config,
    tensors: [
      tensor("model.embed_tokens.weight", [128, 32]),
      tensor("model.layers.0.attn.weight", [32, 32]), tensor("model.layers.1.attn.weight", [32, 32]), tensor("model.layers.1.mlp.weight", [32, 32]),
      ...extra,
    ],
  }));

  it("a head of the wrong size: its outputs against the configured classes", () => {
    const f = only(detectShapeMismatch(scannedInfo({ config: { num_labels: 3 }, tensors: [tensor("enc.weight", [64, 32]), tensor("classifier.weight", [2, 64])] })));
    expect(f).toMatchObject({ severity: "high", confidence: 0.85 });
    expect(f.evidence).toEqual([{ rule_id: "CK-11", artifact: "model_checkpoint_artifacts.checkpoint_path:classifier.weight", text: "Head classifier.weight has 2 outputs but config.num_labels says 3 classes.", observed: 2, threshold: 3 }]);
    expect(f.description).toContain("Head classifier.weight has 2 outputs but config.num_labels says 3 classes.");
    expect(detectShapeMismatch(scannedInfo({ config: { num_labels: 2 }, tensors: [tensor("classifier.weight", [2, 64])] }))).toEqual([]);
  });

  it("embedding rows against vocab_size / n_vocab, its width against hidden_size / d_model / n_embd / dim", () => {
    expect(transformer({ vocab_size: 128, hidden_size: 32, num_hidden_layers: 2 })).toEqual([]);
    expect(only(transformer({ n_vocab: 100 })).evidence[0]).toMatchObject({ text: "Embedding model.embed_tokens.weight has 128 rows but config.n_vocab is 100.", observed: 128, threshold: 100 });
    for (const key of ["hidden_size", "d_model", "n_embd", "dim"]) {
      expect(only(transformer({ [key]: 64 })).evidence[0]).toMatchObject({ text: `Embedding model.embed_tokens.weight has width 32 but config.${key} is 64.`, observed: 32, threshold: 64 });
    }
  });

  it("numbered layers of the model against num_hidden_layers / n_layer / num_layers, only in a complete table", () => {
    for (const key of ["num_hidden_layers", "n_layer", "num_layers"]) {
      expect(only(transformer({ [key]: 4 })).evidence[0]).toMatchObject({ artifact: "model_checkpoint_artifacts.checkpoint_path", text: `The weights hold 2 numbered layers but config.${key} is 4.`, observed: 2, threshold: 4 });
    }
    // Optimizer state is not counted; "h.N.", "blocks.N." and "block.N." number layers too.
    expect(transformer({ num_layers: 2 }, [tensor("model.layers.7.attn.weight", [32, 32], {}, { group: "optimizer" })])).toEqual([]);
    expect(only(transformer({ num_layers: 2 }, [tensor("h.5.x.weight", [4, 4])])).evidence[0]!.observed).toBe(3);
    expect(only(transformer({ num_layers: 2 }, [tensor("blocks.5.x.weight", [4, 4]), tensor("block.6.x.weight", [4, 4])])).evidence[0]!.observed).toBe(4);
    expect(transformer({ num_layers: 2 }, [tensor("sublayers.5.x.weight", [4, 4]), tensor("layers5.x.weight", [4, 4])])).toEqual([]);
    expect(detectShapeMismatch(scannedInfo({ config: { num_layers: 4 }, tensorsComplete: false, tensors: [tensor("layers.0.w", [4, 4])] }))).toEqual([]);
    expect(detectShapeMismatch(scannedInfo({ config: { num_layers: 4 }, tensors: [tensor("fc.weight", [4, 4])] }))).toEqual([]);
  });

  it("token embeddings by name, 2-D only; every mismatch in one finding", () => {
    for (const name of ["word_embeddings.weight", "transformer.wte.weight", "tok_embeddings.weight", "gpt_neox.embed_in.weight", "shared.weight", "model.shared.weight"]) {
      expect(detectShapeMismatch(scannedInfo({ config: { vocab_size: 5 }, tensors: [tensor(name, [128, 32])] })), name).toHaveLength(1);
    }
    expect(detectShapeMismatch(scannedInfo({ config: { vocab_size: 5 }, tensors: [tensor("unshared.weight", [128, 32]), tensor("wte.weight", [128, 32, 1])] }))).toEqual([]);
    const f = only(transformer({ vocab_size: 100, hidden_size: 64, num_hidden_layers: 4 }));
    expect(f.evidence).toHaveLength(3);
    expect(detectShapeMismatch(scannedInfo({ config: null, tensors: [tensor("wte.weight", [128, 32])] }))).toEqual([]);
    expect(detectShapeMismatch(scannedInfo({ config: { vocab_size: 5 } }))).toEqual([]);
  });
});

describe("CK-08 precision", () => {
  it("weights in two float dtypes, counted per dtype; integer tensors and non-weights do not count", () => {
    const f = only(detectDtypeMix(on(tensor("a.weight", [4, 4]), tensor("b.weight", [4, 4], {}, { dtype: "BF16" }), tensor("c.weight", [4, 4], {}, { dtype: "BF16" }), tensor("ids", [4, 4], {}, { dtype: "I64" }), tensor("norm.weight", [4], {}, { dtype: "F16" }))));
    expect(f).toMatchObject({ severity: "info", confidence: 0.7, title: "Checkpoint mixes floating-point precisions" });
    expect(f.evidence).toEqual([{ rule_id: "CK-08", artifact: "model_checkpoint_artifacts.checkpoint_path", text: "Weights are stored in F32, BF16 (F32: 1, BF16: 2).", observed: "F32,BF16" }]);
    expect(f.description).toContain("Weights are stored in F32, BF16 (F32: 1, BF16: 2). Mixed");
    expect(detectDtypeMix(on(tensor("a.weight", [4, 4]), tensor("ids.weight", [4, 4], {}, { dtype: "I64" })))).toEqual([]);
    // A float the client named in a way we do not normalize is a weight, but not a second known dtype.
    expect(detectDtypeMix(on(tensor("a.weight", [4, 4]), tensor("b.weight", [4, 4], {}, { dtype: null, rawDtype: "fp8" })))).toEqual([]);
  });

  it("without weights, the dtypes table's float names decide, without counts", () => {
    const f = only(detectDtypeMix(checkpointInfo({ dtypes: { float16: 120, "torch.float32": 40, int64: 3 } })));
    expect(f.evidence[0]!.text).toBe("Weights are stored in F16, F32.");
    expect(detectDtypeMix(checkpointInfo({ dtypes: { float16: 120, half: 3, int64: 3, mystery: 1 } }))).toEqual([]);
  });

  it("saved dtype against the configuration's torch_dtype", () => {
    const f = only(detectDtypeMix(checkpointInfo({ metadata: { dtype: "float32" }, config: { torch_dtype: "bfloat16" } })));
    expect(f.evidence).toEqual([{ rule_id: "CK-08", artifact: "model_checkpoint_artifacts.metadata.dtype", text: "Saved as F32 while the model's native dtype (config.torch_dtype) is BF16.", observed: "F32", threshold: "BF16" }]);
    expect(detectDtypeMix(checkpointInfo({ metadata: { dtype: "fp32" }, config: { torch_dtype: "float32" } }))).toEqual([]);
    expect(detectDtypeMix(checkpointInfo({ metadata: { dtype: 32 }, config: { torch_dtype: "float16" } }))).toEqual([]);
    expect(detectDtypeMix(checkpointInfo({ metadata: { dtype: "float32" }, config: { torch_dtype: 16 } }))).toEqual([]);
  });

  it("fp16 at or above 90 % of 65 504 is medium, with max |value| against the limit; other dtypes are not", () => {
    const edge = 0.9 * 65504;
    const f = only(detectDtypeMix(on(tensor("a.weight", [4, 4], { maxAbs: edge }, { dtype: "F16" }))));
    expect(f).toMatchObject({ severity: "medium", confidence: 0.8, title: "fp16 tensors near the fp16 overflow limit" });
    expect(f.evidence).toEqual([{ rule_id: "CK-08", artifact: "model_checkpoint_artifacts.checkpoint_path:a.weight", text: "a.weight: max |value| 58950 vs fp16 max 65504.", observed: edge, threshold: edge }]);
    expect(f.description).toContain("a.weight hold fp16 values");
    expect(detectDtypeMix(on(tensor("a.weight", [4, 4], { maxAbs: edge - 0.5 }, { dtype: "F16" })))).toEqual([]);
    expect(detectDtypeMix(on(tensor("a.weight", [4, 4], { maxAbs: 65000 }, { dtype: "BF16" })))).toEqual([]);
    expect(detectDtypeMix(on(tensor("a.weight", [4, 4], null, { dtype: "F16" })))).toEqual([]);
    const many = only(detectDtypeMix(on(...Array.from({ length: 9 }, (_, i) => tensor(`l${i}.bias`, [4], { maxAbs: 60000 }, { dtype: "F16" })))));
    expect(many.evidence).toHaveLength(8);
  });
});

describe("CK-07 BatchNorm statistics", () => {
  it("running variance ≤ 0 (0 included) or non-finite is invalid; positive, unknown or not a running_var is not", () => {
    const f = only(detectBatchNormStats(on(tensor("bn.running_var", [16], { min: 0 }))));
    expect(f).toMatchObject({ severity: "high", confidence: 0.85 });
    expect(f.evidence).toEqual([{ rule_id: "CK-07", artifact: "model_checkpoint_artifacts.checkpoint_path:bn.running_var", text: "bn.running_var: min 0, 0 non-finite.", observed: 0, threshold: 0 }]);
    expect(f.description).toMatch(/^BatchNorm layers have running variance ≤ 0 or non-finite in bn\.running_var:/);
    expect(only(detectBatchNormStats(on(tensor("bn.running_var", [16], { min: 0.5, nanCount: 2, infCount: 1 })))).evidence[0]!.text).toBe("bn.running_var: min 0.5, 3 non-finite.");
    expect(detectBatchNormStats(on(tensor("bn.running_var", [16], { min: 1e-6 })))).toEqual([]);
    expect(detectBatchNormStats(on(tensor("bn.running_var", [16], { min: null })))).toEqual([]);
    expect(detectBatchNormStats(on(tensor("bn.running_var", [16], null)))).toEqual([]);
    expect(detectBatchNormStats(on(tensor("bn.running_var.old", [16], { min: -1 }), tensor("bn.running_mean", [16], { min: -1 })))).toEqual([]);
  });

  it("num_batches_tracked = 0 outside an EMA copy; both faults in one finding", () => {
    const counter = (name: string, max: number | null) => tensor(name, [], { min: 0, max, mean: 0 }, { dtype: "I64" });
    const f = only(detectBatchNormStats(on(tensor("bn.running_var", [16], { min: -0.1 }), counter("bn.num_batches_tracked", 0))));
    expect(f.description).toContain("running variance ≤ 0 or non-finite in bn.running_var, and statistics never updated (num_batches_tracked = 0) in bn.num_batches_tracked:");
    expect(f.evidence[1]).toEqual({ rule_id: "CK-07", artifact: "model_checkpoint_artifacts.checkpoint_path:bn.num_batches_tracked", text: "bn.num_batches_tracked = 0.", observed: 0, threshold: 1 });
    expect(only(detectBatchNormStats(on(counter("bn.num_batches_tracked", 0)))).description).toMatch(/^BatchNorm layers have statistics never updated/);
    expect(detectBatchNormStats(on(counter("bn.num_batches_tracked", 120)))).toEqual([]);
    expect(detectBatchNormStats(on(counter("bn.num_batches_tracked", null)))).toEqual([]);
    expect(detectBatchNormStats(on(tensor("bn.num_batches_tracked", [], null, { dtype: "I64" })))).toEqual([]);
    expect(detectBatchNormStats(on(counter("model_ema.bn.num_batches_tracked", 0)))).toEqual([]);
    expect(detectBatchNormStats(scannedInfo({ tensors: [counter("model.0.bn.num_batches_tracked", 0)], pickles: [pickleReport("data.pkl", [["ultralytics.nn.tasks", "DetectionModel"]])] }))).toEqual([]);
  });
});

describe("EMA copies of a model", () => {
  const t = (name: string) => tensor(name, [4]);
  it.each([
    ["ema.bn.num_batches_tracked", true], ["model_ema.x", true], ["state_dict_ema.x", true], ["ema_state_dict.x", true], ["ema_model.x", true],
    ["module_ema.x", true], ["averaged_model.x", true], ["average_model.x", true], ["swa_model.x", true], ["net.EMA.x", true], ["x_ema", true],
    ["schema.x", false], ["emanate.x", false], ["model.x", false],
  ])("%s is in an EMA copy: %s", (name, ema) => {
    expect(inEmaCopy(scannedInfo(), t(name))).toBe(ema);
  });

  it("everything Ultralytics saved is its EMA copy; another library's pickle is not", () => {
    expect(inEmaCopy(scannedInfo({ pickles: [pickleReport("data.pkl", [["ultralytics.nn.tasks", "DetectionModel"]])] }), t("model.x"))).toBe(true);
    expect(inEmaCopy(scannedInfo({ pickles: [pickleReport("data.pkl", [["my_ultralytics.nn", "Net"], ["torch._utils", "_rebuild_tensor_v2"]])] }), t("model.x"))).toBe(false);
  });
});
