import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type ChanceEvidence, findChanceLevel } from "../chance.js";
import type { TrainingRun } from "../model.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";

function describeEvidence(e: ChanceEvidence): string {
  const what = e.kind === "accuracy" ? `chance accuracy ${fmt(e.chance)}` : `the chance-level loss ln K = ${fmt(e.chance)}`;
  const history = e.neverLeft ? "and never left it" : `after reaching ${fmt(e.best)} earlier (smoothed)`;
  return `${e.curve.name} ends at ${fmt(e.final)}, within ${fmt(e.band)} of ${what}, ${history}`;
}

/**
 * TH-04 (chance level): the run ends where a model that learned nothing would be, judged on accuracy (1/K or the
 * majority share) and the loss (ln K) together, whatever the curve did before: an early explosion followed by a
 * drop back to ln K is not a plateau, and a flat curve at chance is not an early-stopping opportunity.
 */
function detectChanceLevel(run: TrainingRun): Finding[] {
  const found = findChanceLevel(run);
  if (!found) return [];
  const { classes, evidence } = found;
  const neverLeft = evidence.every((e) => e.neverLeft);
  return [
    detectorFinding({
      id: "training.chance_level",
      title: neverLeft ? "The model never left chance level" : "The model ended at chance level",
      description: `With K = ${classes.k} classes (from the ${classes.source}), ${evidence.map(describeEvidence).join("; ")}. The model predicts no better than guessing${neverLeft ? "" : ": whatever it learned early was lost"}; this is a failed run, not a plateau to wait out.`,
      evidence: evidence.map((e) => ({
        rule_id: "TH-04",
        artifact: metricArtifact(e.curve.name),
        text: `Final ${e.curve.name} ${fmt(e.final)} against chance ${fmt(e.chance)} (band ±${fmt(e.band)}); best smoothed value ${fmt(e.best)}.`,
        window: [e.curve.steps[0]!, e.curve.steps[e.curve.steps.length - 1]!],
        observed: round(e.final),
        threshold: round(e.kind === "accuracy" ? e.chance + e.band : e.chance - e.band),
        n_points: e.curve.values.length,
        values: { chance: round(e.chance), classes: classes.k, classes_from: classes.source, best: round(e.best), never_left: e.neverLeft },
      })),
      severity: "high",
      confidence: scoreConfidence({ strength: evidence.length, threshold: 1, corroborations: evidence.length - 1, points: Math.min(...evidence.map((e) => e.curve.values.length)) }),
      recommendation: {
        action: "Check the learning rate against the optimizer (Adam: 1e-4 to 1e-3; SGD: 1e-2 to 1e-1), verify the loss at initialization is ln K, overfit a single batch, and check that labels line up with inputs and that activations are not all dead.",
        rationale: "A run that ends at chance carries no information about the model; the cause is almost always the optimizer setting or the data wiring, and these checks find it in minutes.",
        category: "training",
        effort: "medium",
      },
    }),
  ];
}

export const chanceLevel: TrainingDetector = {
  info: {
    id: "training.chance_level",
    rule: "TH-04",
    title: "Chance-level performance",
    threshold:
      "every logged accuracy ends within max(0.03, min(3 SE, 0.1)) of 1/K (SE binomial from the evaluation size, else the larger of σ̂ and the standard deviation of the last quarter) or the majority share, and the train loss (else val) ends no lower than 5 % below ln K; K from params, config (id2label), per-class metric names, a first loss within 5 % of ln K (then an accuracy must agree), else — the first loss a blow-up — two readings of one K at the end: the final loss within 5 % of ln K and the final accuracy within that band of 1/K; whatever came before (explosion, first drop)",
    severities: ["high"],
    basis: "Karpathy's recipe (loss at init ln K, beat the chance baseline); DeepDiagnosis; AutoTrainer not-converge [K02][K03][P-DeepDiagnosis]",
  },
  detect: detectChanceLevel,
};
