import { directionOf } from "../metric-quantities.js";
import { isAxisName, normalizeMetricName } from "../names.js";
import { LINE_STYLES, type LineRecord, NOISE, type StyleState } from "./log-styles.js";
import type { SeriesBuilder } from "./series-builder.js";

/** What reading metric series out of printed logs found. */
export interface LogSeriesRead {
  /** Lines that gave at least one point. */
  records: number;
  /** The line styles that did, in the order first seen (log-styles.ts names). */
  styles: string[];
}

/** Lines read at most (summarizeLogs' bound); a longer log's tail is left unread. */
const MAX_LINES = 200_000;
/** Longer lines are cut before matching (a pasted tensor should not cost seconds). */
const MAX_LINE = 4000;
/** ANSI colour and cursor sequences (tqdm, rich, Lightning, Ultralytics colour their output). */
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;

/**
 * What a terminal would show for one printed line: colours gone, and of its carriage-return (or backspace)
 * redraws only the segments, in order, each of which a progress bar later overwrote. All are returned so that
 * a bar redrawn through several epochs on one physical line keeps each epoch's last state (see readLogSeries).
 */
export function screenSegments(line: string): string[] {
  return line
    .replace(ANSI, "")
    .replace(BAR_END, "$1\r")
    .split(/\r|\u0008+/)
    .filter((s) => s.trim() !== "");
}

/** The end of a tqdm bar (`| 4/12 [00:02<00:05, 1.44it/s, loss=1.2]`) with text glued on: a print to stdout between redraws on stderr. */
const BAR_END = /(\|\s*\d+\/\d+\s*\[[^\]]*\])(?=\S)/g;

/**
 * The series name a name read from a log goes into, or null when it is worth none: a measure of the model or
 * the optimizer has one, `v_num` or `eta` not. Memoized per log: a long log repeats a handful of names.
 */
function seriesNames(): (raw: string) => string | null {
  const known = new Map<string, string | null>();
  return (raw) => {
    let out = known.get(raw);
    if (out !== undefined) return out;
    const name = normalizeMetricName(raw);
    const metric = !isAxisName(raw) && (name.split !== "none" || name.quantity === "lr" || name.quantity === "grad_norm" || directionOf(name.quantity) !== null);
    known.set(raw, (out = metric ? name.name : null));
    return out;
  };
}

/**
 * Reads metric series out of printed training logs (Keras fit, Hugging Face Trainer dicts, tqdm and Lightning
 * bars, mmcv/mmengine, Ultralytics' table, custom `key=value` prints; log-styles.ts). Each point keeps the epoch
 * and step its line names; its x axis is the step, else the last step an earlier line named (an epoch summary
 * comes at the step training reached), else the epoch, else its record's position. Warnings and
 * tracebacks are skipped; of a progress bar's redraws within one epoch only the last counts, whatever other
 * lines (a validation bar) come between.
 */
export function readLogSeries(lines: readonly string[], out: SeriesBuilder): LogSeriesRead {
  const state: StyleState = {};
  const styles = new Set<string>();
  let records = 0;
  const seriesName = seriesNames();
  const points = new Map<string, Map<number, { raw: string; readAs: string | undefined; value: number; epoch: number }>>();
  /** The last redraw of each progress bar, kept until the bar moves to another epoch. */
  const bars = new Map<string, LineRecord & { x: number }>();
  /** The last step a line named: a line that names none (an epoch's summary) is at the step training reached. */
  let lastStep: number | undefined;
  let read = 0;
  const emit = (r: LineRecord & { x: number }) => {
    let any = false;
    for (const [raw, value, readAs] of r.pairs) {
      const name = seriesName(readAs ?? raw);
      if (name === null) continue;
      any = true;
      let at = points.get(name);
      if (!at) points.set(name, (at = new Map()));
      // One value per step: a loop that prints a step's loss and shows it in its bar too, or an epoch's last batch
      // loss beside the epoch summary, says one thing twice. The last said is kept.
      at.set(r.x, { raw, readAs, value, epoch: r.epoch ?? Number.NaN });
    }
    if (!any) return;
    styles.add(r.style);
    records++;
  };
  const n = Math.min(lines.length, MAX_LINES);
  for (let i = 0; i < n; i++) {
    for (const segment of screenSegments(lines[i]!.slice(0, MAX_LINE))) {
      if (NOISE.test(segment)) continue;
      const line = readLine(segment, state);
      if (!line) continue;
      const record = { ...line, x: line.step ?? lastStep ?? line.epoch ?? read };
      read++;
      if (line.step !== undefined) lastStep = line.step;
      if (record.bar === undefined) {
        emit(record);
        continue;
      }
      // A bar that names no epoch is one bar per printed line (tqdm's leave=True ends each with a newline).
      const key = record.epoch === undefined ? `${record.bar}@${i}` : record.bar;
      const before = bars.get(key);
      if (before && before.epoch !== record.epoch) emit(before);
      bars.set(key, record);
    }
  }
  for (const r of bars.values()) emit(r);
  for (const at of points.values()) for (const [x, p] of at) out.columns(p.raw, 0, p.readAs).push(x, p.value, p.epoch, Number.NaN);
  return { records, styles: [...styles] };
}

function readLine(line: string, state: StyleState): LineRecord | null {
  for (const style of LINE_STYLES) {
    const r = style.read(line, state);
    if (r === "state") return null;
    if (r) return r;
  }
  return null;
}
