import { seriesPrefix } from "./curves.js";
import type { MetricSeries } from "./model.js";

/** The cuts of each series taken so far, by length: most probes leave most series where the last probe cut them. */
const cuts = new WeakMap<MetricSeries, Map<number, MetricSeries>>();

/** The first n points of a series, one object per length (so are its curves), the series itself when whole. */
function cutOf(s: MetricSeries, n: number): MetricSeries {
  if (n === s.steps.length) return s;
  let byLength = cuts.get(s);
  if (!byLength) cuts.set(s, (byLength = new Map()));
  let cut = byLength.get(n);
  if (!cut) byLength.set(n, (cut = seriesPrefix(s, n)));
  return cut;
}

/**
 * The series of a run's prefix (detected-at.ts), each cut when first read: a detector probed on a prefix reads
 * two or three of a run's series by name, and cutting a series (an object, three typed-array views, the record of
 * its whole) is most of a probe's cost besides the detector's. Reads as the Map of the cut series would, in the
 * run's order; holds the whole series until a cut is read, so it is read only through these methods, and not
 * written.
 */
export class PrefixSeries extends Map<string, MetricSeries> {
  private readonly lengths: ReadonlyMap<string, number>;
  private readonly cut = new Set<string>();

  /** `kept`: the series of the run that keep at least one point, in the run's order, with how many they keep. */
  constructor(kept: ReadonlyArray<readonly [name: string, series: MetricSeries, length: number]>) {
    super(kept.map(([name, s]) => [name, s]));
    this.lengths = new Map(kept.map(([name, , n]) => [name, n]));
  }

  override get(name: string): MetricSeries | undefined {
    const s = super.get(name);
    if (s === undefined || this.cut.has(name)) return s;
    const prefix = cutOf(s, this.lengths.get(name)!);
    super.set(name, prefix);
    this.cut.add(name);
    return prefix;
  }

  override *entries(): MapIterator<[string, MetricSeries]> {
    for (const name of this.keys()) yield [name, this.get(name)!];
  }

  override *values(): MapIterator<MetricSeries> {
    for (const name of this.keys()) yield this.get(name)!;
  }

  override [Symbol.iterator](): MapIterator<[string, MetricSeries]> {
    return this.entries();
  }

  override forEach(callback: (value: MetricSeries, key: string, map: Map<string, MetricSeries>) => void, thisArg?: unknown): void {
    for (const [name, s] of this.entries()) callback.call(thisArg, s, name, this);
  }
}
