import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { isFloatDType, normalizeDType } from "../file/dtypes.js";
import type { CheckpointInfo } from "../table.js";
import { fmt, isWeight, listNames, tensorArtifact } from "./tensor-kinds.js";

const FP16_MAX = 65504;

/** CK-08: weights in several float precisions (info), fp16 values near its overflow limit (medium). */
export function detectDtypeMix(info: CheckpointInfo): Finding[] {
  const out: Finding[] = [];
  const weights = info.tensors.filter(isWeight);
  const weightDtypes = [...new Set(weights.map((t) => t.dtype).filter((d) => d !== null && isFloatDType(d)))];
  const declared = Object.keys(info.dtypes).map((d) => normalizeDType(d)).filter((d) => d !== null && isFloatDType(d));
  const floatDtypes = weights.length > 0 ? weightDtypes : [...new Set(declared)];
  const evidence: Evidence[] = [];
  if (floatDtypes.length > 1) {
    evidence.push({ rule_id: "CK-08", artifact: tensorArtifact(info), text: `Weights are stored in ${floatDtypes.join(", ")}${weights.length > 0 ? ` (${floatDtypes.map((d) => `${d}: ${weights.filter((t) => t.dtype === d).length}`).join(", ")})` : ""}.`, observed: floatDtypes.join(",") });
  }
  const saved = typeof info.metadata.dtype === "string" ? normalizeDType(info.metadata.dtype) : null;
  const native = typeof info.config?.torch_dtype === "string" ? normalizeDType(info.config.torch_dtype) : null;
  if (saved && native && saved !== native) {
    evidence.push({ rule_id: "CK-08", artifact: "model_checkpoint_artifacts.metadata.dtype", text: `Saved as ${saved} while the model's native dtype (config.torch_dtype) is ${native}.`, observed: saved, threshold: native });
  }
  if (evidence.length > 0) {
    out.push(detectorFinding({
      id: "checkpoint.dtype_mix",
      title: "Checkpoint mixes floating-point precisions",
      description: `${evidence.map((e) => e.text).join(" ")} Mixed precisions are normal for norms and master weights, but unintended ones change memory, speed and numerics.`,
      evidence,
      severity: "info",
      confidence: 0.7,
      recommendation: { action: "Adopt one precision policy (e.g. bf16 weights, fp32 norms/softmax) and cast deliberately when saving.", rationale: "Accidental casts cost memory or precision and hide mixed-precision bugs.", category: "model", effort: "low" },
    }));
  }
  const hot = info.tensors.filter((t) => t.dtype === "F16" && (t.values?.maxAbs ?? 0) >= 0.9 * FP16_MAX);
  if (hot.length > 0) {
    out.push(detectorFinding({
      id: "checkpoint.dtype_mix",
      title: "fp16 tensors near the fp16 overflow limit",
      description: `${listNames(hot)} hold fp16 values within 10 % of 65 504, the largest fp16 number: the next update or activation can overflow to Inf.`,
      evidence: hot.slice(0, 8).map((t) => ({ rule_id: "CK-08", artifact: tensorArtifact(info, t.name), text: `${t.name}: max |value| ${fmt(t.values!.maxAbs)} vs fp16 max ${FP16_MAX}.`, observed: t.values!.maxAbs, threshold: 0.9 * FP16_MAX })),
      severity: "medium",
      confidence: 0.8,
      recommendation: { action: "Train and store in bf16 (same range as fp32) or fp32, keep loss scaling on, and check why these weights grew so large.", rationale: "fp16 overflows above 65 504; bf16 has fp32's exponent range.", category: "training", effort: "low" },
    }));
  }
  return out;
}
