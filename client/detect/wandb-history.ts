import type { WandbHistoryRow } from "../../nodes/training/parse/wandb-records.js";

/** A metric point as the MLflow stores send them (long rows). */
export interface LongRow {
  key: string;
  value: number;
  step: number;
  timestamp: number;
}

/**
 * A W&B history kept by column: the steps once, and per key the rows it was logged in with its values, so a key
 * absent from a row (validation every N steps) stays absent and a logged NaN stays NaN. Sent as CSV text, a third
 * of the size of long rows: a 10⁶-row history is ~40 MB of CSV where its long rows' JSON would pass the service's
 * 64 MiB body limit.
 */
export class WandbHistory {
  readonly steps: number[] = [];
  readonly timestamps: number[] = [];
  private readonly columns = new Map<string, { rows: number[]; values: number[] }>();
  points = 0;

  add(row: WandbHistoryRow): void {
    const i = this.steps.length;
    this.steps.push(row.step);
    this.timestamps.push(row.timestamp === null ? Number.NaN : Math.round(row.timestamp * 1000));
    for (const [key, value] of row.values) {
      // W&B's _step is the axis; a key the user also called "step" would be a second step column.
      if (key.toLowerCase() === "step") continue;
      let col = this.columns.get(key);
      if (!col) this.columns.set(key, (col = { rows: [], values: [] }));
      col.rows.push(i);
      col.values.push(value);
      this.points++;
    }
  }

  get rows(): number {
    return this.steps.length;
  }

  get keys(): string[] {
    return [...this.columns.keys()];
  }

  /** Every point as a long row (what the tests and the bench compare). */
  longRows(): LongRow[] {
    const out: LongRow[] = [];
    for (const [key, col] of this.columns) col.rows.forEach((r, j) => out.push({ key, value: col.values[j]!, step: this.steps[r]!, timestamp: this.timestamps[r]! }));
    return out;
  }

  /** `training_artifacts.metrics` as CSV text: a `step` column, one column per key, empty where a row lacks it. */
  csv(): { format: "csv"; content: string } | null {
    if (this.points === 0) return null;
    const keys = [...this.columns.entries()];
    const cells: string[][] = this.steps.map((s) => [String(s), ...keys.map(() => "")]);
    keys.forEach(([, col], k) => col.rows.forEach((r, j) => (cells[r]![k + 1] = String(col.values[j]))));
    const lines = [["step", ...keys.map(([key]) => csvCell(key))].join(",")];
    for (const row of cells) lines.push(row.join(","));
    return { format: "csv", content: `${lines.join("\n")}\n` };
  }
}

/** A header cell, quoted when the key holds a comma, a quote or a line break. */
function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
