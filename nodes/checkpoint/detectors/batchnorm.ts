import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { type CheckpointInfo, hasNonfiniteValues } from "../table.js";
import { inEmaCopy } from "./ema.js";
import { fmt, listNames, tensorArtifact } from "./tensor-kinds.js";

/**
 * CK-07: BatchNorm running variance ≤ 0 or non-finite, or statistics never updated (num_batches_tracked = 0) outside
 * an EMA copy, whose counters stay 0 by design.
 */
export function detectBatchNormStats(info: CheckpointInfo): Finding[] {
  const badVar = info.tensors.filter((t) => t.name.endsWith("running_var") && t.values && ((t.values.min !== null && t.values.min <= 0) || hasNonfiniteValues(t)));
  const untracked = info.tensors.filter((t) => t.name.endsWith("num_batches_tracked") && t.values?.max === 0 && !inEmaCopy(info, t));
  if (badVar.length + untracked.length === 0) return [];
  const parts = [
    badVar.length ? `running variance ≤ 0 or non-finite in ${listNames(badVar)}` : "",
    untracked.length ? `statistics never updated (num_batches_tracked = 0) in ${listNames(untracked)}` : "",
  ].filter(Boolean);
  return [detectorFinding({
    id: "checkpoint.batchnorm_stats",
    title: "BatchNorm running statistics are invalid",
    description: `BatchNorm layers have ${parts.join(", and ")}: in eval mode they normalize with wrong statistics, so predictions differ from training.`,
    evidence: [
      ...badVar.map((t) => ({ rule_id: "CK-07", artifact: tensorArtifact(info, t.name), text: `${t.name}: min ${fmt(t.values!.min)}, ${t.values!.nanCount + t.values!.infCount} non-finite.`, observed: t.values!.min, threshold: 0 })),
      ...untracked.map((t) => ({ rule_id: "CK-07", artifact: tensorArtifact(info, t.name), text: `${t.name} = 0.`, observed: 0, threshold: 1 })),
    ],
    severity: "high",
    confidence: 0.85,
    recommendation: { action: "Train with model.train() so BatchNorm updates its statistics, check frozen-BN fine-tuning setups, and recompute statistics on training data if needed.", rationale: "Eval-mode BatchNorm uses the running statistics; wrong ones shift every activation.", category: "model", effort: "low" },
  })];
}
