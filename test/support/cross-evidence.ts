import type { FactsByKind } from "../../graph/facts.js";
import type { AgentResult, Finding, Severity } from "../../domain/result.js";
import type { ChecksFacts } from "../../nodes/checks/facts.js";
import type { CheckpointFacts } from "../../nodes/checkpoint/facts.js";
import type { DatasetFacts } from "../../nodes/dataset/facts.js";
import type { TrainingFacts } from "../../nodes/training/facts.js";
import { buildAgentResult } from "../../nodes/agent-result.js";
import { detectorFinding } from "../../nodes/findings.js";
import { collectCrossEvidence } from "../../nodes/integrate/evidence.js";

/** A detector finding with just enough content for rules that combine findings. */
export function finding(id: string, severity: Severity = "medium", confidence = 0.7): Finding {
  return detectorFinding({
    id,
    title: id.split(".")[1]!.replace(/_/g, " "),
    description: `${id} observed.`,
    evidence: [{ rule_id: "T", artifact: "test", text: `${id} evidence.` }],
    severity,
    confidence,
    recommendation: { action: `fix ${id}`, rationale: "because", category: "data", effort: "low" },
  });
}

export const trainingFacts = (over: Partial<TrainingFacts> = {}): TrainingFacts => ({
  metrics: [], n_points: 100, val_quantities: ["loss"], last_step: null, last_epoch: null, best_val_step: null, best_val_epoch: null,
  best_val_loss: null, final_val_loss: null, final_train_loss: null, best_val_accuracy: null, final_val_accuracy: null,
  final_train_accuracy: null, val_noise: null, spike_steps: [], lr_peak_step: null, losses_finite: true, params: {}, ...over,
});

export const datasetFacts = (over: Partial<DatasetFacts> = {}): DatasetFacts => ({
  n_train: null, n_val: null, n_test: null, num_classes: null, majority_share: null, imbalance_ratio: null, labels_by_split: {},
  task: null, modality: null, overlap_fraction: null, has_nonfinite_features: false, has_unnormalized_inputs: false, columns: [],
  split_strategy: null, class_shares_by_split: {}, ...over,
});

export const checksFacts = (over: Partial<ChecksFacts> = {}): ChecksFacts => ({
  tools: [], leakage_failures: [], drifted_features: [], drift_share: null, label_drift: null, label_drift_detected: false,
  overlap_fraction: null, nonfinite_columns: [], checks_total: 0, checks_failed: 0, ...over,
});

export const checkpointFacts = (over: Partial<CheckpointFacts> = {}): CheckpointFacts => ({
  format: null, epoch: null, global_step: null, num_parameters: null, head_classes: null, has_optimizer_state: null,
  nonfinite_tensors: 0, scanned: false, best_model_score: null, ...over,
});

/** Cross evidence from findings (grouped into one agent result) and facts. */
export function evidenceOf(findings: Finding[], facts: FactsByKind = {}) {
  const results: Record<string, AgentResult> = { Test: buildAgentResult("Test", findings, [], null, null) };
  return collectCrossEvidence(results, facts);
}
