import { type Severity, severityRank } from "../../graph/result.js";
import type { GroundingEvidence } from "./evidence.js";
import { statedNumbers } from "./numbers.js";

/** Why a sentence or an item of a model answer was removed. */
export const GROUNDING_REASONS = ["number", "unknown_id", "severity", "language"] as const;
export type GroundingReason = (typeof GROUNDING_REASONS)[number];

// Finding ids are <kind>.<name> (training.overfitting, cross.leakage_x_perfect_scores, training.llm.x); detector
// rule ids are letters, a dash and two digits (TH-13, CK-01).
const FINDING_ID = /(?<![\p{L}\p{N}_.])(?:dataset|checks|training|checkpoint|cross)(?:\.[a-z0-9_]+)+/gu;
const RULE_ID = /(?<![\p{L}\p{N}_-])[A-Z]{2,4}-\d{2}(?![\p{N}])/gu;

// Words that grade a problem: "critical" in the languages templates and tests use, and explicit "high severity".
const CRITICAL = /(?<!\p{L})(?:critical|critique|critiques|cr[ií]tic[oa]s?|kritisch\p{L}*|critic[oa]|critici|critiche)(?!\p{L})/iu;
const HIGH =
  /(?<!\p{L})(?:high[- ]severity|severity(?: is|:)? high|\[high\]|s[ée]v[ée]rit[ée] [ée]lev[ée]e|gravit[ée] [ée]lev[ée]e|(?:severidad|gravedad) alta|hohe[nr]? schwere|schweregrad hoch)(?!\p{L})/iu;

/** The severity a sentence claims with words, or null when it grades nothing. */
export function claimedSeverity(text: string): Severity | null {
  if (CRITICAL.test(text)) return "critical";
  if (HIGH.test(text)) return "high";
  return null;
}

/** Ids a sentence cites: finding ids and detector rule ids. */
export function citedIds(text: string): string[] {
  return [...text.matchAll(FINDING_ID), ...text.matchAll(RULE_ID)].map((m) => m[0]);
}

/**
 * Why a sentence fails against the evidence, or null when it holds: every id it cites exists, every number it
 * states matches a value shown (within the rounding written), and a severity it claims is no higher than the
 * findings it cites or, citing none, than `allowed`.
 */
export function checkSentence(text: string, evidence: GroundingEvidence, allowed: Severity): GroundingReason | null {
  const ids = citedIds(text);
  if (ids.some((id) => !evidence.ids.has(id))) return "unknown_id";
  // Digits inside cited ids are names, not quantities.
  const plain = ids.reduce((t, id) => t.split(id).join(" "), text);
  if (statedNumbers(plain).some((n) => !evidence.numbers.grounds(n))) return "number";
  const claimed = claimedSeverity(text);
  if (claimed) {
    const cited = ids.flatMap((id) => evidence.severityOf.get(id) ?? []);
    const bound = cited.length ? cited.reduce((a, b) => (severityRank(a) < severityRank(b) ? a : b)) : allowed;
    if (severityRank(claimed) < severityRank(bound)) return "severity";
  }
  return null;
}
