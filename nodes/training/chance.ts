import { type Curve, curve, pickSeries } from "./curves.js";
import { finalValue } from "./final-value.js";
import type { TrainingRun } from "./model.js";
import { paramNumber, paramText } from "./params.js";
import { numClasses } from "./run-config.js";
import { movingAverage, noiseSigma, smoothingWindow, stdev } from "./stats.js";

/** How many classes the model chooses from, and where that was read. */
export interface ClassCount {
  k: number;
  source: "params" | "metric names" | "initial loss" | "final loss and accuracy";
}

/** A softmax cross-entropy at initialization is ln K to within this share when the logits start near zero. */
const INIT_LOSS_TOLERANCE = 0.05;
/** Class counts read from an initial loss: beyond this, ln K and ln (K+1) are too close to tell apart. */
const MAX_K_FROM_LOSS = 100;

/**
 * K from the params (num_classes, num_labels, a label list, a model config's id2label), else from per-class metric
 * names (…class_3…), else from the first training loss when it is logged at the very start and sits within 5 % of
 * ln K for one integer K (the softmax cross-entropy of a freshly initialized classifier), else from where the run
 * ended: a loss within 5 % of ln K and an accuracy at 1/K for the same K (see kFromFinalReadings).
 */
export function classCount(run: TrainingRun): ClassCount | null {
  const stated = numClasses(run) ?? labelMapSize(run);
  if (stated) return { k: stated, source: "params" };
  const named = perClassNames(run);
  if (named) return { k: named, source: "metric names" };
  const loss = pickSeries(run, "train", "loss", "fine");
  const first = loss?.values.find((v) => Number.isFinite(v));
  const k = first === undefined ? null : kOfLoss(first);
  if (k) return { k, source: "initial loss" };
  const agreed = kFromFinalReadings(run);
  return agreed ? { k: agreed, source: "final loss and accuracy" } : null;
}

/** The integer K whose ln K the cross-entropy sits within 5 % of (K ≤ 100), or null. */
function kOfLoss(loss: number): number | null {
  if (!(loss > Math.log(2) * (1 - INIT_LOSS_TOLERANCE))) return null;
  const k = Math.round(Math.exp(loss));
  return k >= 2 && k <= MAX_K_FROM_LOSS && Math.abs(loss - Math.log(k)) <= INIT_LOSS_TOLERANCE * Math.log(k) ? k : null;
}

/**
 * K read twice from the end of a run whose class count is stated nowhere and whose first logged loss is already
 * past initialization (a learning rate so high that the first value is a blow-up): the final loss (train, else val)
 * within 5 % of ln K, and the final accuracy (val, else train) within the chance band of 1/K, for the same K. Two
 * independent readings of one K; a model that learned something moves both away from it.
 */
function kFromFinalReadings(run: TrainingRun): number | null {
  const loss = curve(run, "train", "loss") ?? curve(run, "val", "loss");
  const valAcc = curve(run, "val", "accuracy");
  const acc = valAcc ?? curve(run, "train", "accuracy");
  if (!loss || !acc || loss.values.length < MIN_POINTS || acc.values.length < MIN_POINTS) return null;
  const k = kOfLoss(finalValue(loss, true).value);
  return k && Math.abs(finalValue(acc, true).value - 1 / k) <= accuracyBand(acc, 1 / k, valAcc ? run.meta.valSamples : null) ? k : null;
}

/** Entries of an `id2label`/`label2id` map (a Hugging Face config's), as params store it: JSON text. */
function labelMapSize(run: TrainingRun): number | null {
  const text = paramText(run.params, "id2label", "label2id");
  if (!text?.trim().startsWith("{")) return null;
  try {
    const n = Object.keys(JSON.parse(text) as object).length;
    return n >= 2 ? n : null;
  } catch {
    return null;
  }
}

/** One more than the largest class index in per-class metric names (val_acc_class_3, f1/class_9). */
function perClassNames(run: TrainingRun): number | null {
  let max = -1;
  for (const s of run.series.values()) {
    for (const source of s.sources) {
      const m = /class[_\-/ ]?(\d+)$/i.exec(source);
      if (m) max = Math.max(max, Number(m[1]));
    }
  }
  return max >= 1 ? max + 1 : null;
}

/** The accuracy of always predicting one class: the stated majority share, or 1/K. */
export function chanceAccuracy(run: TrainingRun, k: number | null = classCount(run)?.k ?? null): number | null {
  const majority = paramNumber(run.params, "majority_share", "majority_class_rate", "majority_rate", "class_prior");
  if (majority !== null && majority > 0 && majority < 1) return majority;
  return k ? 1 / k : null;
}

/** Accuracy within this much (or 3 standard errors, at most MAX_ACCURACY_BAND) of chance is chance. */
const ACCURACY_BAND = 0.03;
const MAX_ACCURACY_BAND = 0.1;
/** A cross-entropy no lower than this share below ln K has learned nothing beyond the class prior. */
const LOSS_BAND = 0.05;
const MIN_POINTS = 3;

/** One metric found at chance level at the end of the run. */
export interface ChanceEvidence {
  curve: Curve;
  kind: "accuracy" | "loss";
  /** Chance accuracy (1/K or the majority share) or chance loss (ln K). */
  chance: number;
  final: number;
  band: number;
  /** The smoothed metric never left the chance band during the run. */
  neverLeft: boolean;
  /** The best smoothed value of the run (highest accuracy, lowest loss). */
  best: number;
}

export interface ChanceLevel {
  classes: ClassCount;
  evidence: ChanceEvidence[];
}

const memo = new WeakMap<TrainingRun, ChanceLevel | null>();

/**
 * Whether the run ends at chance level, whatever came before (an early explosion, a first drop): every logged
 * accuracy (validation and training) ends within max(0.03, min(3 SE, 0.1)) of 1/K or the majority share, and the training
 * loss (else the validation loss) ends no lower than 5 % below ln K. Any metric clearly off chance means the model
 * learned or fitted something (an overfitted model's validation accuracy may fall to chance: that is TH-13's).
 * A loss alone is judged only with K stated (params or names): with K read from the initial loss, "ended at ln K"
 * must be backed by an accuracy. Memoized per run (several detectors ask).
 */
export function findChanceLevel(run: TrainingRun): ChanceLevel | null {
  if (memo.has(run)) return memo.get(run)!;
  const found = chanceLevelFor(run, classCount(run));
  memo.set(run, found);
  return found;
}

/**
 * A K read from the first loss is a guess an accuracy must confirm: that first value may be an epoch's end rather
 * than the initialization (a printed epoch summary), and an ln K' it happens to sit near says nothing. When it is
 * not confirmed, the two readings at the end of the run, if they agree on another K, are judged instead.
 */
function chanceLevelFor(run: TrainingRun, classes: ClassCount | null): ChanceLevel | null {
  if (!classes) return null;
  const found = chanceLevelOf(run, classes);
  if (found || classes.source !== "initial loss") return found;
  const k = kFromFinalReadings(run);
  return k && k !== classes.k ? chanceLevelOf(run, { k, source: "final loss and accuracy" }) : null;
}

function chanceLevelOf(run: TrainingRun, classes: ClassCount): ChanceLevel | null {
  const evidence: ChanceEvidence[] = [];
  const p0 = chanceAccuracy(run, classes.k)!;
  for (const split of ["val", "train"] as const) {
    const acc = curve(run, split, "accuracy");
    if (!acc || acc.values.length < MIN_POINTS) continue;
    const e = accuracyAtChance(acc, p0, split === "val" ? run.meta.valSamples : null);
    if (!e) return null;
    evidence.push(e);
  }
  const loss = curve(run, "train", "loss") ?? curve(run, "val", "loss");
  if (loss && loss.values.length >= MIN_POINTS) {
    const e = lossAtChance(loss, Math.log(classes.k));
    if (!e) return null;
    if (evidence.length > 0 || classes.source !== "initial loss") evidence.push(e);
  }
  return evidence.length > 0 ? { classes, evidence } : null;
}

function accuracyAtChance(c: Curve, chance: number, valSamples: number | null): ChanceEvidence | null {
  const final = finalValue(c, true).value;
  const band = accuracyBand(c, chance, valSamples);
  if (Math.abs(final - chance) > band) return null;
  const smooth = movingAverage(c.values, smoothingWindow(c.values.length));
  const best = Math.max(...smooth);
  return { curve: c, kind: "accuracy", chance, final, band, neverLeft: best <= chance + band, best };
}

/**
 * How far from chance an accuracy may end and still be chance: max(0.03, min(3 SE, 0.1)), SE binomial from the
 * evaluation size, else the spread of where the run ended (the larger of σ̂ and the standard deviation of its last
 * quarter: a constant prediction scores its class's share of the evaluation set, which jumps between a few values,
 * and σ̂ from differences reads such a curve as noiseless). The noise of the end, not of the whole curve: a
 * collapse after learning is one huge step.
 */
function accuracyBand(c: Curve, chance: number, valSamples: number | null): number {
  const tail = c.values.subarray(c.values.length - Math.max(4, Math.ceil(c.values.length / 4)));
  const se = valSamples ? Math.sqrt((chance * (1 - chance)) / valSamples) : Math.max(noiseSigma(tail), stdev(tail));
  return Math.max(ACCURACY_BAND, Math.min(3 * se, MAX_ACCURACY_BAND));
}

function lossAtChance(c: Curve, chance: number): ChanceEvidence | null {
  const final = finalValue(c, true).value;
  const band = LOSS_BAND * chance;
  if (final < chance - band) return null;
  const smooth = movingAverage(c.values, smoothingWindow(c.values.length));
  const best = Math.min(...smooth);
  return { curve: c, kind: "loss", chance, final, band, neverLeft: best >= chance - band, best };
}
