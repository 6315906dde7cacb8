import type { Finding, Severity } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type Curve, curve, pointLabel, valueAt } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { numClasses } from "../run-config.js";
import { argExtreme, mean, movingAverage, smoothingWindow } from "../stats.js";
import { fmt, metricArtifact, pct, round, type TrainingDetector } from "./detector.js";
import { findDivergence } from "./divergence.js";
import { finalValue, finalWindow } from "../final-value.js";

interface Gap {
  kind: "accuracy" | "loss";
  train: Curve;
  val: Curve;
  trainFinal: number;
  valFinal: number;
  gap: number;
  band: number;
  severity: Severity;
  se: number;
  /** Loss gaps: val − train and the scale it was judged against. */
  absolute?: number;
  scale?: LossScale;
}

/** AutoTrainer accuracy bands: gap ≥ 0.10 (train ≤ 0.9) or ≥ 0.07 (train > 0.9); high at twice the band. */
function accuracyGap(train: Curve, val: Curve): Gap | null {
  const t = finalValue(train);
  const v = finalValue(val, true);
  const gap = t.value - v.value;
  const band = t.value > 0.9 ? 0.07 : 0.1;
  const se = Math.hypot(t.se, v.se);
  if (gap < band || gap <= 3 * se) return null;
  return { kind: "accuracy", train, val, trainFinal: t.value, valFinal: v.value, gap, band, se, severity: gap >= 2 * band ? "high" : "medium" };
}

/**
 * A loss gap must also be material on the loss's own scale: at least this share of the reference loss (the
 * chance-level or initial loss) for medium, twice it for high. Near a zero train loss the DeepFix ratio alone
 * explodes (0.048 → 0.126 is "162 %") although the absolute gap is a rounding error of the loss's range.
 */
const MATERIAL_SHARE = 0.05;
/** A train loss that rose by more than this share since the best validation point is not "still fitting". */
const TRAIN_RISE_SHARE = 0.02;

interface LossScale {
  value: number;
  /** What the scale is, for the evidence. */
  basis: string;
}

/**
 * The loss's own scale: the K-class chance-level loss ln K when the run states K and it is the lower one, else the
 * first logged train loss (the loss at initialization, ≈ ln K for a softmax classifier).
 */
function lossScale(run: TrainingRun, train: Curve): LossScale | null {
  const initial = train.values[0]!;
  const k = numClasses(run);
  if (k !== null && Math.log(k) < initial) return { value: Math.log(k), basis: `the ${k}-class chance-level loss ln K = ${fmt(Math.log(k))}` };
  return initial > 0 ? { value: initial, basis: `the initial ${train.name} ${fmt(initial)} (${pointLabel(train, 0)})` } : null;
}

/**
 * DeepFix loss bands, (val − train)/train > 0.15 medium, > 0.3 high, when the absolute gap val − train is also
 * above 3 SE and material: ≥ 5 % of the loss scale for medium, ≥ 10 % for high (a 30 % ratio on an immaterial
 * gap is medium at most).
 */
function lossGap(run: TrainingRun, train: Curve, val: Curve): Gap | null {
  const t = finalValue(train);
  const v = finalValue(val, true);
  if (t.value <= 0) return null;
  const scale = lossScale(run, train);
  if (!scale) return null;
  const gap = (v.value - t.value) / t.value;
  const absolute = v.value - t.value;
  const se = Math.hypot(t.se, v.se);
  const material = MATERIAL_SHARE * scale.value;
  if (gap <= 0.15 || absolute <= 3 * se || absolute < material) return null;
  const severity: Severity = gap > 0.3 && absolute >= 2 * material ? "high" : "medium";
  return { kind: "loss", train, val, trainFinal: t.value, valFinal: v.value, gap, band: 0.15, se, severity, absolute, scale };
}

/**
 * Why a final gap does not measure generalization: the training loss itself is not fitting any more, because it
 * diverges (TH-02) or rose materially since the best validation point. The gap at the end of an unstable run
 * reflects the instability (reported by TH-02/TH-03), and "regularize" would be the wrong advice.
 */
export function unstableTraining(run: TrainingRun): string | null {
  const train = curve(run, "train", "loss");
  if (!train || train.values.length < 3) return null;
  const d = findDivergence(train);
  if (d) return `${train.name} diverges (smoothed minimum ${fmt(d.min)} at ${pointLabel(train, d.minIndex)}, ${fmt(d.end)} at the end)`;
  const val = curve(run, "val", "loss");
  if (!val || val.values.length < 3) return null;
  const vw = smoothingWindow(val.values.length);
  const vs = movingAverage(val.values, vw);
  const half = Math.min(Math.floor(vw / 2), Math.floor((val.values.length - 1) / 2));
  const best = argExtreme(vs, "min", half, val.values.length - half);
  const tw = smoothingWindow(train.values.length);
  const smooth = { steps: train.steps, values: movingAverage(train.values, tw) };
  const atBest = valueAt(smooth, val.steps[best]!);
  const atEnd = finalValue(train).value;
  const rise = atEnd - atBest;
  if (rise > 3 * (train.noise / Math.sqrt(tw)) && rise > TRAIN_RISE_SHARE * Math.abs(atBest)) {
    return `${train.name} rose from ${fmt(atBest)} at the best validation point (${pointLabel(val, best)}) to ${fmt(atEnd)} at the end`;
  }
  return null;
}

/** The evidence sentence on the material scale of a loss gap. */
function materialText(g: Gap): string {
  if (g.absolute === undefined || !g.scale) return "";
  return ` Absolute gap ${fmt(g.absolute)} = ${pct(g.absolute / g.scale.value)} of ${g.scale.basis} (material at ≥ ${pct(MATERIAL_SHARE)}, high needs ≥ ${pct(2 * MATERIAL_SHARE)} too).`;
}

/**
 * TH-14: the final train and validation metrics are far apart (accuracy when logged, else loss). Not reported
 * when the training loss itself stopped fitting (diverging or rising since the best validation point): then the
 * end gap measures instability, not generalization.
 */
function detectGeneralizationGap(run: TrainingRun): Finding[] {
  const trainAcc = curve(run, "train", "accuracy");
  const valAcc = curve(run, "val", "accuracy");
  const trainLoss = curve(run, "train", "loss");
  const valLoss = curve(run, "val", "loss");
  const g = trainAcc && valAcc ? accuracyGap(trainAcc, valAcc) : trainLoss && valLoss ? lossGap(run, trainLoss, valLoss) : null;
  if (!g || unstableTraining(run)) return [];
  const what = g.kind === "accuracy" ? `${fmt(g.gap)} accuracy` : `${pct(g.gap)} relative (${fmt(g.absolute!)} absolute) loss`;
  return [
    detectorFinding({
      id: "training.generalization_gap",
      title: "Large generalization gap",
      description: `At the end of training ${g.train.name} is ${fmt(g.trainFinal)} against ${fmt(g.valFinal)} for ${g.val.name}, a ${what} gap: the model fits the training data much better than data it has not seen (overfitting, or validation data from a different distribution).`,
      evidence: [
        {
          rule_id: "TH-14",
          artifact: metricArtifact(g.val.name),
          text: `Final (mean of the last ${finalWindow(g.train.values.length)}/${finalWindow(g.val.values.length)} points) ${g.train.name} ${fmt(g.trainFinal)}, ${g.val.name} ${fmt(g.valFinal)}; gap ${g.kind === "accuracy" ? fmt(g.gap) : pct(g.gap)} against a band of ${g.kind === "accuracy" ? fmt(g.band) : pct(g.band)} (high at ${g.kind === "accuracy" ? fmt(2 * g.band) : "30 %"}).${materialText(g)}`,
          window: [g.val.steps[g.val.steps.length - 1]!, g.val.steps[g.val.steps.length - 1]!],
          observed: round(g.gap),
          threshold: g.band,
          noise_estimate: round(g.se),
          n_points: g.val.values.length,
          values: {
            metric: g.kind,
            train_final: round(g.trainFinal),
            val_final: round(g.valFinal),
            ...(g.absolute !== undefined && g.scale ? { absolute_gap: round(g.absolute), loss_scale: round(g.scale.value), gap_share_of_scale: round(g.absolute / g.scale.value) } : {}),
          },
        },
      ],
      severity: g.severity,
      confidence: scoreConfidence({ strength: g.gap, threshold: g.band, points: g.val.values.length, benignPossible: true }),
      recommendation: {
        action: "First rule out a split problem (train/validation drift or leakage); then regularize (weight decay, dropout, augmentation), collect more data or use a smaller model.",
        rationale: "A gap this size means the fit does not transfer; when validation comes from a shifted distribution, regularization alone will not close it.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}

export const generalizationGap: TrainingDetector = {
  info: {
    id: "training.generalization_gap",
    rule: "TH-14",
    title: "Generalization gap",
    threshold:
      "final accuracy gap ≥ 0.10 (train ≤ 0.9) or ≥ 0.07 (train > 0.9), high at 2× the band; without accuracies, (val − train)/train loss > 0.15 medium, > 0.3 high, and val − train ≥ 5 % (high: 10 %) of the loss scale (ln K when stated and lower, else the first train loss); gap > 3 SE; not reported while the train loss diverges or rose > 2 % (and 3 SE) since the best validation point",
    severities: ["high", "medium"],
    basis: "AutoTrainer gap bands; DeepFix loss-gap bands; Zhang et al. on memorization [K01][K28]",
  },
  detect: detectGeneralizationGap,
};
