import { AGENT_NAMES, type Severity, SeveritySchema, severityRank } from "../../graph/result.js";
import { NumberIndex, valuesIn } from "./numbers.js";

/** What a model answer is checked against: the values, ids and severities of the evidence it was given. */
export interface GroundingEvidence {
  numbers: NumberIndex;
  /** Finding ids, detector rule ids and agent names the answer may cite. */
  ids: ReadonlySet<string>;
  /** Each finding's severity, by id. */
  severityOf: ReadonlyMap<string, Severity>;
  /** The most severe finding shown; "info" when none. */
  top: Severity;
}

/** Visits every number (list lengths included: counts the evidence implies), text, finding and id of a value. */
function walk(value: unknown, visit: { number(n: number): void; text(s: string): void; finding(id: string, severity: Severity): void; id(s: string): void }): void {
  if (typeof value === "number") visit.number(value);
  else if (typeof value === "string") visit.text(value);
  else if (Array.isArray(value)) {
    visit.number(value.length);
    for (const item of value) walk(item, visit);
  } else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    const severity = SeveritySchema.safeParse(o.severity);
    if (typeof o.id === "string" && severity.success) visit.finding(o.id, severity.data);
    if (typeof o.rule_id === "string") visit.id(o.rule_id);
    if (Array.isArray(o.finding_ids)) for (const id of o.finding_ids) if (typeof id === "string") visit.id(id);
    for (const [key, v] of Object.entries(o)) {
      visit.text(key);
      walk(v, visit);
    }
  }
}

/**
 * The evidence of one model call: every number in what the model was shown (JSON numbers, numbers written in
 * evidence sentences, list lengths), every finding and rule id, and each finding's severity. The findings shown
 * carry the detectors' facts they rest on. Numbers are taken as shown, so a value the prompt rounded is matched
 * at that rounding.
 */
export function collectEvidence(...shown: unknown[]): GroundingEvidence {
  const numbers: number[] = [];
  const ids = new Set<string>(Object.values(AGENT_NAMES));
  const severityOf = new Map<string, Severity>();
  let top: Severity = "info";
  const visit = {
    number: (n: number) => numbers.push(n),
    text: (s: string) => {
      for (const v of valuesIn(s)) numbers.push(v);
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
  return { numbers: new NumberIndex(numbers), ids, severityOf, top };
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
