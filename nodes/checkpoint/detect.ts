import type { Finding } from "../../graph/result.js";
import { detectorFinding } from "../findings.js";
import type { CheckpointInfo } from "./parse.js";

/** CK-02: any NaN/Inf in the weights. */
export function detectNonfiniteWeights(info: CheckpointInfo): Finding[] {
  const bad = info.nanCount + info.infCount;
  if (bad === 0) return [];
  return [
    detectorFinding({
      id: "checkpoint.nonfinite_weights",
      title: "Checkpoint holds non-finite weights",
      description: `The checkpoint has ${info.nanCount} NaN and ${info.infCount} infinite values: it cannot produce valid predictions.`,
      evidence: [{ rule_id: "CK-02", artifact: "model_checkpoint_artifacts.metadata.tensor_stats", text: `nan_count ${info.nanCount}, inf_count ${info.infCount}.`, observed: bad, threshold: 0 }],
      severity: "critical",
      confidence: 0.95,
      recommendation: { action: "Restore an earlier checkpoint with finite weights and fix the instability that produced this one.", rationale: "Non-finite weights propagate NaN to every output.", category: "model", effort: "low" },
    }),
  ];
}

/** CK-10: no model configuration or hyperparameters saved with the checkpoint. */
export function detectMissingMetadata(info: CheckpointInfo): Finding[] {
  const m = info.metadata;
  if (m.config || m.hyper_parameters || m.architecture) return [];
  return [
    detectorFinding({
      id: "checkpoint.missing_metadata",
      title: "Checkpoint saved without its configuration",
      description: "No model configuration, architecture or hyperparameters were recorded with the checkpoint, so it cannot be rebuilt or audited reliably.",
      evidence: [{ rule_id: "CK-10", artifact: "model_checkpoint_artifacts.metadata", text: `metadata keys: ${Object.keys(m).join(", ") || "(none)"}.`, observed: "no config" }],
      severity: "low",
      confidence: 0.8,
      recommendation: { action: "Save the model config, hyperparameters, data version, code commit and seed with every checkpoint.", rationale: "Without them a checkpoint cannot be reproduced or compared.", category: "infrastructure", effort: "low" },
    }),
  ];
}

export function detectCheckpointFindings(info: CheckpointInfo): Finding[] {
  return [...detectNonfiniteWeights(info), ...detectMissingMetadata(info)];
}
