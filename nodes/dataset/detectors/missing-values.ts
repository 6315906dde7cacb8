import { type Severity, severityRank } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector } from "../detector.js";
import type { ColumnStats } from "../model.js";
import { fmt, listNames, pct } from "../../../artifacts/json-values.js";

const MEDIUM_FRACTION = 0.05;
const LOW_FRACTION = 0.01;

function band(col: ColumnStats, target: string | null): { severity: Severity; threshold: number } {
  const f = col.missingFraction ?? 0;
  if (col.name === target) return { severity: "critical", threshold: 0 };
  if (f > MEDIUM_FRACTION) return { severity: "medium", threshold: MEDIUM_FRACTION };
  if (f > LOW_FRACTION) return { severity: "low", threshold: LOW_FRACTION };
  return { severity: "info", threshold: 0 };
}

/** DS-04: missing share per column: > 5 % medium, > 1 % low, any missing label critical, a few missing info. */
export const missingValues: DatasetDetector = {
  info: {
    id: "dataset.missing_values",
    rule: "DS-04",
    title: "Missing values",
    threshold: "missing share > 5 % → medium, > 1 % → low, ≤ 1 % → info; missing labels → critical",
    severities: ["critical", "medium", "low", "info"],
    basis: "Deepchecks PercentOfNulls 5 % [P-Deepchecks]; ydata-profiling 1 %; Breck et al. 2019 [K25]",
  },
  detect(stats) {
    const cols = stats.columns
      .filter((c) => (c.missingFraction ?? 0) > 0)
      .map((c) => ({ col: c, ...band(c, stats.target) }))
      .sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || (b.col.missingFraction ?? 0) - (a.col.missingFraction ?? 0));
    const worst = cols[0];
    if (!worst) return [];
    const serious = cols.filter((c) => c.severity !== "info");
    const label = cols.find((c) => c.severity === "critical");
    const described = cols.slice(0, 5).map((c) => `"${c.col.name}" ${pct(c.col.missingFraction ?? 0)}`).join(", ");
    const description = label
      ? `The label column "${label.col.name}" has ${pct(label.col.missingFraction ?? 0, 2)} missing values: those rows cannot be trained or evaluated on.`
      : serious.length
        ? `${serious.length} column(s) have more than 1 % missing values: ${described}.`
        : `A few values are missing (at most ${pct(worst.col.missingFraction ?? 0, 2)} per column): ${described}.`;
    const worstFraction = worst.col.missingFraction ?? 0;
    return [
      detectorFinding({
        id: this.info.id,
        title: label ? "Labels are missing" : serious.length ? "Columns with many missing values" : "A few missing values",
        description,
        evidence: cols.slice(0, 10).map((c) => ({
          rule_id: this.info.rule,
          artifact: c.col.path,
          text: `"${c.col.name}": ${pct(c.col.missingFraction ?? 0, 2)} missing${c.col.missing !== null ? ` (${fmt(c.col.missing)} rows)` : ""}.`,
          observed: Number((c.col.missingFraction ?? 0).toFixed(5)),
          threshold: c.threshold,
          values: { column: c.col.name, missing: c.col.missing },
        })),
        severity: worst.severity,
        confidence: worst.threshold > 0 ? scoreConfidence({ strength: worstFraction, threshold: worst.threshold }) : 0.9,
        recommendation: label
          ? { action: `Find why "${label.col.name}" is missing (a join or a late label) and drop or relabel those rows; never impute a label.`, rationale: "Rows without a label either vanish silently or get a made-up label.", category: "data", effort: "medium" }
          : {
              action: `Impute ${serious.length ? listNames(serious.map((c) => c.col.name), 3) : "the few missing values"} with statistics fitted on train only, and add a missingness indicator where missingness may carry signal.`,
              rationale: "Unhandled missing values bias the model or drop rows silently; statistics fitted on all data leak evaluation information.",
              category: "data",
              effort: "low",
            },
      }),
    ];
  },
};
