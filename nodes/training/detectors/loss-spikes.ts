import type { Finding } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { curveLogValues, curveOf, pickSeries } from "../curves.js";
import { type Excursion, findExcursions } from "../excursions.js";
import type { TrainingRun } from "../model.js";
import { stillRunning } from "../partial-run.js";
import { allPositive } from "../stats.js";
import { fmt, metricArtifact, round, type TrainingDetector } from "./detector.js";

/** A spike must rise this many local σ above the level, and at least 10 % above it. */
const SPIKE_SIGMAS = 6;
const MIN_JUMP = Math.log(1.1);

export interface LossSpikes {
  name: string;
  steps: Float64Array;
  /** The loss (log-transformed when positive) the spikes were found in. */
  y: Float64Array;
  logScale: boolean;
  spikes: Excursion[];
}

/**
 * Spikes of the step-level training loss: points above the rolling median by more than 6 local σ (on a log scale
 * for positive losses, since mini-batch noise is multiplicative) and at least 10 %. A spike has recovered when
 * the loss is back within 3σ of its pre-spike level within 5 % of the run.
 */
export function findLossSpikes(run: TrainingRun): LossSpikes | null {
  if (!memo.has(run)) memo.set(run, spikesOf(run));
  return memo.get(run)!;
}

const memo = new WeakMap<TrainingRun, LossSpikes | null>();

function spikesOf(run: TrainingRun): LossSpikes | null {
  const series = pickSeries(run, "train", "loss", "fine");
  if (!series) return null;
  const c = curveOf(series, "fine");
  if (c.values.length < 20) return null;
  const logScale = allPositive(c.values);
  const y = logScale ? curveLogValues(c) : c.values;
  // A run still going is a short prefix of itself: 5 % of it is a few points, so a live spike gets twice as long
  // (10 %) to recover before it is called unrecovered.
  const running = stillRunning(run);
  const recoverWithin = Math.max(3, Math.ceil((running ? 0.1 : 0.05) * y.length));
  const spikes = findExcursions(y, {
    cutoff: (level, sigma) => level + Math.max(SPIKE_SIGMAS * sigma, logScale ? MIN_JUMP : 0.1 * Math.abs(level)),
    recoverWithin,
  });
  // On a run still going, a spike whose recovery window has not passed yet may still recover: not "unrecovered".
  if (running) for (const e of spikes) if (e.recovered === false && e.end + recoverWithin > y.length - 1) e.recovered = null;
  return { name: c.name, steps: c.steps, y, logScale, spikes };
}

/** The spike that rises furthest above its level. */
function worstOf(spikes: Excursion[], y: Float64Array): Excursion {
  return spikes.reduce((a, b) => (y[b.peak]! - b.level > y[a.peak]! - a.level ? b : a));
}

/** TH-03: spikes in the step-level training loss, counted and checked for recovery. */
function detectLossSpikes(run: TrainingRun): Finding[] {
  const found = findLossSpikes(run);
  if (!found || found.spikes.length === 0) return [];
  const { spikes, steps, y, logScale, name } = found;
  const value = (i: number) => (logScale ? Math.exp(y[i]!) : y[i]!);
  const level = (e: Excursion) => (logScale ? Math.exp(e.level) : e.level);
  const unrecovered = spikes.filter((s) => s.recovered === false);
  const span = Math.max(1, steps[steps.length - 1]! - steps[0]!);
  const perThousand = (1000 * spikes.length) / span;
  const severe = unrecovered.length > 0 || spikes.length > 5;
  const spikeSteps = spikes.map((s) => steps[s.peak]!);
  const worst = worstOf(spikes, y);
  const ratio = logScale ? Math.exp(y[worst.peak]! - worst.level) : y[worst.peak]! / Math.abs(worst.level);
  // One recovered blip below 2× the level is common in healthy mini-batch noise: a note, not a problem.
  const minor = !severe && spikes.length === 1 && ratio < 2;
  const sigmas = (y[worst.peak]! - worst.level) / worst.sigma;
  const list = spikes.slice(0, 8).map((s) => `${steps[s.peak]} (${fmt(level(s))} → ${fmt(value(s.peak))}${s.recovered === false ? ", not recovered" : ""})`);
  return [
    detectorFinding({
      id: "training.loss_spikes",
      title: unrecovered.length > 0 ? "Training-loss spikes the run did not recover from" : "Training-loss spikes",
      description: `${name} spiked ${spikes.length} time(s) (${fmt(perThousand)} per 1k steps)${unrecovered.length > 0 ? `; after the spike at step ${steps[unrecovered[0]!.peak]} the loss stayed well above its earlier level` : ", each time recovering"}. Spikes mean some updates overshoot: an unstable learning rate, a bad batch or an fp16 overflow.`,
      evidence: [
        {
          rule_id: "TH-03",
          artifact: metricArtifact(name),
          text: `Spikes at steps ${list.join(", ")}${spikes.length > 8 ? ", …" : ""}; the largest is ${fmt(sigmas)} local σ above the rolling median.`,
          window: [spikeSteps[0]!, spikeSteps[spikeSteps.length - 1]!],
          observed: spikes.length,
          threshold: `> ${SPIKE_SIGMAS}σ above the rolling median and ≥ 10 %`,
          noise_estimate: round(worst.sigma),
          n_points: y.length,
          values: { spikes: spikes.length, unrecovered: unrecovered.length, per_1k_steps: round(perThousand), first_unrecovered_step: unrecovered[0] ? steps[unrecovered[0].peak]! : null, scale: logScale ? "log" : "linear" },
        },
      ],
      severity: severe ? "high" : minor ? "low" : "medium",
      confidence: scoreConfidence({ strength: sigmas, threshold: SPIKE_SIGMAS, points: y.length, benignPossible: minor }),
      recommendation: {
        action: unrecovered.length > 0
          ? "Resume from a checkpoint ~100 steps before the first unrecovered spike, skip the batches around it, lower the peak learning rate and lengthen warm-up; clip gradients near the 90th percentile of their norms."
          : "Clip gradients near the 90th percentile of their norms, lengthen warm-up or lower the peak learning rate.",
        rationale: "Large models spike when an update overshoots; PaLM restarted ~100 steps earlier and skipped 200–500 batches, and clipping plus a gentler learning rate prevents the overshoot.",
        category: "training",
        effort: unrecovered.length > 0 ? "medium" : "low",
      },
    }),
  ];
}

export const lossSpikes: TrainingDetector = {
  info: {
    id: "training.loss_spikes",
    rule: "TH-03",
    title: "Loss spikes",
    threshold: "step-level train loss > rolling median + max(6 local σ, 10 %) (log scale); recovered if back within 3σ within 5 % of the run; high if any unrecovered or > 5 spikes; low for a single recovered spike below 2× the level, medium otherwise",
    severities: ["high", "medium", "low"],
    basis: "Rolling median/MAD outlier rule; PaLM and small-scale-proxy instability reports [K01][K33][K34]",
  },
  detect: detectLossSpikes,
};
