import type { Evidence } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { fmt, listNames, pct } from "../../../artifacts/json-values.js";
import type { ChecksDetector } from "../detector.js";
import type { ChecksReport, RowCount } from "../model.js";

const ROW_TOLERANCE = 0.01;

const normalizeName = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "");

/** Row counts of the same split role that disagree by more than 1 % between reports. */
function rowConflicts(rows: readonly RowCount[]): Array<[RowCount, RowCount]> {
  const out: Array<[RowCount, RowCount]> = [];
  for (const role of ["train", "test"] as const) {
    const same = rows.filter((r) => r.role === role);
    for (let i = 1; i < same.length; i++) {
      const [a, b] = [same[0]!, same[i]!];
      if (Math.abs(a.rows - b.rows) / Math.max(a.rows, b.rows, 1) > ROW_TOLERANCE) out.push([a, b]);
    }
  }
  return out;
}

/** Columns a drift report analyzed that a complete column set (GE table columns) does not have. */
function foreignColumns(report: ChecksReport): { columns: string[]; source: string } | null {
  const complete = report.columnSets.find((c) => c.complete);
  if (!complete) return null;
  const known = new Set(complete.columns);
  const drifted = report.outcomes.filter((o) => o.tool === "evidently" && o.category === "feature_drift").flatMap((o) => o.columns);
  const foreign = [...new Set(drifted)].filter((c) => !known.has(c));
  return foreign.length ? { columns: foreign, source: complete.source } : null;
}

/**
 * CR-10 (within the checks artifact): reports that describe different data: the suite map names another dataset
 * than the request, reports disagree on a split's row count by more than 1 %, or a drift report covers columns
 * the validated table does not have. Comparison with the dataset statistics is left to integrate (facts).
 */
export const reportDataMismatch: ChecksDetector = {
  info: {
    id: "checks.report_data_mismatch",
    rule: "CR-10",
    title: "Reports describe different data",
    threshold: "dataset_name differs from the request; row counts of a split differ > 1 % between reports; drift columns outside the validated column set",
    severities: ["medium"],
    basis: "Data lineage: Breck et al. 2019 [K25]; ML Test Score [K26]",
  },
  detect(report) {
    const evidence: Evidence[] = [];
    const a = report.reportDatasetName;
    const b = report.requestDatasetName;
    if (a && b && normalizeName(a) !== normalizeName(b)) {
      evidence.push({ rule_id: this.info.rule, artifact: `${report.field}.dataset_name`, text: `The report is for dataset "${a}" but the request is for "${b}".`, observed: a, threshold: b });
    }
    for (const [x, y] of rowConflicts(report.rowCounts)) {
      evidence.push({ rule_id: this.info.rule, artifact: y.source, text: `${x.role} rows: ${fmt(x.rows)} at ${x.source} but ${fmt(y.rows)} at ${y.source} (${pct(Math.abs(x.rows - y.rows) / Math.max(x.rows, y.rows), 1)} apart, tolerance ${pct(ROW_TOLERANCE, 0)}).`, observed: y.rows, threshold: x.rows });
    }
    const foreign = foreignColumns(report);
    if (foreign) evidence.push({ rule_id: this.info.rule, artifact: foreign.source, text: `Drift was measured on ${listNames(foreign.columns)}, which the validated table (${foreign.source}) does not have.`, observed: foreign.columns.join(", ") });
    if (!evidence.length) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "Check reports may not describe the analyzed data",
        description: `The reports do not agree on what data they checked: ${evidence.map((e) => e.text).join(" ")} Their verdicts may not apply to the data the model was trained and evaluated on.`,
        evidence,
        severity: "medium",
        confidence: scoreConfidence({ strength: 1.5, threshold: 1, benignPossible: true }),
        recommendation: { action: "Regenerate the reports on the exact training and evaluation snapshots (same digest or version) and record that lineage with the run.", rationale: "A report on another snapshot gives false assurance; lineage makes checks reproducible (Breck et al. 2017).", category: "infrastructure", effort: "low" },
      }),
    ];
  },
};
