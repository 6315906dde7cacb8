import { ProtoReader, WIRE } from "./protobuf.js";

// Field numbers from wandb/proto/wandb_internal.proto (wandb 0.31: Record, HistoryRecord, HistoryItem, RunRecord…).
const RECORD = { history: 2, summary: 3, config: 5, run: 17, exit: 18 } as const;
const HISTORY = { item: 1, step: 2 } as const;
const ITEM = { key: 1, nestedKey: 2, none: 3, boolean: 4, integer: 5, number: 6, text: 7, json: 8, valueJson: 16 } as const;
const RUN = { runId: 1, project: 3, config: 4, summary: 5, displayName: 8, startTime: 17 } as const;
const KIND_OF: Record<number, WandbRecord["kind"]> = { [RECORD.history]: "history", [RECORD.summary]: "summary", [RECORD.config]: "config", [RECORD.run]: "run", [RECORD.exit]: "exit" };

/** One `wandb.log` call: its `_step` (else the record's step), `_timestamp` in seconds, and its numeric values. */
export interface WandbHistoryRow {
  step: number;
  timestamp: number | null;
  /** [key, value] for every numeric item but W&B's own `_step`/`_timestamp`/`_runtime`; NaN and ±Infinity kept. */
  values: Array<[string, number]>;
}

/** A config or summary item: the key path (nested keys joined with ".") and its JSON text. */
export type WandbItem = [key: string, valueJson: string];

export type WandbRecord =
  | { kind: "history"; row: WandbHistoryRow }
  | { kind: "config"; items: WandbItem[] }
  | { kind: "summary"; items: WandbItem[] }
  | { kind: "run"; runId: string; project: string; name: string; startTime: number | null; config: WandbItem[] }
  | { kind: "exit"; exitCode: number };

/** The JSON W&B writes for non-finite floats (Python's json.dumps and wandb-core's encoder alike). */
const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, "-Infinity": Number.NEGATIVE_INFINITY };

/** A history `value_json` as a number, or null for text, booleans, objects and lists (media, tables, nested dicts). */
export function numericJson(text: string): number | null {
  const c = text.charCodeAt(0);
  // A JSON number starts with a digit or '-'; Number() alone would also take "true"→NaN, "" → 0, "0x1" → 1.
  if ((c >= 48 && c <= 57) || c === 45) {
    const n = Number(text);
    if (!Number.isNaN(n)) return n;
  }
  return c === 78 || c === 73 || c === 45 ? (NON_FINITE[text] ?? null) : null;
}

/**
 * Decodes the parts of one W&B `Record` the diagnosis uses (history rows, config, summary, the run, its exit) and
 * returns null for the rest (output lines, system stats, telemetry, files, artifacts…). With `only`, records of
 * other kinds are not decoded at all (a history scan skips the summary record wandb writes beside every row).
 */
export function decodeWandbRecord(bytes: Uint8Array, only?: ReadonlySet<WandbRecord["kind"]>): WandbRecord | null {
  const r = new ProtoReader(bytes);
  for (let f = r.next(); f; f = r.next()) {
    if (f.wire !== WIRE.bytes || (only && !only.has(KIND_OF[f.field] ?? "exit"))) {
      r.skip(f.wire);
      continue;
    }
    switch (f.field) {
      case RECORD.history:
        return { kind: "history", row: historyRow(r.message()) };
      case RECORD.config:
        return { kind: "config", items: updates(r.message()) };
      case RECORD.summary:
        return { kind: "summary", items: updates(r.message()) };
      case RECORD.run:
        return runRecord(r.message());
      case RECORD.exit:
        return { kind: "exit", exitCode: exitCode(r.message()) };
      default:
        r.skip(f.wire);
    }
  }
  return null;
}

function historyRow(r: ProtoReader): WandbHistoryRow {
  const row: WandbHistoryRow = { step: Number.NaN, timestamp: null, values: [] };
  let recordStep = Number.NaN;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === HISTORY.item && f.wire === WIRE.bytes) {
      const item = historyItem(r.message());
      if (!item) continue;
      const [key, value] = item;
      if (key === "_step") row.step = value;
      else if (key === "_timestamp") row.timestamp = value;
      else if (key !== "_runtime") row.values.push(item);
    } else if (f.field === HISTORY.step && f.wire === WIRE.bytes) {
      const s = r.message();
      for (let g = s.next(); g; g = s.next()) if (g.field === 1 && g.wire === WIRE.varint) recordStep = s.varint();
      else s.skip(g.wire);
    } else r.skip(f.wire);
  }
  if (Number.isNaN(row.step)) row.step = Number.isNaN(recordStep) ? 0 : recordStep;
  return row;
}

/** One history item as [key, number], or null when its value is not a number (text, a bool, media, a table). */
function historyItem(r: ProtoReader): [string, number] | null {
  let key = "";
  let nested: string[] | null = null;
  let typed: number | null = null;
  let json: string | null = null;
  for (let f = r.next(); f; f = r.next()) {
    switch (f.field) {
      case ITEM.key:
        key = r.string();
        break;
      case ITEM.nestedKey:
        (nested ??= []).push(r.string());
        break;
      case ITEM.integer:
        if (f.wire === WIRE.varint) {
          const z = r.varint();
          typed = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
        } else r.skip(f.wire);
        break;
      case ITEM.number:
        if (f.wire === WIRE.fixed64) typed = r.double();
        else r.skip(f.wire);
        break;
      case ITEM.valueJson:
        json = r.string();
        break;
      default:
        r.skip(f.wire);
    }
  }
  const value = typed ?? (json === null ? null : numericJson(json));
  return value === null ? null : [nested ? nested.join(".") : key, value];
}

/** ConfigRecord / SummaryRecord: their `update` items (field 1), each key, nested key and value_json. */
function updates(r: ProtoReader): WandbItem[] {
  const out: WandbItem[] = [];
  for (let f = r.next(); f; f = r.next()) {
    if (f.field !== 1 || f.wire !== WIRE.bytes) {
      r.skip(f.wire);
      continue;
    }
    const item = r.message();
    let key = "";
    const nested: string[] = [];
    let json = "";
    for (let g = item.next(); g; g = item.next()) {
      if (g.field === ITEM.key && g.wire === WIRE.bytes) key = item.string();
      else if (g.field === ITEM.nestedKey && g.wire === WIRE.bytes) nested.push(item.string());
      else if (g.field === ITEM.valueJson && g.wire === WIRE.bytes) json = item.string();
      else item.skip(g.wire);
    }
    out.push([nested.length > 0 ? nested.join(".") : key, json]);
  }
  return out;
}

function runRecord(r: ProtoReader): WandbRecord {
  const run = { kind: "run" as const, runId: "", project: "", name: "", startTime: null as number | null, config: [] as WandbItem[] };
  for (let f = r.next(); f; f = r.next()) {
    if (f.wire !== WIRE.bytes) r.skip(f.wire);
    else if (f.field === RUN.runId) run.runId = r.string();
    else if (f.field === RUN.project) run.project = r.string();
    else if (f.field === RUN.displayName) run.name = r.string();
    else if (f.field === RUN.config) run.config = updates(r.message());
    else if (f.field === RUN.startTime) {
      // google.protobuf.Timestamp: seconds (1), nanos (2).
      const t = r.message();
      let seconds = 0;
      let nanos = 0;
      for (let g = t.next(); g; g = t.next()) {
        if (g.field === 1 && g.wire === WIRE.varint) seconds = t.varint();
        else if (g.field === 2 && g.wire === WIRE.varint) nanos = t.varint();
        else t.skip(g.wire);
      }
      run.startTime = seconds + nanos / 1e9;
    } else r.skip(f.wire);
  }
  return run;
}

function exitCode(r: ProtoReader): number {
  let code = 0;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === 1 && f.wire === WIRE.varint) code = r.varint() | 0;
    else r.skip(f.wire);
  }
  return code;
}
