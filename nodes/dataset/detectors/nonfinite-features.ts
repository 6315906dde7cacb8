import type { Evidence } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import { type DatasetDetector } from "../detector.js";
import type { ColumnStats } from "../model.js";

const SUMMARY_KEYS = ["min", "max", "mean", "std"] as const;

/** What makes a numeric column non-finite: NaN/Inf counts, or ±Infinity in its summary statistics. */
function nonfiniteSigns(c: ColumnStats): string[] {
  if (c.kind !== "numeric" && c.kind !== "unknown") return [];
  const signs: string[] = [];
  if ((c.infCount ?? 0) > 0) signs.push(`${c.infCount} infinite values`);
  if ((c.nanCount ?? 0) > 0 && c.kind === "numeric") signs.push(`${c.nanCount} NaN values`);
  const infinite = SUMMARY_KEYS.filter((k) => c[k] !== null && !Number.isNaN(c[k]) && !Number.isFinite(c[k]));
  if (infinite.length) signs.push(`${infinite.map((k) => `${k} = ${c[k]}`).join(", ")}`);
  // pandas skips NaN, so a NaN mean over non-missing values means ±Infinity cancelled out inside the column.
  if (!infinite.length && c.kind === "numeric" && (c.count ?? 0) > 0 && c.mean !== null && Number.isNaN(c.mean)) signs.push("mean is NaN over non-missing values");
  return signs;
}

/** DS-11: NaN or Infinity in numeric features (or image channel statistics) → high. */
export const nonfiniteFeatures: DatasetDetector = {
  info: {
    id: "dataset.nonfinite_features",
    rule: "DS-11",
    title: "Non-finite values in numeric features",
    threshold: "any Inf/NaN in numeric features or channel statistics",
    severities: ["high"],
    basis: "TFDV FLOAT_TYPE_HAS_NAN / HAS_INF [P-TFDV]; Breck et al. 2019 [K25]",
  },
  detect(stats) {
    const evidence: Evidence[] = [];
    const names: string[] = [];
    for (const c of stats.columns) {
      const signs = nonfiniteSigns(c);
      if (!signs.length) continue;
      names.push(c.name);
      evidence.push({ rule_id: this.info.rule, artifact: c.path, text: `"${c.name}": ${signs.join("; ")}.`, observed: signs.join("; "), threshold: 0, values: { column: c.name } });
    }
    for (const [split, ch] of Object.entries(stats.channels)) {
      if ([...ch.mean, ...ch.std].every(Number.isFinite)) continue;
      names.push(`${split} channel statistics`);
      evidence.push({ rule_id: this.info.rule, artifact: ch.path, text: `${split} channel mean/std contain non-finite values: mean [${ch.mean.join(", ")}], std [${ch.std.join(", ")}].`, observed: "non-finite", threshold: 0 });
    }
    if (!names.length) return [];
    return [
      detectorFinding({
        id: this.info.id,
        title: "NaN or Infinity in the inputs",
        description: `${listNames(names)} contain${names.length === 1 ? "s" : ""} NaN or infinite values. One such value reaching the model turns the loss into NaN.`,
        evidence: evidence.slice(0, 10),
        severity: "high",
        confidence: scoreConfidence({ strength: 2, threshold: 1 }),
        recommendation: {
          action: "Find where the non-finite values come from (division by zero, log of 0, overflow), then clean, clip or impute them before training and add a finite-value check to the pipeline.",
          rationale: "Non-finite inputs propagate through every layer and end training in NaN losses (Breck et al. 2019).",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
