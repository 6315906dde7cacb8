import { AGENT_NAMES, SEVERITIES, type Severity, severityRank } from "../../domain/result.js";
import { citedIds } from "./cited-ids.js";
import { NamedNumbers } from "./named-numbers.js";
import { type NumberSet, NumberSpans } from "./numbers.js";
import { ShownNumbers } from "./shown-numbers.js";
import type { TextValues } from "./text-values.js";
import { WordShapes } from "./word-shapes.js";

/** What a model answer is checked against: the values, ids and severities of the evidence it was given. */
export interface GroundingEvidence {
  numbers: NumberSpans;
  /**
   * The numbers under each field name (lower case), nested ones included: what "std 0.02" may state; with
   * anchors (what `anchorsIn` finds), only those inside the items they name (undefined when none holds the field).
   */
  byName: {
    get(name: string, anchors?: readonly string[]): NumberSet | undefined;
    /** In how many places of the evidence a field (lower case) is given: 0 when it is not a field name. */
    places(name: string): number;
    /** Whether some field name has several words ("canned goods"). */
    hasPhrases(): boolean;
    /** Every field name (lower case). */
    fieldNames(): Iterable<string>;
    /** The items of the evidence a text names (as written): finding and rule ids, series, tensors, columns, checks. */
    anchorsIn(text: string): string[];
    /**
     * The values paired with `position` in the [position, value] pairs of a field (null: of any field) inside the
     * items named (all items when none is): [step, loss] points, a window's [start, end]; undefined when no pair
     * is there, so nothing binds.
     */
    pairedWith(position: number, name: string | null, anchors: readonly string[]): NumberSet | undefined;
  };
  /** Finding ids, detector rule ids and agent names the answer may cite. */
  ids: ReadonlySet<string>;
  /** Each finding's severity, by id. */
  severityOf: ReadonlyMap<string, Severity>;
  /** The most severe finding shown; "info" when none. */
  top: Severity;
}

/**
 * The keys whose text value names the item (object) that holds it: a finding's id, an evidence item's rule id, a
 * series', tensor's or report's name, a check, a column, a metric; a recommendation is named by its findings.
 * A model that speaks of one item names it ("val/loss", "conv1.weight", "training.overfitting").
 */
export const ANCHOR_KEYS = ["id", "rule_id", "name", "check", "column", "metric", "tensor", "feature"] as const;
const ANCHOR_LISTS = ["finding_ids"] as const;
/** Each anchor key and whether its value is a list of names (finding_ids) rather than one name. */
const ANCHOR_KEY_LISTS = new Map<string, boolean>([...ANCHOR_KEYS.map((k) => [k, false] as const), ...ANCHOR_LISTS.map((k) => [k, true] as const)]);

/**
 * The first character and length of every anchor key: a key of another shape (most keys) is none without a
 * lookup of it. The walk meets ~800 keys per analysis; the lookup was a tenth of its time.
 */
const ANCHOR_KEY_SHAPES = new WordShapes(ANCHOR_KEY_LISTS.keys());

/** The names of one object of the evidence (ANCHOR_KEYS' values, finding_ids' items), as written. */
export function anchorNamesOf(o: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of ANCHOR_KEYS) namesOf(o[key], false, out);
  for (const key of ANCHOR_LISTS) namesOf(o[key], true, out);
  return out;
}

/** The names the value of an anchor key gives (its text, or the texts of its list), added to `out`. */
function namesOf(value: unknown, list: boolean, out: string[]): void {
  if (!list) {
    if (typeof value === "string" && value) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) if (typeof v === "string" && v) out.push(v);
}

const DIGIT = /\d/;

/**
 * The evidence of one model call: every number in what the model was shown (JSON numbers, numbers written in
 * evidence sentences, list lengths), also by the field names it sits under, every finding and rule id, and each
 * finding's severity. The findings shown carry the detectors' facts they rest on. Numbers are taken as shown, so
 * a value the prompt rounded is matched at that rounding. A text's values are read only when a check needs them
 * (ShownNumbers); `texts`, shared by the prompts of an analysis, reads each text of the evidence once.
 */
export function collectEvidence(shown: unknown, texts?: TextValues): GroundingEvidence {
  const shownNumbers = new ShownNumbers(texts);
  const numbers = shownNumbers.values;
  const byName = new NamedNumbers(shownNumbers);
  const ids = new Set<string>(Object.values(AGENT_NAMES));
  const severityOf = new Map<string, Severity>();
  let top: Severity = "info";
  const walk = (value: unknown): void => {
    if (typeof value === "number") numbers.push(value);
    else if (typeof value === "string") {
      if (DIGIT.test(value)) shownNumbers.addText(value);
    } else if (Array.isArray(value)) {
      // Two numbers are a point ([step, value]) or a window ([start, end]): kept as a pair, its length is no count.
      if (value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number") {
        byName.addPair(numbers.length);
        numbers.push(value[0], value[1]);
        return;
      }
      numbers.push(value.length);
      for (const item of value) {
        if (typeof item === "number") numbers.push(item);
        else walk(item);
      }
    } else if (value && typeof value === "object") {
      const o = value as Record<string, unknown>;
      const first = numbers.length;
      // Most objects name nothing: their ids are read only when one of their keys is an anchor key, and their
      // names (anchorNamesOf's) are taken as the walk meets those keys rather than looked up key by key after.
      let names: string[] | null = null;
      for (const key in o) {
        const item = o[key];
        const start = numbers.length;
        // Numbers and text, most values, are read here rather than in a call of their own.
        if (typeof item === "number") numbers.push(item);
        else if (typeof item === "string") {
          if (DIGIT.test(item)) shownNumbers.addText(item);
        } else if (item !== null && typeof item === "object") walk(item);
        // Most keys hold text without a number (titles, descriptions): nothing to record, not even the name.
        if (numbers.length > start) byName.addRange(key, start, numbers.length);
        if (!ANCHOR_KEY_SHAPES.mayHold(key.charCodeAt(0), key.length)) continue;
        const list = ANCHOR_KEY_LISTS.get(key);
        if (list !== undefined) namesOf(item, list, (names ??= []));
      }
      if (names === null) return;
      readIds(o);
      for (const name of names) byName.addAnchor(name, first, numbers.length);
    }
  };
  /** The finding id and severity, rule ids and cited findings of an object that names something. */
  const readIds = (o: Record<string, unknown>): void => {
    const severity = o.severity as Severity;
    if (typeof o.id === "string" && SEVERITIES.includes(severity)) {
      ids.add(o.id);
      const known = severityOf.get(o.id);
      if (!known || severityRank(severity) < severityRank(known)) severityOf.set(o.id, severity);
      if (severityRank(severity) < severityRank(top)) top = severity;
    }
    if (typeof o.rule_id === "string") {
      ids.add(o.rule_id);
      // A cross finding's rule joins the rules it rests on ("XA-11<CK-02", "CK-11×DS"): each may be cited alone.
      if (o.rule_id.length > 6) for (const part of citedIds(o.rule_id)) ids.add(part);
    }
    if (Array.isArray(o.finding_ids)) for (const id of o.finding_ids) if (typeof id === "string") ids.add(id);
  };
  walk(shown);
  return { numbers: new NumberSpans(numbers, undefined, shownNumbers), byName, ids, severityOf, top };
}
