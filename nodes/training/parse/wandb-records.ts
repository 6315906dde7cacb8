import { ProtoReader, WIRE } from "./protobuf.js";

// Field numbers from wandb/proto/wandb_internal.proto (wandb 0.31: Record, HistoryRecord, HistoryItem, RunRecord…).
const RECORD = { history: 2, summary: 3, config: 5, run: 17, exit: 18 } as const;
const HISTORY = { item: 1, step: 2 } as const;
const ITEM = { key: 1, nestedKey: 2, none: 3, boolean: 4, integer: 5, number: 6, text: 7, json: 8, valueJson: 16 } as const;
const RUN = { runId: 1, project: 3, config: 4, summary: 5, displayName: 8, startTime: 17 } as const;

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

const utf8 = new TextDecoder();
/** The JSON W&B writes for non-finite floats (Python's json.dumps and wandb-core's encoder alike). */
const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Number.POSITIVE_INFINITY, "-Infinity": Number.NEGATIVE_INFINITY };

/** A history `value_json` as a number, or null for text, booleans, objects and lists (media, tables, nested dicts). */
export function numericJson(text: string): number | null {
  const special = NON_FINITE[text];
  if (special !== undefined) return special;
  const c = text.charCodeAt(0);
  // A JSON number starts with a digit or '-'; Number() alone would also take "true"→NaN, "" → 0, "0x1" → 1.
  if (!((c >= 48 && c <= 57) || c === 45)) return null;
  const n = Number(text);
  return Number.isNaN(n) ? null : n;
}

/**
 * Decodes the parts of one W&B `Record` the diagnosis uses (history rows, config, summary, the run, its exit) and
 * returns null for the rest (output lines, system stats, telemetry, files, artifacts…).
 */
export function decodeWandbRecord(bytes: Uint8Array): WandbRecord | null {
  const r = new ProtoReader(bytes);
  for (let f = r.next(); f; f = r.next()) {
    if (f.wire !== WIRE.bytes) {
      r.skip(f.wire);
      continue;
    }
    switch (f.field) {
      case RECORD.history:
        return { kind: "history", row: historyRow(r.bytes()) };
      case RECORD.config:
        return { kind: "config", items: updates(r.bytes()) };
      case RECORD.summary:
        return { kind: "summary", items: updates(r.bytes()) };
      case RECORD.run:
        return runRecord(r.bytes());
      case RECORD.exit:
        return { kind: "exit", exitCode: exitCode(r.bytes()) };
      default:
        r.skip(f.wire);
    }
  }
  return null;
}

function historyRow(bytes: Uint8Array): WandbHistoryRow {
  const r = new ProtoReader(bytes);
  const row: WandbHistoryRow = { step: Number.NaN, timestamp: null, values: [] };
  let recordStep = Number.NaN;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === HISTORY.item && f.wire === WIRE.bytes) {
      const item = historyItem(r.bytes());
      if (!item) continue;
      const [key, value] = item;
      if (key === "_step") row.step = value;
      else if (key === "_timestamp") row.timestamp = value;
      else if (key !== "_runtime") row.values.push(item);
    } else if (f.field === HISTORY.step && f.wire === WIRE.bytes) {
      const s = new ProtoReader(r.bytes());
      for (let g = s.next(); g; g = s.next()) if (g.field === 1 && g.wire === WIRE.varint) recordStep = s.varint();
      else s.skip(g.wire);
    } else r.skip(f.wire);
  }
  if (Number.isNaN(row.step)) row.step = Number.isNaN(recordStep) ? 0 : recordStep;
  return row;
}

/** One history item as [key, number], or null when its value is not a number (text, a bool, media, a table). */
function historyItem(bytes: Uint8Array): [string, number] | null {
  const r = new ProtoReader(bytes);
  let key = "";
  let nested: string[] | null = null;
  let typed: number | null = null;
  let json: string | null = null;
  for (let f = r.next(); f; f = r.next()) {
    switch (f.field) {
      case ITEM.key:
        key = utf8.decode(r.bytes());
        break;
      case ITEM.nestedKey:
        (nested ??= []).push(utf8.decode(r.bytes()));
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
        json = utf8.decode(r.bytes());
        break;
      default:
        r.skip(f.wire);
    }
  }
  const value = typed ?? (json === null ? null : numericJson(json));
  return value === null ? null : [nested ? nested.join(".") : key, value];
}

/** ConfigRecord / SummaryRecord: their `update` items (field 1), each key, nested key and value_json. */
function updates(bytes: Uint8Array): WandbItem[] {
  const r = new ProtoReader(bytes);
  const out: WandbItem[] = [];
  for (let f = r.next(); f; f = r.next()) {
    if (f.field !== 1 || f.wire !== WIRE.bytes) {
      r.skip(f.wire);
      continue;
    }
    const item = new ProtoReader(r.bytes());
    let key = "";
    const nested: string[] = [];
    let json = "";
    for (let g = item.next(); g; g = item.next()) {
      if (g.field === ITEM.key && g.wire === WIRE.bytes) key = utf8.decode(item.bytes());
      else if (g.field === ITEM.nestedKey && g.wire === WIRE.bytes) nested.push(utf8.decode(item.bytes()));
      else if (g.field === ITEM.valueJson && g.wire === WIRE.bytes) json = utf8.decode(item.bytes());
      else item.skip(g.wire);
    }
    out.push([nested.length > 0 ? nested.join(".") : key, json]);
  }
  return out;
}

function runRecord(bytes: Uint8Array): WandbRecord {
  const r = new ProtoReader(bytes);
  const run = { kind: "run" as const, runId: "", project: "", name: "", startTime: null as number | null, config: [] as WandbItem[] };
  for (let f = r.next(); f; f = r.next()) {
    if (f.wire !== WIRE.bytes) r.skip(f.wire);
    else if (f.field === RUN.runId) run.runId = utf8.decode(r.bytes());
    else if (f.field === RUN.project) run.project = utf8.decode(r.bytes());
    else if (f.field === RUN.displayName) run.name = utf8.decode(r.bytes());
    else if (f.field === RUN.config) run.config = updates(r.bytes());
    else if (f.field === RUN.startTime) {
      // google.protobuf.Timestamp: seconds (1), nanos (2).
      const t = new ProtoReader(r.bytes());
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

function exitCode(bytes: Uint8Array): number {
  const r = new ProtoReader(bytes);
  let code = 0;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === 1 && f.wire === WIRE.varint) code = r.varint() | 0;
    else r.skip(f.wire);
  }
  return code;
}
