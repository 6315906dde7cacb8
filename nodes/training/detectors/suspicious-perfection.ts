import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curve, pointLabel } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** Catalog TH-19: ≥ 0.99 within the first 10 % of evaluations (UMLAUT uses > 0.95), or val loss ≈ 0. */
const PERFECT = 0.99;
const EARLY_SHARE = 0.1;
const ZERO_LOSS = 1e-3;

/** TH-19: near-perfect validation accuracy/AUC from the first evaluations, or a validation loss of about zero. */
function detectSuspiciousPerfection(run: TrainingRun): Finding[] {
  const evidence: Evidence[] = [];
  for (const quantity of ["accuracy", "auc"]) {
    const c = curve(run, "val", quantity);
    if (!c) continue;
    const early = Math.max(1, Math.ceil(EARLY_SHARE * c.values.length));
    const i = c.values.subarray(0, early).findIndex((v) => v >= PERFECT);
    if (i < 0) continue;
    evidence.push({ rule_id: "TH-19", artifact: metricArtifact(c.name), text: `${c.name} is ${fmt(c.values[i]!)} already at ${pointLabel(c, i)} (evaluation ${i + 1} of ${c.values.length}; the first ${pct(EARLY_SHARE)} are checked).`, window: [c.steps[i]!, c.steps[i]!], observed: round(c.values[i]!), threshold: PERFECT, n_points: c.values.length, values: { final: round(c.values[c.values.length - 1]!) } });
  }
  const loss = curve(run, "val", "loss");
  if (loss) {
    const last = loss.values[loss.values.length - 1]!;
    if (last >= 0 && last < ZERO_LOSS) {
      evidence.push({ rule_id: "TH-19", artifact: metricArtifact(loss.name), text: `${loss.name} ends at ${fmt(last)}, essentially zero.`, observed: round(last), threshold: ZERO_LOSS, n_points: loss.values.length });
    }
  }
  if (evidence.length === 0) return [];
  return [
    detectorFinding({
      id: "training.suspicious_perfection",
      title: "Validation score suspiciously perfect",
      description: `${evidence[0]!.text.replace(/\.$/, "")}: a near-perfect validation score this early is more often leakage (duplicates across splits, an ID or post-outcome column) than a solved task.`,
      evidence,
      severity: "medium",
      confidence: scoreConfidence({ strength: evidence.length, threshold: 1, corroborations: evidence.length - 1, benignPossible: true }),
      recommendation: {
        action: "Audit the splits: exact and near duplicates across train/validation, ID, timestamp and post-outcome columns; compare with a simple baseline on a clean split.",
        rationale: "Leakage inflates validation scores (Kaufman et al.; Kapoor & Narayanan); CIFAR test sets held 3–10 % near-duplicates of training images.",
        category: "data",
        effort: "medium",
      },
    }),
  ];
}

export const suspiciousPerfection: TrainingDetector = {
  info: {
    id: "training.suspicious_perfection",
    rule: "TH-19",
    title: "Suspicious perfection",
    threshold: "val accuracy or AUC ≥ 0.99 within the first 10 % of evaluations, or final val loss < 1e-3",
    severities: ["medium"],
    basis: "UMLAUT (> 0.95); leakage literature [K19][K20][K31]",
  },
  detect: detectSuspiciousPerfection,
};
