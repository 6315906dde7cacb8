import type { Evidence } from "../../../domain/result.js";
import { detectorFinding, scoreConfidence } from "../../findings.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import type { ColumnStats } from "../model.js";
import { fmt, listNames } from "../../../artifacts/json-values.js";

/** Names that identify a record rather than describe it: order_id, uuid, row_index, customerId, orderID… */
const ID_NAME = /(^|[_\W])(id|uuid|guid|key|idx|index|row_?num(ber)?)$|^id[_\W]/i;
/** camelCase identifiers; case-sensitive so "paid" or "valid" do not match. */
const CAMEL_ID = /[a-z](Id|ID)$/;
const INTEGER_DTYPE = /^(u?int|long|short|integer)/i;

/** Whether a column's values are discrete labels (strings, integers) rather than measurements. */
function isDiscrete(c: ColumnStats): boolean {
  if (c.kind === "categorical" || c.kind === "unknown") return true;
  return c.kind === "numeric" && c.dtype !== null && INTEGER_DTYPE.test(c.dtype);
}

interface IdSignal {
  col: ColumnStats;
  unique: boolean;
  named: boolean;
}

function idSignal(c: ColumnStats): IdSignal | null {
  if (!isDiscrete(c)) return null;
  const unique = c.unique !== null && c.count !== null && c.count >= 50 && c.unique === c.count;
  const named = (ID_NAME.test(c.name) || CAMEL_ID.test(c.name)) && (c.unique === null || c.count === null || c.unique / c.count >= 0.5 || c.unique > 1000);
  return unique || named ? { col: c, unique, named } : null;
}

/** Whether a column looks like a record identifier (all values distinct, or an id name with many values). */
export function isIdLike(c: ColumnStats): boolean {
  return idSignal(c) !== null;
}

/** DS-06: a column with one distinct value per row (medium) or named like an identifier (medium, lower confidence). */
export const idLikeColumn: DatasetDetector = {
  info: {
    id: "dataset.id_like_column",
    rule: "DS-06",
    title: "Identifier-like column among the features",
    threshold: "distinct == rows for a discrete column, or an identifier name (…_id, uuid, key) with ≥ 50 % distinct",
    severities: ["medium"],
    basis: "ydata-profiling UNIQUE; Deepchecks IdentifierLabelCorrelation; Kaufman et al. 2012 [K19]",
  },
  detect(stats) {
    const signals = featureColumns(stats).map(idSignal).filter((s): s is IdSignal => s !== null);
    if (signals.length === 0) return [];
    const anyUnique = signals.some((s) => s.unique);
    const evidence: Evidence[] = signals.slice(0, 10).map((s) => ({
      rule_id: this.info.rule,
      artifact: s.col.path,
      text: s.unique
        ? `"${s.col.name}": ${fmt(s.col.unique ?? 0)} distinct values in ${fmt(s.col.count ?? 0)} rows (one per row).`
        : `"${s.col.name}": named like an identifier${s.col.dtype ? ` (${s.col.dtype})` : ""}${s.col.unique !== null ? `, ${fmt(s.col.unique)} distinct values` : ""}.`,
      observed: s.col.unique !== null && s.col.count ? Number((s.col.unique / s.col.count).toFixed(4)) : s.col.name,
      threshold: s.unique ? 1 : null,
      values: { column: s.col.name, by_name: s.named, all_distinct: s.unique },
    }));
    return [
      detectorFinding({
        id: this.info.id,
        title: "Identifier-like columns among the features",
        description: `${listNames(signals.map((s) => s.col.name))} ${signals.length === 1 ? "looks like a record identifier" : "look like record identifiers"}. A model can memorize identifiers instead of learning patterns, and shared IDs across splits leak rows or groups between train and test.`,
        evidence,
        severity: "medium",
        confidence: anyUnique ? scoreConfidence({ strength: 2, threshold: 1 }) : scoreConfidence({ strength: 1, threshold: 1, benignPossible: true }),
        recommendation: {
          action: `Exclude ${listNames(signals.map((s) => s.col.name), 3)} from the features, and use them instead to split by group (customer, order) so no entity is in both train and test.`,
          rationale: "Identifiers carry no generalizable signal; when they correlate with the label it is leakage (Kaufman et al. 2012).",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
