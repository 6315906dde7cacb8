import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import type { ColumnStats } from "../model.js";
import { listNames, pct } from "../../../artifacts/json-values.js";

const NEAR_CONSTANT_TOP_SHARE = 0.95;
const NEAR_CONSTANT_UNIQUE_SHARE = 0.1;

function isConstant(c: ColumnStats): boolean {
  // One value in a one-row sample says nothing; an unknown count (a check stating only distinct values) does not rule it out.
  if (c.count !== null && c.count <= 1) return false;
  if (c.unique === 1) return true;
  if (c.kind === "numeric" && c.std === 0) return true;
  return c.kind === "numeric" && c.min !== null && c.min === c.max && Number.isFinite(c.min);
}

/** Top value share ≥ 95 % with few distinct values (caret nearZeroVar's 95/5 and 10 % unique). */
function isNearConstant(c: ColumnStats): boolean {
  if (c.topFrequency === null || !c.count || c.unique === null || c.unique < 2) return false;
  return c.topFrequency / c.count >= NEAR_CONSTANT_TOP_SHARE && c.unique / c.count < NEAR_CONSTANT_UNIQUE_SHARE;
}

/** DS-05: a single-valued feature (low); a near-constant one (info). */
export const constantFeature: DatasetDetector = {
  info: {
    id: "dataset.constant_feature",
    rule: "DS-05",
    title: "Constant or near-constant feature",
    threshold: "n_unique = 1 (or std = 0) → low; top value ≥ 95 % and < 10 % unique → info",
    severities: ["low", "info"],
    basis: "Deepchecks IsSingleValue; ydata CONSTANT; caret nearZeroVar 95/5 [K40]",
  },
  detect(stats) {
    const features = featureColumns(stats);
    const constant = features.filter(isConstant);
    const near = features.filter((c) => !isConstant(c) && isNearConstant(c));
    if (constant.length === 0 && near.length === 0) return [];
    const described = constant.length
      ? `${listNames(constant.map((c) => c.name))} ${constant.length === 1 ? "has" : "have"} a single value${constant[0]?.top ? ` ("${constant[0].top}")` : ""} and ${constant.length === 1 ? "carries" : "carry"} no information.`
      : `${listNames(near.map((c) => c.name))} ${near.length === 1 ? "is" : "are"} almost constant.`;
    return [
      detectorFinding({
        id: this.info.id,
        title: constant.length ? "Constant feature" : "Near-constant feature",
        description: described,
        evidence: [
          ...constant.map((c) => ({
            rule_id: this.info.rule,
            artifact: c.path,
            text: `"${c.name}": ${c.unique === 1 ? "1 distinct value" : `std ${c.std}, min = max = ${c.min}`}${c.top ? ` ("${c.top}")` : ""}.`,
            observed: c.unique ?? 1,
            threshold: 1,
            values: { column: c.name },
          })),
          ...near.map((c) => ({
            rule_id: this.info.rule,
            artifact: c.path,
            text: `"${c.name}": top value "${c.top}" in ${pct((c.topFrequency ?? 0) / (c.count ?? 1))} of rows, ${c.unique} distinct values.`,
            observed: Number(((c.topFrequency ?? 0) / (c.count ?? 1)).toFixed(4)),
            threshold: NEAR_CONSTANT_TOP_SHARE,
            values: { column: c.name },
          })),
        ].slice(0, 10),
        severity: constant.length ? "low" : "info",
        confidence: constant.length ? scoreConfidence({ strength: 2, threshold: 1 }) : scoreConfidence({ strength: 1, threshold: 1, benignPossible: true }),
        recommendation: {
          action: `Drop ${listNames([...constant, ...near].map((c) => c.name), 3)} or check why it does not vary (a filter upstream, a broken join, one source only).`,
          rationale: "A feature that never varies adds nothing to training and often signals a pipeline or sampling problem; if it varies in production the model has never seen that.",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
