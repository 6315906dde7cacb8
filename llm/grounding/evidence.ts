import { AGENT_NAMES, SEVERITIES, type Severity, severityRank } from "../../domain/result.js";
import { citedIds } from "./cited-ids.js";
import { NamedNumbers } from "./named-numbers.js";
import { evidenceValues, NumberSpans } from "./numbers.js";

/** What a model answer is checked against: the values, ids and severities of the evidence it was given. */
export interface GroundingEvidence {
  numbers: NumberSpans;
  /** The numbers under each field name and inside each item the evidence names. */
  byName: NamedNumbers;
  /** Finding ids, detector rule ids and agent names the answer may cite. */
  ids: ReadonlySet<string>;
  /** Each finding's severity, by id. */
  severityOf: ReadonlyMap<string, Severity>;
  /** The most severe finding shown; "info" when none. */
  top: Severity;
}

/**
 * The keys whose text value names the item (object) that holds it: a finding's id, an evidence item's rule id, a
 * series', tensor's or report's name, a check, a column, a metric; a recommendation is named by its findings
 * (finding_ids). A model that speaks of one item names it ("val/loss", "conv1.weight", "training.overfitting").
 */
export const ANCHOR_KEYS = ["id", "rule_id", "name", "check", "column", "metric", "tensor", "feature"] as const;

/** The names of one object of the evidence (ANCHOR_KEYS' values, finding_ids' items), as written. */
export function anchorNamesOf(o: Record<string, unknown>): string[] {
  const names = [...ANCHOR_KEYS.map((key) => o[key]), ...(Array.isArray(o.finding_ids) ? o.finding_ids : [])];
  return names.filter((name): name is string => typeof name === "string" && name !== "");
}

/**
 * The evidence of one model call: every number in what the model was shown (JSON numbers, numbers written in
 * evidence texts, list lengths), also by the field names and items it sits under, every finding and rule id, and
 * each finding's severity. Numbers are taken as shown, so a value the prompt rounded is matched at that rounding.
 */
export function collectEvidence(shown: unknown): GroundingEvidence {
  const numbers: number[] = [];
  const byName = new NamedNumbers(numbers);
  const ids = new Set<string>(Object.values(AGENT_NAMES));
  const severityOf = new Map<string, Severity>();
  let top: Severity = "info";
  const walk = (value: unknown): void => {
    if (typeof value === "number") numbers.push(value);
    else if (typeof value === "string") numbers.push(...evidenceValues(value));
    else if (Array.isArray(value)) {
      // Two numbers are a point ([step, value]) or a window ([start, end]): kept as a pair, its length is no count.
      if (value.length === 2 && typeof value[0] === "number" && typeof value[1] === "number") byName.addPair(numbers.length);
      else numbers.push(value.length);
      value.forEach(walk);
    } else if (value && typeof value === "object") {
      const o = value as Record<string, unknown>;
      const first = numbers.length;
      for (const [key, item] of Object.entries(o)) {
        const start = numbers.length;
        walk(item);
        byName.addRange(key, start, numbers.length);
      }
      const names = anchorNamesOf(o);
      if (ANCHOR_KEYS.some((key) => key in o) || "finding_ids" in o) readIds(o);
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
      for (const part of citedIds(o.rule_id)) ids.add(part);
    }
    if (Array.isArray(o.finding_ids)) for (const id of o.finding_ids) if (typeof id === "string") ids.add(id);
  };
  walk(shown);
  return { numbers: new NumberSpans(numbers), byName, ids, severityOf, top };
}
