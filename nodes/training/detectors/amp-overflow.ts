import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curve, pickSeries, runExtent } from "../curves.js";
import type { TrainingRun } from "../model.js";
import { usesFp16 } from "../run-config.js";
import { firstIndexWhereFinite } from "../stats.js";
import { fmt, LOGS_ARTIFACT, metricArtifact, pct, PARAMS_ARTIFACT, type TrainingDetector } from "./detector.js";

/** The loss scale halving ≥ 3 times down to ≤ 1, or > 5 % of steps skipped for overflow. */
const MIN_HALVINGS = 3;
const MAX_SKIPPED = 0.05;

function lossScaleEvidence(run: TrainingRun): Evidence | null {
  const scale = curve(run, "none", "loss_scale", "fine");
  if (!scale) return null;
  let halvings = 0;
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < scale.values.length; i++) {
    min = Math.min(min, scale.values[i]!);
    if (i > 0 && scale.values[i]! <= 0.55 * scale.values[i - 1]!) halvings++;
  }
  if (halvings < MIN_HALVINGS || min > 1) return null;
  return { rule_id: "TH-21", artifact: metricArtifact(scale.name), text: `The loss scale was halved ${halvings} times, down to ${fmt(min)}.`, observed: min, threshold: 1, n_points: scale.values.length, values: { halvings } };
}

function skippedStepsEvidence(run: TrainingRun): Evidence | null {
  const overflows = run.logs.counts.gradient_overflow ?? 0;
  const steps = run.meta.maxSteps ?? runExtent(run).last;
  if (overflows === 0 || steps <= 0 || overflows / steps <= MAX_SKIPPED) return null;
  return { rule_id: "TH-21", artifact: LOGS_ARTIFACT, text: `${overflows} "gradient overflow / skipping step" log lines over ${steps} steps (${pct(overflows / steps)}).`, observed: overflows / steps, threshold: MAX_SKIPPED };
}

/** fp16 with a non-finite gradient norm or loss: the overflow the scaler exists to absorb got through. */
function fp16NonfiniteEvidence(run: TrainingRun): Evidence | null {
  if (!usesFp16(run)) return null;
  for (const s of [pickSeries(run, "none", "grad_norm", "fine"), pickSeries(run, "train", "loss", "fine")]) {
    const i = s ? firstIndexWhereFinite(s.values, false) : -1;
    if (s && i >= 0) {
      return { rule_id: "TH-21", artifact: PARAMS_ARTIFACT, text: `fp16 mixed precision is on and ${s.name} is ${s.values[i]} at step ${s.steps[i]}: an fp16 overflow.`, observed: String(s.values[i]), threshold: "finite" };
    }
  }
  return null;
}

/** TH-21: mixed-precision overflow: collapsing loss scale, many skipped steps, or non-finite values under fp16. */
function detectAmpOverflow(run: TrainingRun): Finding[] {
  const evidence = [lossScaleEvidence(run), skippedStepsEvidence(run), fp16NonfiniteEvidence(run)].filter((e): e is Evidence => !!e);
  if (evidence.length === 0) return [];
  return [
    detectorFinding({
      id: "training.amp_overflow",
      title: "Mixed-precision overflow",
      description: `fp16 overflows are disrupting training (${evidence.map((e) => e.text.replace(/\.$/, "")).join("; ")}): fp16's range (max 65 504) is too narrow for some activations or gradients of this model.`,
      evidence,
      severity: "medium",
      confidence: scoreConfidence({ strength: evidence.length, threshold: 1, corroborations: evidence.length - 1 }),
      recommendation: {
        action: "Train in bf16 if the hardware supports it (and always for bf16-native checkpoints); otherwise keep dynamic loss scaling, compute softmax/norms/reductions in fp32 and look for exploding activations.",
        rationale: "Micikevicius et al.: fp16 needs loss scaling and fp32 reductions; bf16 has fp32's exponent range, so these overflows do not occur.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const ampOverflow: TrainingDetector = {
  info: {
    id: "training.amp_overflow",
    rule: "TH-21",
    title: "Mixed-precision overflow",
    threshold: "loss scale halved ≥ 3 times to ≤ 1; > 5 % of steps skipped for gradient overflow (log lines); or fp16 on with a non-finite grad norm/loss",
    severities: ["medium"],
    basis: "Mixed Precision Training (loss scaling, fp32 reductions) [K30]",
  },
  detect: detectAmpOverflow,
};
