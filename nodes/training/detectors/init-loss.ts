import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { pickSeries, runExtent } from "../curves.js";
import type { MetricSeries, TrainingRun } from "../model.js";
import { numClasses } from "../run-config.js";
import { firstIndexWhereFinite } from "../stats.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";

/** Whether a series logs batches rather than epoch averages (an epoch average already includes learning). */
function perBatch(s: MetricSeries): boolean {
  if (s.aggregation) return s.aggregation === "step";
  if (s.epochs) {
    const epochs = new Set<number>();
    for (let i = 0; i < s.epochs.length; i++) if (Number.isFinite(s.epochs[i]!)) epochs.add(Math.floor(s.epochs[i]!));
    return s.values.length > 1.5 * Math.max(1, epochs.size);
  }
  return s.values.length >= 100;
}

/**
 * TH-05: the first logged training loss of a K-class softmax model is far from ln K (> 3·ln K, or < 0.5·ln K when a
 * per-batch loss was logged at the very start: an epoch average or a later first log may already have learned).
 */
function detectInitLossSanity(run: TrainingRun): Finding[] {
  const k = numClasses(run);
  const s = pickSeries(run, "train", "loss", "fine");
  if (!k || !s) return [];
  const i = firstIndexWhereFinite(s.values, true);
  if (i < 0) return [];
  const first = s.values[i]!;
  const step = s.steps[i]!;
  const chance = Math.log(k);
  const { first: start, last } = runExtent(run);
  const atStart = step - start <= 0.01 * Math.max(1, last - start) || step <= 1;
  const high = first > 3 * chance;
  const low = atStart && perBatch(s) && first < 0.5 * chance;
  if (!high && !low) return [];
  const ratio = first / chance;
  return [
    detectorFinding({
      id: "training.init_loss_sanity",
      title: high ? "Initial loss far above chance level" : "Initial loss suspiciously below chance level",
      description: `The first logged ${s.name} is ${fmt(first)} at step ${step}, ${fmt(ratio)}× the ${k}-class chance loss ln K = ${fmt(chance)}: ${high ? "the output layer starts over-confident (initialization, bias or a sum-reduced loss)" : "the model knows the answer before training (label leakage, a pretrained head or a mismatched loss)"}.`,
      evidence: [
        {
          rule_id: "TH-05",
          artifact: metricArtifact(s.name),
          text: `First ${s.name} ${fmt(first)} at step ${step}; ln ${k} = ${fmt(chance)}; allowed range ${fmt(0.5 * chance)}–${fmt(3 * chance)}.`,
          window: [step, step],
          observed: round(first),
          threshold: high ? round(3 * chance) : round(0.5 * chance),
          n_points: 1,
          values: { num_classes: k, chance_loss: round(chance), ratio: round(ratio) },
        },
      ],
      severity: "medium",
      confidence: high ? scoreConfidence({ strength: ratio, threshold: 3 }) : scoreConfidence({ strength: 0.5 / ratio, threshold: 1 }),
      recommendation: {
        action: "Check the final layer's initialization and bias, the label encoding and whether the loss is summed instead of averaged; at initialization a softmax classifier should score about ln K.",
        rationale: "Karpathy's recipe: verify the loss at init; a wrong starting point wastes the first part of training or hides a bug.",
        category: "model",
        effort: "low",
      },
    }),
  ];
}

export const initLossSanity: TrainingDetector = {
  info: {
    id: "training.init_loss_sanity",
    rule: "TH-05",
    title: "Initial loss sanity",
    threshold: "first train loss > 3·ln K, or < 0.5·ln K for a per-batch loss logged within the first 1 % of the run (K from num_classes/num_labels)",
    severities: ["medium"],
    basis: "Karpathy, 'verify loss @ init' [K02]",
  },
  detect: detectInitLossSanity,
};
