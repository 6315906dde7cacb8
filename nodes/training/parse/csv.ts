import { isAxisName } from "../names.js";
import { parseCsv } from "./csv-table.js";
import { readMetricValue } from "./number.js";
import type { SeriesBuilder } from "./series-builder.js";

/**
 * Reads a metrics CSV: Lightning's CSVLogger (sparse rows, empty cells, repeated steps, `nan`), Keras'
 * CSVLogger (`NA`, sorted keys, a header repeated mid-file after `append=True`, "[a, b]" array cells), or any
 * wide CSV with `step`/`epoch` columns; a CSV with `key`/`value` columns is read as long rows (MLflow export).
 * Returns the number of data rows.
 */
export function readCsvMetrics(content: string, out: SeriesBuilder): number {
  const { header, rows } = parseCsv(content);
  const lower = header.map((h) => h.toLowerCase());
  const col = (name: string) => lower.indexOf(name);
  const stepCol = col("step") >= 0 ? col("step") : col("global_step");
  const epochCol = col("epoch");
  const stampCol = lower.findIndex((h) => h === "timestamp" || h === "wall_time");
  const keyCol = lower.findIndex((h) => h === "key" || h === "metric" || h === "tag");
  const valueCol = col("value");
  const isHeader = (row: string[]) => row.length === header.length && row.every((c, j) => c.trim() === header[j]);
  const num = (row: string[], j: number) => (j >= 0 ? finiteOr(readMetricValue(row[j]), Number.NaN) : Number.NaN);

  let count = 0;
  if (keyCol >= 0 && valueCol >= 0) {
    for (const [i, row] of rows.entries()) {
      const value = readMetricValue(row[valueCol]);
      const key = row[keyCol]?.trim();
      if (!key || typeof value !== "number" || isHeader(row)) continue;
      const step = num(row, stepCol);
      out.add(key, Number.isNaN(step) ? i : step, value, num(row, epochCol), num(row, stampCol));
      count++;
    }
    return count;
  }
  const metricCols = header.map((h, j) => j).filter((j) => !isAxisName(header[j]!) && header[j] !== "");
  const columns = metricCols.map((j) => ({ j, cols: out.columns(header[j]!) }));
  for (const [i, row] of rows.entries()) {
    if (isHeader(row)) continue;
    const epoch = num(row, epochCol);
    const stepCell = num(row, stepCol);
    const step = Number.isNaN(stepCell) ? (Number.isNaN(epoch) ? i : epoch) : stepCell;
    const stamp = num(row, stampCol);
    for (const { j, cols } of columns) {
      const value = readMetricValue(row[j]);
      if (typeof value === "number") cols.push(step, value, epoch, stamp);
    }
    count++;
  }
  return count;
}

function finiteOr(v: number | null | undefined, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}
