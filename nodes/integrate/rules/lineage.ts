import type { CrossRule } from "../evidence.js";
import { crossFinding, pct } from "./common.js";

const MISMATCH = 0.01;

/** Relative difference of two row counts, or null when either is unknown. */
function rowGap(report: number | null | undefined, stats: number | null | undefined): number | null {
  if (report == null || stats == null || stats <= 0) return null;
  return Math.abs(report - stats) / stats;
}

/**
 * CR-10 across artifacts: the data-check report ran on other rows or columns than the dataset statistics describe
 * (row counts differ by more than 1 %, or the report checked columns the dataset does not have).
 */
export const detectReportDataMismatch: CrossRule = (ev) => {
  const checks = ev.facts.checks;
  const ds = ev.facts.dataset;
  if (!checks || !ds) return [];
  const problems: string[] = [];
  const values: Record<string, number> = {};
  for (const split of ["train", "test"] as const) {
    const reported = checks.row_counts?.[split] ?? null;
    const described = split === "train" ? ds.n_train : ds.n_test;
    const gap = rowGap(reported, described);
    if (gap !== null && gap > MISMATCH) {
      problems.push(`${split}: the report saw ${reported!.toLocaleString("en")} rows, the statistics ${described!.toLocaleString("en")} (${pct(gap)} apart)`);
      values[`${split}_rows_report`] = reported!;
      values[`${split}_rows_statistics`] = described!;
    }
  }
  const known = new Set(ds.columns);
  const unknown = known.size > 0 ? (checks.columns_checked ?? []).filter((c) => !known.has(c)) : [];
  if (unknown.length > 0) problems.push(`the report checked column(s) the statistics do not list: ${unknown.slice(0, 5).join(", ")}`);
  if (problems.length === 0) return [];
  return [
    crossFinding({
      name: "report_data_mismatch",
      rule: "CR-10",
      title: "Checks ran on a different snapshot than the dataset statistics",
      description: `The data-check report and the dataset statistics do not describe the same data — ${problems.join("; ")}. Conclusions from one may not hold for the other.`,
      severity: "medium",
      basedOn: [],
      baseConfidence: 0.7,
      evidence: [{ artifact: "checks_artifacts × dataset_artifacts.statistics", text: `${problems.join("; ")}.`, threshold: MISMATCH, values }],
      recommendation: {
        action: "Regenerate the checks on the exact training/evaluation snapshot (same rows, same columns) and record its version with the run.",
        rationale: "Checks only vouch for the data they ran on; lineage makes that data the one the model saw.",
        category: "infrastructure",
        effort: "low",
      },
    }),
  ];
};

export const LINEAGE_RULES: readonly CrossRule[] = [detectReportDataMismatch];
