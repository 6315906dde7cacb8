/**
 * A numeric column's distinct values in ascending order with their running train and test counts, built from a
 * stream of (value, train count, test count) rows sorted by value. Everything order-based is read from it in
 * memory: distinct count, top value, order statistics, the two-sample Kolmogorov–Smirnov statistic and the counts
 * at PSI bin edges. Rows of equal value may arrive one by one (a sort of raw values) or already grouped.
 */
export class OrderedValues {
  private xs: Float64Array;
  /** Running train (a) and test (b) counts up to and including each distinct value. */
  private ca: Float64Array;
  private cb: Float64Array;
  private size = 0;
  private trainSeen = 0;
  private testSeen = 0;
  /** Distinct values with at least one train row. */
  unique = 0;
  /** Most frequent train value (the smallest of equals, as values come in order) and its count. */
  top: number | null = null;
  topFrequency = 0;

  /**
   * `capacity`: the distinct values to make room for at once, when a bound is known (the rows of a sort of raw
   * values). Growing by doubling to 10 M values cost about as much as adding them (0.5 s), copying and zeroing.
   */
  constructor(capacity = 1024) {
    this.xs = new Float64Array(capacity);
    this.ca = new Float64Array(capacity);
    this.cb = new Float64Array(capacity);
  }

  /** Adds `a` train and `b` test rows of value `x`; values must not decrease. */
  add(x: number, a: number, b: number): void {
    const last = this.size - 1;
    if (last >= 0 && this.xs[last] === x) {
      this.ca[last]! += a;
      this.cb[last]! += b;
    } else {
      if (last >= 0) this.close(last);
      if (this.size === this.xs.length) this.grow();
      this.xs[this.size] = x;
      this.ca[this.size] = this.trainSeen + a;
      this.cb[this.size] = this.testSeen + b;
      this.size++;
    }
    this.trainSeen += a;
    this.testSeen += b;
  }

  /** Ends the stream; call once before reading. */
  finish(): this {
    if (this.size > 0) this.close(this.size - 1);
    return this;
  }

  /** Train rows counted. */
  get trainCount(): number {
    return this.trainSeen;
  }

  /** Test rows counted. */
  get testCount(): number {
    return this.testSeen;
  }

  /** The k-th smallest train value (0-based): the first value whose running train count exceeds k. */
  orderStatistic(k: number): number {
    let lo = 0;
    let hi = this.size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.ca[mid]! > k) hi = mid;
      else lo = mid + 1;
    }
    return this.xs[lo]!;
  }

  /** Train and test rows with a value at most `e`. */
  countsUpTo(e: number): { a: number; b: number } {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.xs[mid]! <= e) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? { a: 0, b: 0 } : { a: this.ca[lo - 1]!, b: this.cb[lo - 1]! };
  }

  /**
   * Largest gap between the two empirical distribution functions, read where each value ends (inside a run of
   * equal values the running shares are not yet a distribution function's), as scipy's ks_2samp computes it.
   */
  ks(trainTotal: number, testTotal: number): number {
    let d = 0;
    for (let i = 0; i < this.size; i++) d = Math.max(d, Math.abs(this.ca[i]! / trainTotal - this.cb[i]! / testTotal));
    return d;
  }

  /**
   * Mean, sample standard deviation (ddof 1, as pandas), extremes and infinite values of the train rows: two passes
   * over the distinct values (mean first, then squared deviations from it, as numpy computes a variance), each
   * sum compensated (Neumaier) so that ten million terms lose no more than a few units in the last place.
   */
  moments(): { mean: number | null; std: number | null; min: number | null; max: number | null; inf: number } {
    const n = this.trainSeen;
    if (n === 0) return { mean: null, std: null, min: null, max: null, inf: 0 };
    let min: number | null = null;
    let max: number | null = null;
    let inf = 0;
    const sum = new CompensatedSum();
    for (let i = 0; i < this.size; i++) {
      const own = this.own(i);
      if (own === 0) continue;
      const x = this.xs[i]!;
      min ??= x;
      max = x;
      if (!Number.isFinite(x)) inf += own;
      sum.add(own * x);
    }
    // Infinite values make the mean infinite (undefined if both signs occur) and the deviation undefined.
    if (inf > 0) return { mean: min === -Infinity && max === Infinity ? null : min === -Infinity ? -Infinity : Infinity, std: null, min, max, inf };
    const mean = sum.value / n;
    if (n < 2) return { mean, std: null, min, max, inf };
    const squares = new CompensatedSum();
    for (let i = 0; i < this.size; i++) {
      const d = this.xs[i]! - mean;
      squares.add(this.own(i) * d * d);
    }
    return { mean, std: Math.sqrt(squares.value / (n - 1)), min, max, inf };
  }

  /** Train rows of the value at `i`. */
  private own(i: number): number {
    return this.ca[i]! - (i === 0 ? 0 : this.ca[i - 1]!);
  }

  /** Counts the value at `i` towards the distinct count and top value once all its rows are in. */
  private close(i: number): void {
    const own = this.own(i);
    if (own === 0) return;
    this.unique++;
    if (own > this.topFrequency) {
      this.top = this.xs[i]!;
      this.topFrequency = own;
    }
  }

  private grow(): void {
    const bigger = (from: Float64Array) => {
      const to = new Float64Array(Math.max(1024, from.length * 2));
      to.set(from);
      return to;
    };
    this.xs = bigger(this.xs);
    this.ca = bigger(this.ca);
    this.cb = bigger(this.cb);
  }
}

/** Neumaier's compensated sum: the rounding error of each addition is carried and added back at the end. */
class CompensatedSum {
  private sum = 0;
  private carry = 0;

  add(x: number): void {
    const t = this.sum + x;
    this.carry += Math.abs(this.sum) >= Math.abs(x) ? this.sum - t + x : x - t + this.sum;
    this.sum = t;
  }

  get value(): number {
    return this.sum + this.carry;
  }
}
