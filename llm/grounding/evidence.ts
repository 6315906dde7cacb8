import { AGENT_NAMES, type Severity, SeveritySchema, severityRank } from "../../graph/result.js";
import { NumberIndex, valuesIn } from "./numbers.js";

/** What a model answer is checked against: the values, ids and severities of the evidence it was given. */
export interface GroundingEvidence {
  numbers: NumberIndex;
  /** The numbers under each field name (lower case), nested ones included: what "std 0.02" may state. */
  byName: ReadonlyMap<string, NumberIndex>;
  /** Finding ids, detector rule ids and agent names the answer may cite. */
  ids: ReadonlySet<string>;
  /** Each finding's severity, by id. */
  severityOf: ReadonlyMap<string, Severity>;
  /** The most severe finding shown; "info" when none. */
  top: Severity;
}

interface Visitor {
  number(n: number, names: readonly string[]): void;
  text(s: string, names: readonly string[]): void;
  finding(id: string, severity: Severity): void;
  id(s: string): void;
}

/**
 * Visits every number (list lengths included: counts the evidence implies), text, finding and id of a value,
 * with the field names it sits under.
 */
function walk(value: unknown, visit: Visitor, names: readonly string[] = []): void {
  if (typeof value === "number") visit.number(value, names);
  else if (typeof value === "string") visit.text(value, names);
  else if (Array.isArray(value)) {
    visit.number(value.length, names);
    for (const item of value) walk(item, visit, names);
  } else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    const severity = SeveritySchema.safeParse(o.severity);
    if (typeof o.id === "string" && severity.success) visit.finding(o.id, severity.data);
    if (typeof o.rule_id === "string") visit.id(o.rule_id);
    if (Array.isArray(o.finding_ids)) for (const id of o.finding_ids) if (typeof id === "string") visit.id(id);
    for (const [key, v] of Object.entries(o)) {
      visit.text(key, names);
      walk(v, visit, [...names, key.toLowerCase()]);
    }
  }
}

/**
 * The evidence of one model call: every number in what the model was shown (JSON numbers, numbers written in
 * evidence sentences, list lengths), also by the field names it sits under, every finding and rule id, and each
 * finding's severity. The findings shown
 * carry the detectors' facts they rest on. Numbers are taken as shown, so a value the prompt rounded is matched
 * at that rounding.
 */
export function collectEvidence(...shown: unknown[]): GroundingEvidence {
  const numbers: number[] = [];
  const named = new Map<string, number[]>();
  const add = (n: number, names: readonly string[]) => {
    numbers.push(n);
    for (const name of new Set(names)) {
      const list = named.get(name);
      if (list) list.push(n);
      else named.set(name, [n]);
    }
  };
  const ids = new Set<string>(Object.values(AGENT_NAMES));
  const severityOf = new Map<string, Severity>();
  let top: Severity = "info";
  const visit: Visitor = {
    number: add,
    text: (s, names) => {
      for (const v of valuesIn(s)) add(v, names);
    },
    finding: (id: string, severity: Severity) => {
      ids.add(id);
      const known = severityOf.get(id);
      if (!known || severityRank(severity) < severityRank(known)) severityOf.set(id, severity);
      if (severityRank(severity) < severityRank(top)) top = severity;
    },
    id: (s: string) => ids.add(s),
  };
  for (const value of shown) walk(value, visit);
  const byName = new Map([...named].map(([name, values]) => [name, new NumberIndex(values)]));
  return { numbers: new NumberIndex(numbers), byName, ids, severityOf, top };
}

/** The JSON object of a prompt's user message (every prompt of ours sends one), or its text when not JSON. */
export function shownInput(messages: readonly { role: string; content: string }[]): unknown {
  const user = messages.find((m) => m.role === "user")?.content ?? "";
  try {
    return JSON.parse(user) as unknown;
  } catch {
    return user;
  }
}
