import type { Evidence, Finding } from "../../../domain/result.js";
import { detectorFinding, MAX_CONFIDENCE } from "../../findings.js";
import { countBefore, wholeSeries } from "../curves.js";
import type { MetricSeries, TrainingRun } from "../model.js";
import { fmt, LOGS_ARTIFACT, metricArtifact, type TrainingDetector } from "./detector.js";

/**
 * Losses this large are numerically exploded even when finite (AutoTrainer's explode test). Not exported: V8 reads
 * an exported const from its module cell on every use, and this one is compared with every point of a loss.
 */
const EXPLODED_LOSS = 1e5;

/** Non-finite or exploded: NaN and ±Infinity fail the comparison too. */
const isBad = (v: number) => !(Math.abs(v) < EXPLODED_LOSS);

const badPoints = new WeakMap<MetricSeries, Float64Array>();

/**
 * Indices of the non-finite or exploded points of a whole series, found once (ascending). The values are read
 * from a local: read through the series object on every point (its shape varies with the parser, so V8 does not
 * hoist the load) the pass took 2-10 times as long on a 10^6-point loss.
 */
function badIndices(s: MetricSeries): Float64Array {
  let hit = badPoints.get(s);
  if (!hit) {
    const values = s.values;
    let count = 0;
    for (let i = 0; i < values.length; i++) if (isBad(values[i]!)) count++;
    hit = new Float64Array(count);
    for (let i = 0, j = 0; j < count; i++) if (isBad(values[i]!)) hit[j++] = i;
    badPoints.set(s, hit);
  }
  return hit;
}

/** First non-finite or exploded point of a loss series and how many there are (a prefix reads its whole series'). */
export function firstBadLoss(s: MetricSeries): { index: number; count: number } | null {
  const { whole, length } = wholeSeries(s);
  const bad = badIndices(whole);
  const count = countBefore(bad, length);
  return count === 0 ? null : { index: bad[0]!, count };
}

/**
 * TH-01: any NaN/±Inf in a loss, a loss ≥ 1e5, or a log line saying the loss became non-finite. The series are
 * listed earliest first, so the description names the step where the run broke (a per-step loss goes NaN long
 * before the epoch aggregate that contains it).
 */
function detectNonfiniteLoss(run: TrainingRun): Finding[] {
  const evidence: Evidence[] = [];
  const broken = [...run.series.values()].flatMap((s) => {
    const bad = s.quantity === "loss" ? firstBadLoss(s) : null;
    return bad ? [{ s, bad }] : [];
  });
  broken.sort((a, b) => a.s.steps[a.bad.index]! - b.s.steps[b.bad.index]!);
  for (const { s, bad } of broken) {
    const v = s.values[bad.index]!;
    evidence.push({
      rule_id: "TH-01",
      artifact: metricArtifact(s.name),
      text: `${s.name} is ${fmt(v)} at step ${s.steps[bad.index]} (${bad.count} of ${s.values.length} points non-finite or ≥ 1e5).`,
      window: [s.steps[bad.index]!, s.steps[s.steps.length - 1]!],
      observed: String(v),
      threshold: "finite and < 1e5",
      n_points: s.values.length,
      values: { first_bad_step: s.steps[bad.index]!, bad_points: bad.count },
    });
  }
  const logLines = run.logs.events.filter((e) => e.kind === "nonfinite_loss");
  if (logLines.length > 0) {
    evidence.push({
      rule_id: "TH-01",
      artifact: LOGS_ARTIFACT,
      text: `The logs report a non-finite loss ${run.logs.counts.nonfinite_loss} time(s), first at line ${logLines[0]!.line + 1}: "${logLines[0]!.text}".`,
      observed: run.logs.counts.nonfinite_loss ?? 0,
      threshold: 0,
    });
  }
  if (evidence.length === 0) return [];
  const fromMetrics = evidence.some((e) => e.artifact !== LOGS_ARTIFACT);
  const first = evidence[0]!;
  return [
    detectorFinding({
      id: "training.nonfinite_loss",
      title: "Loss became non-finite",
      description: fromMetrics
        ? `${first.text.replace(/\.$/, "")}: training diverged numerically, so every result after that point is invalid.`
        : "The training logs report a NaN/Inf loss: training diverged numerically, so results after that point are invalid.",
      evidence,
      severity: "critical",
      confidence: fromMetrics ? MAX_CONFIDENCE : 0.8,
      recommendation: {
        action: "Lower the learning rate about 10×, add warm-up and gradient clipping, use loss scaling (or bf16) for fp16, and check inputs, labels and custom losses for NaN, log(0) or division by zero.",
        rationale: "A non-finite loss means an update overflowed or a NaN entered the batch; smaller clipped steps and clean inputs remove the usual causes.",
        category: "training",
        effort: "low",
      },
    }),
  ];
}

export const nonfiniteLoss: TrainingDetector = {
  info: {
    id: "training.nonfinite_loss",
    rule: "TH-01",
    title: "Non-finite loss",
    threshold: "any NaN/±Inf in a train/val loss, a loss ≥ 1e5, or a log line reporting a NaN/Inf loss (loss, val_loss, train/loss…, e.g. Lightning's \"val_loss = nan is not finite\"); the earliest non-finite step leads",
    severities: ["critical"],
    basis: "AutoTrainer explode test; SageMaker ExplodingTensor; UMLAUT nan_loss [K01][K11][K30]",
  },
  detect: detectNonfiniteLoss,
};
