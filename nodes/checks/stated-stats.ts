import type { Finding } from "../../graph/result.js";
import type { DatasetDetector } from "../dataset/detector.js";
import { constantFeature } from "../dataset/detectors/constant-feature.js";
import { duplicates } from "../dataset/detectors/duplicates.js";
import { missingValues } from "../dataset/detectors/missing-values.js";
import type { DatasetStats } from "../dataset/model.js";
import { readColumn } from "../dataset/parse/columns.js";
import type { ChecksDetector } from "./detector.js";
import type { ChecksReport, StatedColumn } from "./model.js";

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
