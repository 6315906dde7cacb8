import { isAxisName, STEP_NAMES } from "../names.js";
import { metricColumnNames } from "./csv-layouts.js";
import { detectDelimiter, readCsv } from "./csv-table.js";
import { readMetricValue } from "./number.js";
import type { SeriesBuilder } from "./series-builder.js";

/** A finite number in a cell, else NaN (axes: step, epoch, timestamp). */
function axisCell(row: string[], j: number): number {
  if (j < 0) return Number.NaN;
  const v = readMetricValue(row[j]);
  return typeof v === "number" && Number.isFinite(v) ? v : Number.NaN;
}

/** Reads one data row into the builder; false for rows that are not data (a repeated header, a blank key). */
type RowReader = (row: string[]) => boolean;

function longRowReader(header: string[], out: SeriesBuilder): RowReader {
  const lower = header.map((h) => h.toLowerCase());
  const keyCol = lower.findIndex((h) => h === "key" || h === "metric" || h === "tag");
  const valueCol = lower.indexOf("value");
  const stepCol = lower.indexOf("step");
  const epochCol = lower.indexOf("epoch");
  const stampCol = lower.indexOf("timestamp");
  let index = 0;
  return (row) => {
    const i = index++;
    const value = readMetricValue(row[valueCol]);
    const key = row[keyCol]?.trim();
    if (!key || typeof value !== "number") return false;
    const step = axisCell(row, stepCol);
    out.add(key, Number.isNaN(step) ? i : step, value, axisCell(row, epochCol), axisCell(row, stampCol));
    return true;
  };
}

function wideRowReader(header: string[], out: SeriesBuilder): RowReader {
  const lower = header.map((h) => h.toLowerCase());
  const stepCol = STEP_NAMES.map((n) => lower.indexOf(n)).find((j) => j >= 0) ?? -1;
  const epochCol = lower.indexOf("epoch");
  const stampCol = lower.findIndex((h) => h === "timestamp" || h === "wall_time");
  const names = metricColumnNames(header);
  const columns = header.flatMap((h, j) => (isAxisName(h) || h === "" ? [] : [{ j, cols: out.columns(names[j]!) }]));
  let index = 0;
  return (row) => {
    const i = index++;
    const epoch = axisCell(row, epochCol);
    const stepCell = axisCell(row, stepCol);
    const step = Number.isNaN(stepCell) ? (Number.isNaN(epoch) ? i : epoch) : stepCell;
    const stamp = axisCell(row, stampCol);
    for (const { j, cols } of columns) {
      const value = readMetricValue(row[j]);
      if (typeof value === "number") cols.push(step, value, epoch, stamp);
    }
    return true;
  };
}

/**
 * Reads a metrics CSV: Lightning's CSVLogger (sparse rows, empty cells, repeated steps, `nan`), Keras' CSVLogger
 * (`NA`, sorted keys, a header repeated mid-file after `append=True`, "[a, b]" array cells), or any wide CSV with
 * `step`/`epoch` columns; a CSV with `key`/`value` columns is read as long rows (MLflow export). Returns the
 * number of data rows.
 */
export function readCsvMetrics(content: string, out: SeriesBuilder): number {
  let rows = 0;
  readCsv(content, (header) => {
    const lower = header.map((h) => h.toLowerCase());
    const long = lower.includes("value") && lower.some((h) => h === "key" || h === "metric" || h === "tag");
    const read = long ? longRowReader(header, out) : wideRowReader(header, out);
    const isHeader = (row: string[]) => row.length === header.length && row.every((c, j) => c.trim() === header[j]);
    return (row) => {
      if (!isHeader(row) && read(row)) rows++;
    };
  });
  return rows;
}

/**
 * A last row cut off mid-line: the text does not end with a line break (CSV loggers end every row with one, RFC
 * 4180 §2) and its last line has fewer cells than the header. Such a row's last cell may be a number cut short,
 * so the text is read without it (`kept`). A last line without its line break but with every cell is whole: some
 * writers omit the final one. Null when nothing was cut.
 */
export function csvCutTail(content: string): { kept: string; bytesLeft: number } | null {
  const lastBreak = content.lastIndexOf("\n");
  if (lastBreak < 0 || lastBreak === content.length - 1) return null;
  const headerLine = content.slice(0, content.search(/\r?\n/));
  const delimiter = detectDelimiter(headerLine);
  const last = content.slice(lastBreak + 1);
  if (last.split(delimiter).length >= headerLine.split(delimiter).length) return null;
  return { kept: content.slice(0, lastBreak + 1), bytesLeft: Buffer.byteLength(last) };
}
