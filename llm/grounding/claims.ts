import type { GroundingReason } from "../../domain/grounding.js";
import { type Severity, severityRank } from "../../domain/result.js";
import type { GroundingEvidence } from "./evidence.js";
import { statedNumbers } from "./numbers.js";


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

/** A finding id's start, looked for without look-behind or Unicode classes before the full pattern is run. */
const FINDING_PREFIX = /(?:dataset|checks|training|checkpoint|cross)\./;

/** Ids a sentence cites: finding ids and detector rule ids. */
export function citedIds(text: string): string[] {
  const ids: string[] = [];
  if (FINDING_PREFIX.test(text)) for (const m of text.matchAll(FINDING_ID)) ids.push(m[0]);
  // A rule id has a dash: most sentences have none, and are spared the second scan.
  if (text.includes("-")) for (const m of text.matchAll(RULE_ID)) ids.push(m[0]);
  return ids;
}

const DIGIT = /\d/u;

/** How many words before a number may name the quantity it is ("std is 1", "la valeur de std s'établit à 1"). */
const NAME_WINDOW_WORDS = 5;

/**
 * The field a number is stated for: the nearest field name of the evidence among the few words before it (one
 * word such as val_loss or best_epoch, or two such as "canned goods"), or null when none is named. A value true
 * elsewhere in the evidence ("std 1" where 1 is a count) is still wrong for that quantity.
 */
function namedField(before: string, evidence: GroundingEvidence): string | null {
  const words = before.toLowerCase().match(/[\p{L}\p{N}_]+/gu)?.slice(-NAME_WINDOW_WORDS) ?? [];
  for (let i = words.length - 1; i >= 0; i--) {
    const pair = i > 0 ? `${words[i - 1]} ${words[i]}` : null;
    if (pair && evidence.byName.places(pair) > 0) return pair;
    if (!/^\d+$/u.test(words[i]!) && evidence.byName.places(words[i]!) > 0) return words[i]!;
  }
  return null;
}

/**
 * Why a sentence fails against the evidence, or null when it holds: every id it cites exists, every number it
 * states matches a value shown (within the rounding written), of the field it names when it names one, and, in
 * a sentence that names items of the evidence (`anchorsIn`: findings, rule ids, series, tensors, columns,
 * checks, the recommendations of a finding), of that field in those items when they hold it ("for val/loss, min
 * 0.39" fails where 0.39 is train/loss's min; any value of the field stands when they hold none); a severity it
 * claims is no higher than the findings it cites or, citing none, than `allowed`.
 */
export function checkSentence(text: string, evidence: GroundingEvidence, allowed: Severity): GroundingReason | null {
  const ids = citedIds(text);
  if (ids.some((id) => !evidence.ids.has(id))) return "unknown_id";
  // Digits inside cited ids are names, not quantities.
  const plain = ids.length ? ids.reduce((t, id) => t.split(id).join(" "), text) : text;
  // The items the sentence names: looked for once, and only for a field held in several places of the evidence.
  let anchors: string[] | undefined;
  for (const n of DIGIT.test(plain) ? statedNumbers(plain) : []) {
    if (!evidence.numbers.grounds(n)) return "number";
    const field = namedField(plain.slice(Math.max(0, n.index - 80), n.index), evidence);
    if (field === null) continue;
    if (!evidence.byName.get(field)!.grounds(n)) return "number";
    if (evidence.byName.places(field) < 2) continue;
    anchors ??= evidence.anchorsIn(text);
    const within = anchors.length ? evidence.byName.get(field, anchors) : undefined;
    if (within && !within.grounds(n)) return "number";
  }
  const claimed = claimedSeverity(text);
  if (claimed) {
    const cited = ids.flatMap((id) => evidence.severityOf.get(id) ?? []);
    const bound = cited.length ? cited.reduce((a, b) => (severityRank(a) < severityRank(b) ? a : b)) : allowed;
    if (severityRank(claimed) < severityRank(bound)) return "severity";
  }
  return null;
}
