import type { Evidence } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, trainClassCounts } from "../detector.js";
import { fmt, listNames } from "../../../artifacts/json-values.js";

const DEFAULT_FOLDS = 5;

/**
 * DS-02: a class with fewer train examples than cross-validation folds cannot be stratified (high); with a
 * known batch size, a class expected less than once per batch leaves most batches without it (medium).
 */
export const rareClass: DatasetDetector = {
  info: {
    id: "dataset.rare_class",
    rule: "DS-02",
    title: "Class too rare to learn or stratify",
    threshold: "train count < CV folds (default 5) → high; batch_size × class share < 1 → medium",
    severities: ["high", "medium"],
    basis: "scikit-learn StratifiedKFold warning (least populated class < n_splits); Google MLCC batches without positives [K39]",
  },
  detect(stats) {
    const train = trainClassCounts(stats);
    if (!train) return [];
    const folds = stats.cvFolds ?? DEFAULT_FOLDS;
    const entries = Object.entries(train.counts).filter(([, n]) => n > 0);
    const total = entries.reduce((s, [, n]) => s + n, 0);
    const tooFew = entries.filter(([, n]) => n < folds);
    const batch = stats.batchSize;
    const rarePerBatch = batch ? entries.filter(([, n]) => n >= folds && (batch * n) / total < 1) : [];
    if (tooFew.length === 0 && rarePerBatch.length === 0) return [];
    const evidence: Evidence[] = [];
    if (tooFew.length) {
      evidence.push({
        rule_id: this.info.rule,
        artifact: train.path,
        text: `${tooFew.length} class(es) have fewer train examples than ${folds} folds: ${tooFew.map(([l, n]) => `${l}=${n}`).join(", ")}.`,
        observed: Math.min(...tooFew.map(([, n]) => n)),
        threshold: folds,
        values: { classes: tooFew.length, folds },
      });
    }
    if (rarePerBatch.length) {
      const worst = rarePerBatch.reduce((a, b) => (b[1] < a[1] ? b : a));
      evidence.push({
        rule_id: this.info.rule,
        artifact: train.path,
        text: `With batch size ${batch}, ${rarePerBatch.length} class(es) appear less than once per batch on average (rarest "${worst[0]}": ${((batch! * worst[1]) / total).toFixed(2)} per batch).`,
        observed: Number(((batch! * worst[1]) / total).toFixed(3)),
        threshold: 1,
        values: { batch_size: batch, classes: rarePerBatch.length },
      });
    }
    const names = [...tooFew, ...rarePerBatch].map(([l]) => l);
    const smallest = Math.min(...[...tooFew, ...rarePerBatch].map(([, n]) => n));
    return [
      detectorFinding({
        id: this.info.id,
        title: "Some classes are too rare",
        description: `${listNames(names)} ${names.length === 1 ? "has" : "have"} as few as ${fmt(smallest)} training example(s): ${tooFew.length ? "too few to stratify cross-validation or to learn reliably" : "most training batches contain none of them"}.`,
        evidence,
        severity: tooFew.length ? "high" : "medium",
        confidence: scoreConfidence({ strength: tooFew.length ? folds / Math.max(smallest, 0.5) : 1.5, threshold: 1 }),
        recommendation: {
          action: "Collect more examples of the rare classes, merge or drop them, oversample them, or use stratified batch sampling.",
          rationale: "A class seen a handful of times cannot be learned or evaluated reliably; stratification and per-class metrics break down.",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
