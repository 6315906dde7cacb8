import type { GroundingReason } from "../../domain/grounding.js";
import { type Severity, severityRank } from "../../domain/result.js";
import { citedIds } from "./cited-ids.js";
import type { GroundingEvidence } from "./evidence.js";
import { type NumberSet, statedNumbers } from "./numbers.js";

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

const WORDS = /[\p{L}\p{N}_]+/gu;
const ALL_DIGITS = /^\d+$/u;
/** How many words before a number may name the quantity it is ("std is 1", "la valeur de std s'établit à 1"). */
const NAME_WINDOW_WORDS = 5;
/** How many characters before a number those words are read from. */
const NAME_WINDOW_CHARS = 80;

/**
 * Words of an aggregation and the field of a series digest that holds it (llm/bound.ts, the training digest):
 * "the final val/loss is 0.39" quotes `last`, "the lowest loss" `min`, in the languages the service checks.
 */
const AGGREGATION_FIELDS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    min: ["minimum", "lowest", "minimal", "minimale", "minimo", "mínimo", "mínima", "niedrigste", "niedrigster", "tiefste"],
    max: ["maximum", "highest", "peak", "maximale", "maximo", "máximo", "máxima", "höchste", "höchster"],
    last: ["final", "finale", "dernier", "dernière", "dernieres", "último", "última", "letzte", "letzter", "endwert"],
    first: ["initial", "initiale", "premier", "première", "primer", "primera", "erste", "erster", "anfangswert"],
    mean: ["average", "avg", "moyenne", "moyen", "media", "medio", "promedio", "mittelwert", "durchschnitt"],
  }).flatMap(([field, words]) => words.map((w) => [w, field] as const)),
);

/**
 * The field a number is stated for: the nearest field name of the evidence among the few words before it (one
 * word such as val_loss or best_epoch, or two such as "canned goods"; an aggregation word stands for its field),
 * or null when none is named. A value true elsewhere in the evidence ("std 1" where 1 is a count) is still
 * wrong for that quantity.
 */
function namedField(text: string, index: number, evidence: GroundingEvidence): string | null {
  const words = text.slice(Math.max(0, index - NAME_WINDOW_CHARS), index).toLowerCase().match(WORDS)?.slice(-NAME_WINDOW_WORDS) ?? [];
  for (let i = words.length - 1; i >= 0; i--) {
    const pair = `${words[i - 1]} ${words[i]}`;
    if (i > 0 && evidence.byName.places(pair) > 0) return pair;
    const word = words[i]!;
    if (evidence.byName.places(word) > 0 && !ALL_DIGITS.test(word)) return word;
    const aggregate = AGGREGATION_FIELDS.get(word);
    if (aggregate && evidence.byName.places(aggregate) > 0) return aggregate;
  }
  return null;
}

/**
 * A position in a series the sentence puts its numbers at: "at step 7", "in epoch 12", "à l'étape 7", "en el
 * paso 7", "bei Schritt 7" (a preposition of place: "after epoch 12" or "from step 3" does not say the value is
 * the one at that step). The number is the position's.
 */
const POSITION =
  /(?<!\p{L})(?:at|in|on|à|au|en|a|bei|im)\s+(?:the\s+|l['’]|la\s+|el\s+|der\s+|dem\s+)?(?:steps?|epochs?|iterations?|index|[ée]tapes?|[ée]poques?|it[ée]rations?|pasos?|[ée]pocas?|iteraci[oó]n|[ií]ndices?|schritt|epoche|iteration)\s+(\d+)(?![\p{N}]|[.,]\p{N})/giu;

/** The positions a sentence names, as [index of the position's digits, position]. */
const positionsIn = (text: string): Array<[index: number, position: number]> =>
  [...text.matchAll(POSITION)].map((m) => [m.index + m[0].length - m[1]!.length, Number(m[1])]);

/** The position nearest a number of the sentence (by characters), or null when it names none. */
function nearestPosition(positions: ReadonlyArray<[number, number]>, index: number): number | null {
  let best: [number, number] | null = null;
  for (const p of positions) if (!best || Math.abs(p[0] - index) < Math.abs(best[0] - index)) best = p;
  return best ? best[1] : null;
}

/**
 * Why a sentence fails against the evidence, or null when it holds: every id it cites exists, every number it
 * states matches a value shown (within the rounding written), of the field it names when it names one, and, in
 * a sentence that names items of the evidence (`byName.anchorsIn`: findings, rule ids, series, tensors, columns,
 * checks, the recommendations of a finding), of that field in those items when they hold it ("for val/loss, min
 * 0.39" fails where 0.39 is train/loss's min; any value of the field stands when they hold none); a number put
 * at a position ("at step 7") must be the value paired with that position in the points of that field and
 * those items, when they hold points ("for val/loss, 0.41 at step 12" fails where val/loss is 0.41 at step
 * 34); a severity it claims is no higher than the findings it cites or, citing none, than `allowed`.
 */
export function checkSentence(text: string, evidence: GroundingEvidence, allowed: Severity): GroundingReason | null {
  const ids = citedIds(text);
  if (ids.some((id) => !evidence.ids.has(id))) return "unknown_id";
  // Digits inside cited ids are names, not quantities.
  const plain = ids.reduce((t, id) => t.split(id).join(" "), text);
  const numbers = statedNumbers(plain);
  const positions = numbers.length > 1 ? positionsIn(plain) : [];
  const anchors = () => evidence.byName.anchorsIn(text);
  for (const n of numbers) {
    // A position is checked with the value it is given for, not as a value of the field.
    if (positions.some(([at]) => at === n.index)) {
      if (!evidence.numbers.grounds(n)) return "number";
      continue;
    }
    const field = namedField(plain, n.index, evidence);
    const position = nearestPosition(positions, n.index);
    if (position !== null && evidence.byName.pairedWith(position, field, anchors())?.grounds(n) === false) return "number";
    // The values of the field inside the items named are among the field's values, which are among all values
    // shown: the number is checked against the narrowest of them there is.
    let values: NumberSet = evidence.numbers;
    if (field !== null) {
      values = evidence.byName.get(field)!;
      if (evidence.byName.places(field) >= 2) values = evidence.byName.get(field, anchors()) ?? values;
    }
    if (!values.grounds(n)) return "number";
  }
  const claimed = claimedSeverity(text);
  if (claimed && severityRank(claimed) < severityRank(severityBound(ids, evidence, allowed))) return "severity";
  return null;
}

/** The most severe grade a sentence may claim: that of the most severe finding it cites, else `allowed`. */
function severityBound(ids: readonly string[], evidence: GroundingEvidence, allowed: Severity): Severity {
  const cited = ids.flatMap((id) => evidence.severityOf.get(id) ?? []);
  return cited.reduce((bound, s) => (severityRank(s) < severityRank(bound) ? s : bound), cited[0] ?? allowed);
}
