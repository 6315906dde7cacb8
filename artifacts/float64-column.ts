/**
 * A long JSON array of numbers and nulls kept as the typed column it travelled as (workers/number-columns.ts),
 * for a reader that takes columns (the training parser's `{name: number[]}` metrics): rebuilding a 10^6-element
 * JS array only for the reader to copy it into a Float64Array again costs more than the reading itself. Not an
 * array on purpose: a reader that does not know columns never gets one (the worker gives it arrays).
 */
export class Float64Column {
  constructor(
    readonly values: Float64Array,
    /** 1 where the element was null; null when none was. */
    readonly nulls: Uint8Array | null,
  ) {}

  get length(): number {
    return this.values.length;
  }

  /** The array it stands for, so a request holding columns serializes as it arrived (a queued job's body). */
  toJSON(): Array<number | null> {
    const { values, nulls } = this;
    const array = new Array<number | null>(values.length);
    for (let i = 0; i < values.length; i++) array[i] = nulls?.[i] ? null : values[i]!;
    return array;
  }
}
