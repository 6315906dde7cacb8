import { AGENT_NAMES, SEVERITIES, type Severity, severityRank } from "../../domain/result.js";
import { evidenceValues, NumberIndex } from "./numbers.js";

/** What a model answer is checked against: the values, ids and severities of the evidence it was given. */
export interface GroundingEvidence {
  numbers: NumberIndex;
  /**
   * The numbers under each field name (lower case), nested ones included: what "std 0.02" may state; with
   * finding ids, only those inside these findings (undefined when they hold no such field).
   */
  byName: { get(name: string, findings?: readonly string[]): NumberIndex | undefined };
  /** Finding ids, detector rule ids and agent names the answer may cite. */
  ids: ReadonlySet<string>;
  /** Each finding's severity, by id. */
  severityOf: ReadonlyMap<string, Severity>;
  /** The most severe finding shown; "info" when none. */
  top: Severity;
}

/**
 * Numbers by the field names they sit under, kept as ranges of the evidence's list of numbers (a field's values
 * are the ones added while it was open), so the walk records one range per field rather than every number under
 * every name above it; a name's index is built the first time a sentence names it.
 */
class NamedNumbers {
  /** Per name, and per finding id, [start, end) pairs into `numbers`. */
  private readonly ranges = new Map<string, number[]>();
  private readonly findings = new Map<string, number[]>();
  private readonly built = new Map<string, NumberIndex | undefined>();

  constructor(private readonly numbers: readonly number[]) {}

  addRange(name: string, start: number, end: number): void {
    pushRange(this.ranges, name, start, end);
  }

  addFinding(id: string, start: number, end: number): void {
    pushRange(this.findings, id, start, end);
  }

  get(name: string, findings?: readonly string[]): NumberIndex | undefined {
    const key = findings?.length ? `${name}\u0000${findings.join("\u0000")}` : name;
    if (this.built.has(key)) return this.built.get(key);
    const ranges = this.ranges.get(name);
    if (!ranges) return undefined;
    const within = findings?.length ? findings.flatMap((id) => this.findings.get(id) ?? []) : [0, this.numbers.length];
    const values: number[] = [];
    for (let i = 0; i < ranges.length; i += 2) {
      for (let w = 0; w < within.length; w += 2) {
        const end = Math.min(ranges[i + 1]!, within[w + 1]!);
        for (let j = Math.max(ranges[i]!, within[w]!); j < end; j++) values.push(this.numbers[j]!);
      }
    }
    const index = values.length ? new NumberIndex(values) : undefined;
    this.built.set(key, index);
    return index;
  }
}

function pushRange(map: Map<string, number[]>, key: string, start: number, end: number): void {
  if (start === end) return;
  const list = map.get(key);
  if (list) list.push(start, end);
  else map.set(key, [start, end]);
}

/**
 * The evidence of one model call: every number in what the model was shown (JSON numbers, numbers written in
 * evidence sentences, list lengths), also by the field names it sits under, every finding and rule id, and each
 * finding's severity. The findings shown carry the detectors' facts they rest on. Numbers are taken as shown, so
 * a value the prompt rounded is matched at that rounding.
 */
export function collectEvidence(...shown: unknown[]): GroundingEvidence {
  const numbers: number[] = [];
  const byName = new NamedNumbers(numbers);
  const ids = new Set<string>(Object.values(AGENT_NAMES));
  const severityOf = new Map<string, Severity>();
  let top: Severity = "info";
  const walk = (value: unknown): void => {
    if (typeof value === "number") numbers.push(value);
    else if (typeof value === "string") {
      if (/\d/.test(value)) numbers.push(...evidenceValues(value));
    } else if (Array.isArray(value)) {
      numbers.push(value.length);
      for (const item of value) walk(item);
    } else if (value && typeof value === "object") {
      const o = value as Record<string, unknown>;
      const severity = o.severity as Severity;
      if (typeof o.id === "string" && SEVERITIES.includes(severity)) {
        ids.add(o.id);
        const known = severityOf.get(o.id);
        if (!known || severityRank(severity) < severityRank(known)) severityOf.set(o.id, severity);
        if (severityRank(severity) < severityRank(top)) top = severity;
      }
      if (typeof o.rule_id === "string") ids.add(o.rule_id);
      if (Array.isArray(o.finding_ids)) for (const id of o.finding_ids) if (typeof id === "string") ids.add(id);
      const first = numbers.length;
      for (const key in o) {
        const start = numbers.length;
        walk(o[key]);
        byName.addRange(key.toLowerCase(), start, numbers.length);
      }
      if (typeof o.id === "string" && SEVERITIES.includes(severity)) byName.addFinding(o.id, first, numbers.length);
    }
  };
  for (const value of shown) walk(value);
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
