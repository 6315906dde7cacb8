import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, valueAt } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { trainOnlyRegularization } from "../run-config.js";
import { median, movingAverage, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** UMLAUT overconfident_val: val loss < 0.9 × train loss, or val accuracy > train by 2 SE, on > 50 % of evaluations. */
const LOSS_RATIO = 0.9;
const SHARE = 0.5;
/** Inversions beyond this are more than dropout or augmentation usually explain. */
const STRONG_LOSS_RATIO = 0.5;
const STRONG_ACC_LEAD = 0.05;

interface Inversion {
  evidence: Evidence;
  strong: boolean;
  share: number;
}

/** Train values at the validation steps, from the smoothed train curve. */
function trainAt(train: Curve, val: Curve): Float64Array {
  const smooth = { steps: train.steps, values: movingAverage(train.values, smoothingWindow(train.values.length)) };
  return val.steps.map((s) => valueAt(smooth, s));
}

function lossInversion(train: Curve, val: Curve): Inversion | null {
  const t = trainAt(train, val);
  const ratios = val.values.map((v, i) => (t[i]! > 0 ? v / t[i]! : 1));
  const share = ratios.filter((r) => r < LOSS_RATIO).length / ratios.length;
  if (share <= SHARE) return null;
  const typical = median(ratios);
  return {
    share,
    strong: typical < STRONG_LOSS_RATIO,
    evidence: { rule_id: "TH-18", artifact: metricArtifact(val.name), text: `${val.name} is below ${LOSS_RATIO} × ${train.name} on ${pct(share)} of ${val.values.length} evaluations (median ratio ${fmt(typical)}).`, window: [val.steps[0]!, val.steps[val.steps.length - 1]!], observed: round(share), threshold: SHARE, n_points: val.values.length, values: { median_ratio: round(typical) } },
  };
}

function accuracyInversion(train: Curve, val: Curve): Inversion | null {
  const t = trainAt(train, val);
  const margin = Math.max(2 * val.noise, 0.005);
  const leads = val.values.map((v, i) => v - t[i]!);
  const share = leads.filter((d) => d > margin).length / leads.length;
  if (share <= SHARE) return null;
  const typical = median(leads);
  return {
    share,
    strong: typical > STRONG_ACC_LEAD,
    evidence: { rule_id: "TH-18", artifact: metricArtifact(val.name), text: `${val.name} exceeds ${train.name} by more than ${fmt(margin)} (2 SE) on ${pct(share)} of ${val.values.length} evaluations (median lead ${fmt(typical)}).`, window: [val.steps[0]!, val.steps[val.steps.length - 1]!], observed: round(share), threshold: SHARE, noise_estimate: round(val.noise), n_points: val.values.length, values: { median_lead: round(typical) } },
  };
}

/** TH-18: validation consistently better than training. */
function detectTrainValInversion(run: TrainingRun): Finding[] {
  const pairs: Array<Inversion | null> = [];
  const tl = curve(run, "train", "loss");
  const vl = curve(run, "val", "loss");
  const ta = curve(run, "train", "accuracy");
  const va = curve(run, "val", "accuracy");
  if (tl && vl) pairs.push(lossInversion(tl, vl));
  if (ta && va) pairs.push(accuracyInversion(ta, va));
  const found = pairs.filter((p): p is Inversion => !!p);
  if (found.length === 0) return [];
  const strong = found.some((f) => f.strong);
  const benign = trainOnlyRegularization(run);
  const mild = !strong && benign.length > 0;
  return [
    detectorFinding({
      id: "training.train_val_inversion",
      title: "Validation better than training",
      description: `Validation is consistently better than training (${found.map((f) => f.evidence.text.replace(/\.$/, "")).join("; ")}). ${benign.length > 0 ? `Training-only regularization (${benign.join(", ")}) explains a small inversion${strong ? ", but not one this large" : ""}` : "Dropout, augmentation or epoch-averaged training metrics can explain a small inversion"}; otherwise suspect overlap between the splits.`,
      evidence: found.map((f) => f.evidence),
      severity: mild ? "low" : "medium",
      confidence: scoreConfidence({ strength: Math.max(...found.map((f) => f.share)), threshold: SHARE, corroborations: found.length - 1, benignPossible: !strong }),
      recommendation: {
        action: "Evaluate the training set in eval mode (no dropout/augmentation) at the end of an epoch to rule out the benign causes; if validation still wins, check the splits for overlap and leakage.",
        rationale: "Keras' FAQ explains benign inversions (regularization active only in training, epoch-averaged train loss); an inversion that survives eval-mode measurement points to leakage.",
        category: "data",
        effort: "low",
      },
    }),
  ];
}

export const trainValInversion: TrainingDetector = {
  info: {
    id: "training.train_val_inversion",
    rule: "TH-18",
    title: "Train/validation inversion",
    threshold: "val loss < 0.9 × smoothed train loss, or val accuracy > train + max(2 SE, 0.005), on > 50 % of evaluations; low when declared dropout/augmentation explains a mild inversion",
    severities: ["medium", "low"],
    basis: "UMLAUT overconfident_val; Keras FAQ on train vs test loss [K38][K19]",
  },
  detect: detectTrainValInversion,
};
