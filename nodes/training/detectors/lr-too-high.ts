import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curve, runExtent } from "../curves.js";
import { peakLearningRate } from "../learning-rate.js";
import type { TrainingRun } from "../model.js";
import { optimizerFamily } from "../run-config.js";
import { fmt, metricArtifact, PARAMS_ARTIFACT, pct, type TrainingDetector } from "./detector.js";
import { findDivergence } from "./divergence.js";
import { findLossSpikes } from "./loss-spikes.js";
import { firstBadLoss } from "./nonfinite-loss.js";

/** Instability counts as early within the first 10 % of the run. */
const EARLY_SHARE = 0.1;
/** Typical upper ends of the learning rate (UMLAUT): Adam-family 1e-2, SGD 1. */
const TYPICAL_MAX = { adam: 1e-2, sgd: 1 } as const;

/** Early instability: a non-finite loss, an unrecovered spike or two spikes, or the divergence minimum within the first 10 % of steps. */
function earlyInstability(run: TrainingRun): Evidence | null {
  const { first, last } = runExtent(run);
  const limit = first + EARLY_SHARE * (last - first);
  const train = [...run.series.values()].find((s) => s.split === "train" && s.quantity === "loss");
  const bad = train && firstBadLoss(train);
  if (train && bad && train.steps[bad.index]! <= limit) {
    return { rule_id: "TH-08", artifact: metricArtifact(train.name), text: `${train.name} is non-finite already at step ${train.steps[bad.index]} (first ${pct(EARLY_SHARE)} of the run).`, observed: train.steps[bad.index]!, threshold: limit };
  }
  const spikes = findLossSpikes(run);
  const early = spikes?.spikes.filter((s) => spikes.steps[s.peak]! <= limit) ?? [];
  if (spikes && (early.length >= 2 || early.some((s) => s.recovered === false))) {
    const steps = early.map((s) => spikes.steps[s.peak]!);
    return { rule_id: "TH-08", artifact: metricArtifact(spikes.name), text: `${spikes.name} spikes at step${steps.length > 1 ? "s" : ""} ${steps.join(", ")}, within the first ${pct(EARLY_SHARE)} of the run.`, observed: early.length, threshold: limit };
  }
  const c = curve(run, "train", "loss");
  const d = c && findDivergence(c);
  if (c && d && c.steps[d.minIndex]! <= limit) {
    return { rule_id: "TH-08", artifact: metricArtifact(c.name), text: `${c.name} bottoms out at step ${c.steps[d.minIndex]} (${fmt(d.min)}) and climbs to ${fmt(d.end)}: it diverges from the first ${pct(EARLY_SHARE)} of the run.`, observed: c.steps[d.minIndex]!, threshold: limit };
  }
  return null;
}

/** TH-08: early instability, or a peak learning rate above the optimizer's typical range. */
function detectLrTooHigh(run: TrainingRun): Finding[] {
  const unstable = earlyInstability(run);
  const peak = peakLearningRate(run);
  const family = optimizerFamily(run);
  const max = family === "adam" || family === "sgd" ? TYPICAL_MAX[family] : null;
  const tooBig = peak && max !== null && peak.value > max;
  if (!unstable && !tooBig) return [];
  const evidence: Evidence[] = unstable ? [unstable] : [];
  if (peak && tooBig) {
    evidence.push({
      rule_id: "TH-08",
      artifact: peak.source === "series" ? metricArtifact("lr") : PARAMS_ARTIFACT,
      text: `Peak learning rate ${fmt(peak.value)}${peak.step !== null ? ` at step ${peak.step}` : ""} is above the typical maximum ${fmt(max!)} for ${family === "adam" ? "Adam-family optimizers" : "SGD"}.`,
      observed: peak.value,
      threshold: max,
    });
  }
  return [
    detectorFinding({
      id: "training.lr_too_high",
      title: "Learning rate too high",
      description: unstable
        ? `Training is unstable from the start (${unstable.text.replace(/\.$/, "")}): the learning rate is most likely too high for this model and batch size.`
        : `The peak learning rate ${fmt(peak!.value)} is above the usual range for this optimizer; expect instability or poor convergence.`,
      evidence,
      severity: unstable ? "high" : "medium",
      confidence: scoreConfidence({ strength: evidence.length, threshold: 1, corroborations: unstable && tooBig ? 1 : 0, benignPossible: !unstable }),
      recommendation: {
        action: "Run a learning-rate range test and pick a peak below where the loss starts to rise; warm up over ≤ 10 % of the steps and clip gradients.",
        rationale: "Instability in the first steps is the classic symptom of an oversized step; a range test finds a safe peak and warm-up avoids early overshoot.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const lrTooHigh: TrainingDetector = {
  info: {
    id: "training.lr_too_high",
    rule: "TH-08",
    title: "Learning rate too high",
    threshold: "non-finite loss, an unrecovered spike or ≥ 2 spikes, or the divergence minimum within the first 10 % of steps (high); peak lr > 1e-2 (Adam family) or > 1 (SGD) alone (medium)",
    severities: ["high", "medium"],
    basis: "LR range test; UMLAUT lr bounds; tuning playbook on warm-up [K03][K01][P-UMLAUT]",
  },
  detect: detectLrTooHigh,
};
