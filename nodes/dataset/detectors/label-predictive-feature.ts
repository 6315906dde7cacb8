import { detectorFinding, scoreConfidence } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import type { ColumnStats, DatasetStats } from "../model.js";
import { isIdLike } from "./id-like-column.js";

const PPS_THRESHOLD = 0.8;
/** Identifiers and dates should predict nothing; above this PPS they do. */
const ID_PPS_THRESHOLD = 0.05;
/** A score within this many standard deviations of what a useless feature scores is noise, not prediction. */
const NOISE_SDS = 3;
const ID_OR_DATE_NAME = /(^|_)(id|uuid|guid|key|index|date|time|timestamp)$|^id_/i;

/** An identifier or a date: unique per row, named so, a date/time, or rising along the rows (ids and timestamps assigned in sequence). */
function isIdOrDate(c: ColumnStats, stats: DatasetStats): boolean {
  return ID_OR_DATE_NAME.test(c.name) || c.kind === "datetime" || isIdLike(c) || stats.labelSignals.some((s) => s.column === c.name && s.monotonic === true);
}

function thresholdOf(c: ColumnStats, stats: DatasetStats): number {
  return isIdOrDate(c, stats) ? ID_PPS_THRESHOLD : PPS_THRESHOLD;
}

function suspicious(c: ColumnStats, stats: DatasetStats): boolean {
  const p = c.labelPredictiveness;
  if (p === null || !Number.isFinite(p)) return false;
  const noise = stats.labelSignals.find((s) => s.column === c.name)?.nullSd ?? 0;
  return p >= PPS_THRESHOLD || (isIdOrDate(c, stats) && p > ID_PPS_THRESHOLD && p > NOISE_SDS * noise);
}

/** DS-13: one feature predicts the label almost alone (PPS ≥ 0.8), or an ID/date column predicts it at all. */
export const labelPredictiveFeature: DatasetDetector = {
  info: {
    id: "dataset.label_predictive_feature",
    rule: "DS-13",
    title: "A single feature predicts the label",
    threshold: "PPS (or MI/|r|, or the client's label signal) with the label ≥ 0.8; identifier or date column (id name, unique per row, monotonic in row order, date/time) > 0.05 and > 3 SD of a useless feature's score",
    severities: ["high"],
    basis: "Deepchecks FeatureLabelCorrelation 0.8 and IdentifierLabelCorrelation [P-Deepchecks]; Kaufman et al. 2012 [K19]; Kapoor & Narayanan 2023 [K20]",
  },
  detect(stats) {
    const hits = featureColumns(stats).filter((c) => suspicious(c, stats)).sort((a, b) => (b.labelPredictiveness ?? 0) - (a.labelPredictiveness ?? 0));
    const top = hits[0];
    if (!top) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "A single feature predicts the label",
        description: `${listNames(hits.map((c) => c.name))} predict${hits.length === 1 ? "s" : ""} the label almost by ${hits.length === 1 ? "itself" : "themselves"} (best score ${top.labelPredictiveness!.toFixed(2)}). This is the signature of target leakage: a feature computed from the label or known only after the outcome.`,
        evidence: hits.slice(0, 10).map((c) => ({
          rule_id: this.info.rule,
          artifact: c.path,
          text: `"${c.name}": predictive power ${c.labelPredictiveness!.toFixed(3)} (threshold ${thresholdOf(c, stats)}${thresholdOf(c, stats) === ID_PPS_THRESHOLD ? ", an identifier or date" : ""}).`,
          observed: Number(c.labelPredictiveness!.toFixed(4)),
          threshold: thresholdOf(c, stats),
          values: { column: c.name },
        })),
        severity: "high",
        confidence: scoreConfidence({ strength: top.labelPredictiveness!, threshold: PPS_THRESHOLD, benignPossible: true }),
        recommendation: {
          action: `Check how ${listNames(hits.map((c) => c.name), 3)} ${hits.length === 1 ? "is" : "are"} produced and when ${hits.length === 1 ? "it is" : "they are"} known; drop ${hits.length === 1 ? "it" : "them"} if computed from the label or after the outcome, then retrain and compare.`,
          rationale: "A feature that alone predicts the label is usually leakage and will not be available, or not behave the same, at prediction time (Kaufman et al. 2012).",
          category: "data",
          effort: "medium",
        },
      }),
    ];
  },
};
