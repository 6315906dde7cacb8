import type { Finding } from "../../../domain/result.js";
import { detectorFinding } from "../../findings.js";
import { pickSeries, runExtent } from "../curves.js";
import type { MetricSeries, TrainingRun } from "../model.js";
import { metricArtifact, pct, round, type TrainingDetector } from "./detector.js";

/** Fewer validation points than this cannot show a trend; a first evaluation this late misses early instability. */
const MIN_POINTS = 5;
const LATE_FIRST = 0.25;

function validationSeries(run: TrainingRun): MetricSeries | undefined {
  return pickSeries(run, "val", "loss") ?? [...run.series.values()].find((s) => s.split === "val");
}

/** TH-22: no validation metric, fewer than 5 validation points, or the first evaluation after 25 % of the run. */
function detectEvalCoverage(run: TrainingRun): Finding[] {
  if (run.series.size === 0) return [];
  const val = validationSeries(run);
  const { first, last } = runExtent(run);
  const missing = ["lr", "grad_norm"].filter((q) => !pickSeries(run, "none", q));
  let problem: string | null = null;
  if (!val) problem = "No validation metric was logged, so overfitting and generalization cannot be judged.";
  else if (val.values.length < MIN_POINTS) problem = `Only ${val.values.length} validation point(s) of ${val.name} were logged: too few to see a trend.`;
  else if (last > first && (val.steps[0]! - first) / (last - first) > LATE_FIRST) problem = `The first validation point of ${val.name} is at step ${val.steps[0]} (${pct((val.steps[0]! - first) / (last - first))} into the run): early instability would go unseen.`;
  if (!problem) return [];
  return [
    detectorFinding({
      id: "training.eval_coverage",
      title: "Validation coverage is thin",
      description: `${problem}${missing.length > 0 ? ` The run also does not log ${missing.join(" or ")}.` : ""}`,
      evidence: [
        {
          rule_id: "TH-22",
          artifact: val ? metricArtifact(val.name) : "training_artifacts.metrics",
          text: problem,
          observed: val ? val.values.length : 0,
          threshold: MIN_POINTS,
          n_points: val?.values.length ?? 0,
          values: { first_eval_step: val ? val.steps[0]! : null, run_last_step: last, unlogged: missing.join(",") || null, first_eval_share: val && last > first ? round((val.steps[0]! - first) / (last - first)) : null },
        },
      ],
      severity: "info",
      confidence: 0.9,
      recommendation: {
        action: "Evaluate on a validation set regularly, more often early in training, and log the learning rate and gradient norm with the losses.",
        rationale: "The tuning playbook recommends frequent evaluation so instability and overfitting are visible, and lr/grad-norm logs to diagnose them.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const evalCoverage: TrainingDetector = {
  info: {
    id: "training.eval_coverage",
    rule: "TH-22",
    title: "Evaluation coverage",
    threshold: "no validation metric, < 5 validation points, or the first evaluation after 25 % of the run; notes unlogged lr/grad_norm",
    severities: ["info"],
    basis: "Tuning playbook on evaluation frequency [K01]",
  },
  detect: detectEvalCoverage,
};
