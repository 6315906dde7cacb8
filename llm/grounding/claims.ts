import type { GroundingReason } from "../../domain/grounding.js";
import { type Severity, severityRank } from "../../domain/result.js";
import type { GroundingEvidence } from "./evidence.js";
import { citedIds, FINDING_PREFIX } from "./cited-ids.js";
import { type NumberSet, statedNumbers } from "./numbers.js";
import { WordShapes } from "./word-shapes.js";
import { lastWordsBefore, pickWordBefore } from "./words-before.js";

// Words that grade a problem: "critical" in the languages templates and tests use, and explicit "high severity".
const CRITICAL = /(?<!\p{L})(?:critical|critique|critiques|cr[ií]tic[oa]s?|kritisch\p{L}*|critic[oa]|critici|critiche)(?!\p{L})/iu;
const HIGH =
  /(?<!\p{L})(?:high[- ]severity|severity(?: is|:)? high|\[high\]|s[ée]v[ée]rit[ée] [ée]lev[ée]e|gravit[ée] [ée]lev[ée]e|(?:severidad|gravedad) alta|hohe[nr]? schwere|schweregrad hoch)(?!\p{L})/iu;

/** What every word of CRITICAL and HIGH contains, in any case. */
const SEVERITY_STEM = /cr[ií]t|krit|high|lev|alta|schwere/i;

/** The severity a sentence claims with words, or null when it grades nothing. */
export function claimedSeverity(text: string): Severity | null {
  // Most sentences grade nothing: a plain scan for the stems spares them the two Unicode patterns.
  if (!SEVERITY_STEM.test(text)) return null;
  if (CRITICAL.test(text)) return "critical";
  if (HIGH.test(text)) return "high";
  return null;
}

/**
 * What the sentences of one text may hold, asked once of the whole text: a sentence is a piece of its text, so
 * a stem, a finding id's start or a digit none of the text holds is in none of its sentences (the patterns
 * asked have no look-behind). A text of several sentences (summaries, descriptions) is spared asking each.
 */
export interface TextHints {
  grades: boolean;
  citesFindings: boolean;
  digits: boolean;
}

/** What a text may hold when it was not asked: anything. */
export const ANY_TEXT: TextHints = { grades: true, citesFindings: true, digits: true };

/** What one text may hold: three pattern runs over the whole text, for its sentences to skip. */
export function textHints(text: string): TextHints {
  return { grades: SEVERITY_STEM.test(text), citesFindings: FINDING_PREFIX.test(text), digits: DIGIT.test(text) };
}

const DIGIT = /\d/u;

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
  const from = Math.max(0, index - NAME_WINDOW_CHARS);
  // Without two-word names each word stands alone: read back only as far as the nearest one that names a field.
  if (!evidence.byName.hasPhrases()) {
    const field = pickWordBefore(text, from, index, NAME_WINDOW_WORDS, fieldNamedBy, evidence, fieldWordShapes(evidence));
    if (field !== undefined) return field;
  }
  const words =
    lastWordsBefore(text, from, index, NAME_WINDOW_WORDS) ?? text.slice(from, index).toLowerCase().match(WORDS)?.slice(-NAME_WINDOW_WORDS) ?? [];
  // Two-word names are rare ("canned goods"): most prompts have none, and no pair is written out for them.
  const phrases = evidence.byName.hasPhrases();
  for (let i = words.length - 1; i >= 0; i--) {
    if (phrases && i > 0) {
      const pair = `${words[i - 1]} ${words[i]}`;
      if (evidence.byName.places(pair) > 0) return pair;
    }
    const field = fieldNamedBy(words[i]!, evidence);
    if (field !== null) return field;
  }
  return null;
}

/** The shapes of the words that may name a field of each evidence (fieldNamedBy's): its field names and the aggregation words. */
const FIELD_WORD_SHAPES = new WeakMap<GroundingEvidence, WordShapes>();
const AGGREGATION_WORD_SHAPES = new WordShapes(AGGREGATION_FIELDS.keys());

function fieldWordShapes(evidence: GroundingEvidence): WordShapes {
  let shapes = FIELD_WORD_SHAPES.get(evidence);
  if (!shapes) FIELD_WORD_SHAPES.set(evidence, (shapes = new WordShapes(evidence.byName.fieldNames(), AGGREGATION_WORD_SHAPES)));
  return shapes;
}

/** The field one word (lower case) names: itself when it is a field name, the field of an aggregation word, or null. */
function fieldNamedBy(word: string, evidence: GroundingEvidence): string | null {
  // Most words name no field: looked up first, the pattern runs only for one that does.
  if (evidence.byName.places(word) > 0 && !ALL_DIGITS.test(word)) return word;
  const aggregate = AGGREGATION_FIELDS.get(word);
  return aggregate && evidence.byName.places(aggregate) > 0 ? aggregate : null;
}

/**
 * A position in a series the sentence puts its numbers at: "at step 7", "in epoch 12", "à l'étape 7", "en el
 * paso 7", "bei Schritt 7" (a preposition of place: "after epoch 12" or "from step 3" does not say the value is
 * the one at that step). The number is the position's.
 */
const POSITION =
  /(?<!\p{L})(?:at|in|on|à|au|en|a|bei|im)\s+(?:the\s+|l['’]|la\s+|el\s+|der\s+|dem\s+)?(?:steps?|epochs?|iterations?|index|[ée]tapes?|[ée]poques?|it[ée]rations?|pasos?|[ée]pocas?|iteraci[oó]n|[ií]ndices?|schritt|epoche|iteration)\s+(\d+)(?![\p{N}]|[.,]\p{N})/giu;
const POSITION_WORD = /step|epoch|iter|index|tape|poque|paso|poca|ndice|schritt/iu;

/** The positions a sentence names, as [index of the position's digits, position]. */
function positionsIn(text: string): Array<[index: number, position: number]> {
  if (!POSITION_WORD.test(text)) return [];
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(POSITION)) out.push([m.index + m[0].length - m[1]!.length, Number(m[1])]);
  return out;
}

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
export function checkSentence(text: string, evidence: GroundingEvidence, allowed: Severity, hints: TextHints = ANY_TEXT): GroundingReason | null {
  const ids = citedIds(text, hints.citesFindings);
  for (const id of ids) if (!evidence.ids.has(id)) return "unknown_id";
  // Digits inside cited ids are names, not quantities; a sentence without digits (most that cite ids) is spared
  // taking them out.
  const digits = hints.digits && DIGIT.test(text);
  const plain = ids.length && digits ? withoutIds(text, ids) : text;
  const numbers = digits && (plain === text || DIGIT.test(plain)) ? statedNumbers(plain) : [];
  // The items the sentence names: looked for once, and only for a field held in several places of the evidence.
  let anchors: string[] | undefined;
  const positions = numbers.length > 1 ? positionsIn(plain) : [];
  for (const n of numbers) {
    // A position is checked with the value it is given for, not as a value of the field.
    if (positions.length && isPosition(positions, n.index)) {
      if (!evidence.numbers.grounds(n)) return "number";
      continue;
    }
    const field = namedField(plain, n.index, evidence);
    const position = positions.length ? nearestPosition(positions, n.index) : null;
    if (position !== null) {
      anchors ??= evidence.byName.anchorsIn(text);
      const paired = evidence.byName.pairedWith(position, field, anchors);
      if (paired && !paired.grounds(n)) return "number";
    }
    // The values of the field inside the items named are among the field's values, which are among all values
    // shown: the number is checked once, against the narrowest of them there is (a stated number grounded in
    // a set is grounded in every set that holds it).
    let values: NumberSet = evidence.numbers;
    if (field !== null) {
      values = evidence.byName.get(field)!;
      if (evidence.byName.places(field) >= 2) {
        anchors ??= evidence.byName.anchorsIn(text);
        values = (anchors.length ? evidence.byName.get(field, anchors) : undefined) ?? values;
      }
    }
    if (!values.grounds(n)) return "number";
  }
  // A sentence may claim up to critical: one that may claim critical is spared reading what it claims.
  const bound = severityBound(ids, evidence, allowed);
  if (bound === "critical" || !hints.grades) return null;
  const claimed = claimedSeverity(text);
  if (claimed && severityRank(claimed) < severityRank(bound)) return "severity";
  return null;
}

/**
 * The text with every occurrence of each cited id replaced by a space, left to right as `split(id).join(" ")`
 * does: the pieces found with `indexOf` and joined into one flat string (a concatenation would leave a rope the
 * patterns after must flatten), without the list of every piece `split` makes.
 */
function withoutIds(text: string, ids: readonly string[]): string {
  let plain = text;
  for (const id of ids) {
    let at = plain.indexOf(id);
    if (at < 0) continue;
    const pieces: string[] = [];
    let from = 0;
    for (; at >= 0; at = plain.indexOf(id, from)) {
      pieces.push(plain.slice(from, at));
      from = at + id.length;
    }
    pieces.push(plain.slice(from));
    plain = pieces.join(" ");
  }
  return plain;
}

/** Whether a number at `index` is one of the positions the sentence names. */
function isPosition(positions: ReadonlyArray<[number, number]>, index: number): boolean {
  for (const [at] of positions) if (at === index) return true;
  return false;
}

/** The most severe grade a sentence may claim: that of the most severe finding it cites, else `allowed`. */
function severityBound(ids: readonly string[], evidence: GroundingEvidence, allowed: Severity): Severity {
  let bound: Severity | null = null;
  for (const id of ids) {
    const severity = evidence.severityOf.get(id);
    if (severity && (bound === null || severityRank(severity) < severityRank(bound))) bound = severity;
  }
  return bound ?? allowed;
}
