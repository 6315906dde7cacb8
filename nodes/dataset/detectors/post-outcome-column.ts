import { detectorFinding } from "../../findings.js";
import { listNames } from "../../../artifacts/json-values.js";
import { type DatasetDetector, featureColumns } from "../detector.js";
import type { ColumnStats } from "../model.js";

/** Words for things that are only known after an outcome has happened (refunds, cancellations, recoveries…). */
const POST_OUTCOME_WORDS = new Set([
  "refund", "refunded", "chargeback", "cancel", "cancelled", "canceled", "cancellation", "outcome", "resolution",
  "resolved", "settled", "settlement", "closed", "closure", "recovery", "recovered", "collection", "collections",
  "writeoff", "chargeoff", "payout", "terminated", "termination", "discharge", "discharged", "postmortem",
]);

/** Words that mark a column as history known before the outcome ("prior_returns", "num_past_refunds"). */
const HISTORY_WORDS = new Set(["prior", "previous", "prev", "past", "historical", "history", "lifetime", "total", "num", "count", "avg", "mean", "last", "before"]);

function tokens(name: string): string[] {
  return name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/** A crude stem so "returned", "returns" and "return" compare equal. */
function stem(word: string): string {
  return word.replace(/(ing|ed|es|s)$/, "");
}

interface Suspect {
  col: ColumnStats;
  reason: string;
  nullable: boolean;
}

function suspect(c: ColumnStats, targetStems: Set<string>): Suspect | null {
  const words = tokens(c.name);
  if (words.some((w) => HISTORY_WORDS.has(w))) return null;
  const nullable = c.required === false || (c.missingFraction ?? 0) > 0;
  const word = words.find((w) => POST_OUTCOME_WORDS.has(w));
  // Sharing the target's stem alone is weak ("return_window_days"): only a nullable column counts.
  const shared = nullable ? words.find((w) => w.length > 3 && targetStems.has(stem(w))) : undefined;
  if (!word && !shared) return null;
  const reason = word ? `"${word}" names something known only after the outcome` : `shares "${shared}" with the target`;
  return { col: c, reason, nullable };
}

/**
 * DS-13 (heuristic): a feature whose name says it is recorded after the outcome (refund, cancellation,
 * recovery…) or that shares its stem with the target. Nullable such columns are typical of post-outcome fields,
 * filled only once the event happened. Stated as a heuristic: medium, with modest confidence.
 */
export const postOutcomeColumn: DatasetDetector = {
  info: {
    id: "dataset.post_outcome_column",
    rule: "DS-13",
    title: "Feature that may be recorded after the outcome",
    threshold: "column name with a post-outcome word, or nullable and sharing the target's stem, and no history word (prior, past…) — heuristic",
    severities: ["medium"],
    basis: "Target leakage from post-outcome features: Kaufman et al. 2012 [K19]; Kapoor & Narayanan 2023 [K20]",
  },
  detect(stats) {
    const targetStems = new Set(tokens(stats.target ?? "").filter((w) => w.length > 3).map(stem));
    const suspects = featureColumns(stats).map((c) => suspect(c, targetStems)).filter((s): s is Suspect => s !== null);
    if (!suspects.length) return [];
    const anyNullable = suspects.some((s) => s.nullable);
    return [
      detectorFinding({
        id: this.info.id,
        title: "Possible post-outcome feature (target leakage risk)",
        description: `${listNames(suspects.map((s) => s.col.name))} look${suspects.length === 1 ? "s" : ""} like ${suspects.length === 1 ? "a field" : "fields"} filled in after the outcome${stats.target ? ` ("${stats.target}")` : ""} is known${anyNullable ? ", and nullable as such fields typically are" : ""}. If so, the model learns from information it will not have at prediction time. This is a name-based heuristic: confirm with the data owner.`,
        evidence: suspects.slice(0, 10).map((s) => ({
          rule_id: this.info.rule,
          artifact: s.col.path,
          text: `"${s.col.name}": ${s.reason}${s.nullable ? "; nullable" : ""}.`,
          observed: s.col.name,
          values: { column: s.col.name, nullable: s.nullable, target: stats.target },
        })),
        severity: "medium",
        confidence: anyNullable ? 0.55 : 0.45,
        recommendation: {
          action: `Check when ${listNames(suspects.map((s) => s.col.name), 3)} ${suspects.length === 1 ? "is" : "are"} recorded relative to the outcome; drop ${suspects.length === 1 ? "it" : "them"} if set afterwards, and compare validation scores with and without.`,
          rationale: "Features recorded after the outcome make offline scores look excellent and fail in production (Kaufman et al. 2012).",
          category: "data",
          effort: "low",
        },
      }),
    ];
  },
};
