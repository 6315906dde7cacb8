import type { Float64Column } from "../../../artifacts/float64-column.js";
import { normalizeMetricName } from "../names.js";
import type { MetricName, MetricSeries } from "../model.js";

/** Upper bound on the points one artifact may hold (10^6 steps × 6 metrics fit many times over). */
export const MAX_POINTS = 50_000_000;

const tooManyPoints = () => new Error(`more than ${MAX_POINTS.toLocaleString("en")} metric points; downsample the history before sending it`);

/** Growable columns of one series, in arrival order. */
class PointColumns {
  /**
   * Null while every point's step is its position (`{name: number[]}`, index = step): the series then shares
   * one 0…n−1 array with the others of its length instead of writing its own.
   */
  private steps: Float64Array | null = null;
  private values: Float64Array<ArrayBufferLike> = new Float64Array(16);
  private epochs: Float64Array | null = null;
  private stamps: Float64Array | null = null;
  length = 0;
  /** False while the steps are known to ascend (positions, or `pushIndexed` runs in order): no ordering pass. */
  private mayBeUnordered = false;
  readonly sources = new Set<string>();

  constructor(
    readonly name: MetricName,
    private readonly budget: { left: number },
  ) {}

  push(step: number, value: number, epoch: number, stamp: number): void {
    if (this.budget.left-- <= 0) throw tooManyPoints();
    if (this.length === this.values.length) this.grow();
    const i = this.length++;
    if (this.steps || step !== i) {
      this.explicitSteps()[i] = step;
      this.mayBeUnordered = true;
    }
    this.values[i] = value;
    if (!Number.isNaN(epoch)) (this.epochs ??= new Float64Array(this.values.length).fill(Number.NaN))[i] = epoch;
    if (!Number.isNaN(stamp)) (this.stamps ??= new Float64Array(this.values.length).fill(Number.NaN))[i] = stamp;
  }

  /**
   * Appends raw[from…] while the elements are plain numbers, with the index as step (`{name: number[]}`): one
   * tight loop instead of a `push` per point. Returns the index of the first element not taken.
   */
  pushIndexed(raw: readonly unknown[], from: number): number {
    this.reserve(raw.length - from);
    const steps = this.steps || from !== this.length ? this.explicitSteps() : null;
    if (steps && this.length > 0 && steps[this.length - 1]! >= from) this.mayBeUnordered = true;
    const { values } = this;
    let i = from;
    let j = this.length;
    for (; i < raw.length; i++, j++) {
      const v = raw[i];
      if (typeof v !== "number") break;
      if (steps) steps[j] = i;
      values[j] = v;
    }
    this.budget.left -= i - from;
    if (this.budget.left < 0) throw tooManyPoints();
    // Epochs and timestamps, when a column has them, are NaN (unknown) beyond its length already.
    this.length = j;
    return i;
  }

  /**
   * Appends a `{name: number[]}` array that arrived as a column, index = step, nulls as gaps: what `pushIndexed`
   * reads from the array. A first column with no nulls becomes the series' values as it is, not copied (48 MB
   * fewer at 10^6 points × 6 metrics, and in shared memory the body's decode already wrote them): it is only
   * read, since it fills its values to capacity and any later point grows them into a new array first.
   */
  pushColumn(column: Float64Column): void {
    const { values, nulls } = column;
    if (!nulls && !this.steps && this.length === 0) {
      if ((this.budget.left -= values.length) < 0) throw tooManyPoints();
      this.values = values;
      this.length = values.length;
      return;
    }
    this.reserve(values.length);
    for (let i = 0; i < values.length; i++) if (!nulls?.[i]) this.push(i, values[i]!, Number.NaN, Number.NaN);
  }

  /** The steps written out (positions so far), once a point's step is not its position. */
  private explicitSteps(): Float64Array {
    if (!this.steps) {
      this.steps = new Float64Array(this.values.length);
      for (let i = 0; i < this.length; i++) this.steps[i] = i;
    }
    return this.steps;
  }

  /** Makes room for `extra` more points at once (known array lengths), avoiding repeated doubling. */
  reserve(extra: number): void {
    if (this.length + extra > this.values.length) this.grow(this.length + extra);
  }

  private grow(min = 0): void {
    const size = Math.max(this.values.length * 2, min);
    const widen = (a: Float64Array, fill: number) => {
      const b = new Float64Array(size);
      // A new Float64Array is zeros already: filling a 10^6-point column with 0 again is a wasted pass.
      if (fill !== 0) b.fill(fill, a.length);
      b.set(a);
      return b;
    };
    if (this.steps) this.steps = widen(this.steps, 0);
    this.values = widen(this.values, 0);
    if (this.epochs) this.epochs = widen(this.epochs, Number.NaN);
    if (this.stamps) this.stamps = widen(this.stamps, Number.NaN);
  }

  /**
   * The series ordered by (step, timestamp, arrival); already-ordered input is not copied twice, and a column
   * filled to its reserved size (known array lengths) is handed over as it is. `positions(n)` is the shared
   * 0…n−1 steps array.
   */
  finish(positions: (n: number) => Float64Array): MetricSeries {
    const n = this.length;
    const steps = this.steps?.subarray(0, n) ?? positions(n);
    const stamps = this.stamps?.subarray(0, n) ?? null;
    const order = !this.mayBeUnordered || isOrdered(steps, stamps) ? null : sortOrder(steps, stamps);
    const take = (a: Float64Array) => (order ? Float64Array.from(order, (i) => a[i]!) : a.length === n ? a : a.slice(0, n));
    return {
      ...this.name,
      sources: [...this.sources].sort(),
      steps: this.steps ? take(this.steps) : steps,
      values: take(this.values),
      epochs: this.epochs ? take(this.epochs) : null,
    };
  }
}

function isOrdered(steps: Float64Array, stamps: Float64Array | null): boolean {
  for (let i = 1; i < steps.length; i++) {
    const d = steps[i]! - steps[i - 1]!;
    if (d < 0 || (d === 0 && stamps && stamps[i]! < stamps[i - 1]!)) return false;
  }
  return true;
}

function sortOrder(steps: Float64Array, stamps: Float64Array | null): Uint32Array {
  const order = new Uint32Array(steps.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => steps[a]! - steps[b]! || (stamps ? (stamps[a]! || 0) - (stamps[b]! || 0) : 0) || a - b);
}

/**
 * Collects points from any format into series keyed by normalized metric name; raw names that normalize to
 * the same metric (val_loss, eval_loss) share one series.
 */
export class SeriesBuilder {
  private readonly byName = new Map<string, PointColumns>();
  private readonly byRaw = new Map<string, PointColumns>();
  private readonly budget = { left: MAX_POINTS };

  /** Adds one point; NaN epoch/timestamp mean unknown. */
  add(raw: string, step: number, value: number, epoch = Number.NaN, stamp = Number.NaN): void {
    this.columns(raw).push(step, value, epoch, stamp);
  }

  /**
   * The columns for a raw name, so hot loops resolve the name once; `expected` points reserves room for them.
   * `readAs` is the name to normalize instead of `raw` when the file's context says more than the name (a
   * boosting run's eval-set order); the raw name stays the series' source.
   */
  columns(raw: string, expected = 0, readAs = raw): Pick<PointColumns, "push" | "pushIndexed" | "pushColumn"> {
    let cols = this.byRaw.get(raw);
    if (!cols) {
      const name = normalizeMetricName(readAs);
      cols = this.byName.get(name.name);
      if (!cols) this.byName.set(name.name, (cols = new PointColumns(name, this.budget)));
      cols.sources.add(raw);
      this.byRaw.set(raw, cols);
    }
    cols.reserve(expected);
    return cols;
  }

  /** Points added so far. */
  get points(): number {
    return MAX_POINTS - this.budget.left;
  }

  finish(): Map<string, MetricSeries> {
    const out = new Map<string, MetricSeries>();
    const shared = new Map<number, Float64Array>();
    const positions = (n: number) => {
      let steps = shared.get(n);
      if (!steps) {
        steps = new Float64Array(n);
        for (let i = 0; i < n; i++) steps[i] = i;
        shared.set(n, steps);
      }
      return steps;
    };
    for (const [name, cols] of [...this.byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (cols.length > 0) out.set(name, cols.finish(positions));
    }
    return out;
  }
}
