import type { Finding } from "../../../domain/result.js";
import type { CrossEvidence, CrossRule } from "../evidence.js";
import { crossFinding, pct } from "./common.js";

const LEAKAGE_FINDINGS = ["checks.leakage_failed", "dataset.train_test_overlap", "dataset.label_predictive_feature", "dataset.label_signal_split_change", "dataset.time_split_leak"];

/** The first leakage signal from the data side: a failed leakage check, measured overlap, a predictive feature or ID, a split leak. */
function leakageSignal(ev: CrossEvidence): Finding | undefined {
  for (const id of LEAKAGE_FINDINGS) {
    const f = ev.get(id);
    if (f) return f;
  }
  return undefined;
}

/** XA-01: a near-perfect validation score together with any leakage signal — the score is not valid. */
export const detectScoreWithLeakage: CrossRule = (ev) => {
  const leak = leakageSignal(ev);
  const perfect = ev.get("training.suspicious_perfection");
  const bestAcc = ev.facts.training?.best_val_accuracy ?? null;
  if (!leak || (!perfect && !(bestAcc !== null && bestAcc >= 0.98))) return [];
  const overlap = ev.facts.checks?.overlap_fraction ?? ev.facts.dataset?.overlap_fraction ?? null;
  return [
    crossFinding({
      name: "score_with_leakage",
      rule: "XA-01",
      title: "Reported score is not valid: leakage between splits",
      description:
        `Validation looks near perfect${bestAcc !== null ? ` (best accuracy ${bestAcc.toFixed(3)})` : ""} while ${leak.title.toLowerCase()}` +
        `${overlap !== null ? ` (${pct(overlap)} of evaluation rows also in train)` : ""}. The model is being scored on data it has effectively seen; treat the score as invalid until it is re-measured on a leakage-free split.`,
      severity: "critical",
      basedOn: [perfect, leak],
      baseConfidence: 0.75,
      evidence: bestAcc !== null ? [{ artifact: "training_artifacts.metrics", text: `Best validation accuracy ${bestAcc.toFixed(4)}.`, observed: bestAcc, threshold: 0.98 }] : [],
      recommendation: {
        action: "De-duplicate across splits, split by group (customer, order) or by time, drop post-outcome and ID columns, then re-evaluate against a simple baseline.",
        rationale: "A validation score only measures generalization on data the model has not effectively seen.",
        category: "data",
        effort: "medium",
      },
    }),
  ];
};

/** XA-05: validation at or above train together with overlap between the splits. */
export const detectInversionWithOverlap: CrossRule = (ev) => {
  const inversion = ev.get("training.train_val_inversion");
  const leak = leakageSignal(ev);
  if (!inversion || !leak) return [];
  return [
    crossFinding({
      name: "inversion_with_overlap",
      rule: "XA-05",
      title: "Validation beats training because the splits overlap",
      description: `Validation metrics are better than training ones while ${leak.title.toLowerCase()}: the usual benign causes (dropout, augmentation) do not explain it when evaluation rows are also training rows.`,
      severity: "high",
      basedOn: [inversion, leak],
      recommendation: {
        action: "Remove the rows shared between train and validation/test and re-evaluate.",
        rationale: "Overlapping rows are memorized, so validation measures recall of training data rather than generalization.",
        category: "data",
        effort: "low",
      },
    }),
  ];
};

export const LEAKAGE_RULES: readonly CrossRule[] = [detectScoreWithLeakage, detectInversionWithOverlap];
