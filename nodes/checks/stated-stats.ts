import { type Finding, type Severity, severityRank } from "../../domain/result.js";
import type { DatasetDetector } from "../dataset/detector.js";
import { conflictingLabels } from "../dataset/detectors/conflicting-labels.js";
import { constantFeature } from "../dataset/detectors/constant-feature.js";
import { duplicates } from "../dataset/detectors/duplicates.js";
import { missingValues } from "../dataset/detectors/missing-values.js";
import type { CountShare, DatasetStats } from "../dataset/model.js";
import { readColumn } from "../dataset/parse/columns.js";
import type { ChecksDetector } from "./detector.js";
import type { ChecksReport, StatedColumn } from "./model.js";
import { emptyStated } from "./parse/stated.js";

/** The stated numbers of one column as the dataset parser reads a column, so the dataset rules see what they know. */
function columnOf(c: StatedColumn) {
  const count = c.rows !== null && c.missing !== null ? c.rows - c.missing : null;
  return readColumn(c.name, { count, missing: c.missing, missing_fraction: c.missingFraction, unique: c.unique, std: c.std, ...(c.std !== null ? { dtype: "numeric" } : {}) }, c.path, c.rows);
}

/** What the reports state without a verdict, as dataset statistics (everything they do not state left unknown). */
export function statedDatasetStats(report: ChecksReport): DatasetStats {
  const { stated } = report;
  return {
    field: report.field,
    shapes: ["stated by check reports"],
    datasetName: report.reportDatasetName ?? report.requestDatasetName,
    task: null,
    modality: null,
    target: stated.target,
    splitStrategy: null,
    metadata: {},
    numRows: null,
    splitRows: {},
    classCounts: {},
    classPath: report.field,
    columns: stated.columns.map(columnOf),
    duplicates: stated.duplicates,
    trainTestOverlap: null,
    conflictingLabels: null,
    labelIssues: null,
    channels: {},
    correlations: [],
    labelSignals: [],
    timeSplit: null,
    mlflow: null,
    batchSize: null,
    cvFolds: null,
  };
}

/**
 * A dataset detector applied to the facts check reports state without a verdict (Evidently preset metrics, legacy
 * dataset summaries, Deepchecks checks run without a condition): the same rule and thresholds, under a checks id.
 */
function statedRule(rule: DatasetDetector): ChecksDetector {
  const id = rule.info.id.replace(/^dataset\./, "checks.");
  return {
    info: { ...rule.info, id, title: `${rule.info.title} (stated by a report)`, threshold: `as ${rule.info.id}, on numbers a report states without a verdict: ${rule.info.threshold}` },
    detect(report: ChecksReport): Finding[] {
      return rule.detect(statedDatasetStats(report)).map((f) => ({ ...f, id, description: `${f.description} (As the report states it, judged by the dataset rule ${rule.info.rule}.)` }));
    },
  };
}

export const statedMissingValues = statedRule(missingValues);
export const statedDuplicates = statedRule(duplicates);
export const statedConstantFeature = statedRule(constantFeature);

/** The dataset rules a share of rows stated by an integrity check falls under, by the check's name. */
const SHARE_RULES: Array<{ check: RegExp; rule: DatasetDetector; stats(share: CountShare): Partial<DatasetStats> }> = [
  { check: /duplicat/, rule: duplicates, stats: (share) => ({ duplicates: share }) },
  { check: /conflicting labels/, rule: conflictingLabels, stats: (share) => ({ conflictingLabels: share }) },
  // Mixed Nulls judges kinds of null, not their share.
  { check: /^(?!mixed nulls).*(?:null|missing)/, rule: missingValues, stats: (share) => ({ columns: [readColumn("column", { missing_fraction: share.fraction }, share.path, null)] }) },
];

/**
 * The severity the dataset rule gives a share of rows a failing integrity check states (duplicates DS-07,
 * conflicting labels DS-09, a column's missing share DS-04), or null for a check about none of them. Under the
 * rule's bands the check's own, stricter condition still failed: the rule's mildest band, and at least low.
 */
export function datasetBandOf(checkKey: string, share: number, report: ChecksReport): Severity | null {
  const match = SHARE_RULES.find((r) => r.check.test(checkKey));
  if (!match) return null;
  const stats = { ...statedDatasetStats({ ...report, stated: emptyStated() }), ...match.stats({ count: null, fraction: share, path: report.field }) };
  const found = match.rule.detect(stats)[0]?.severity;
  const floor = match.rule.info.severities.filter((s) => s !== "info").sort((a, b) => severityRank(b) - severityRank(a))[0] ?? "low";
  return found && severityRank(found) <= severityRank(floor) ? found : floor;
}
