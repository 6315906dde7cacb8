/**
 * Which NaN cells of one column of a wide table are gaps rather than logged NaNs. pandas turns every cell a logger
 * left empty into NaN (a sparse Lightning metrics.csv through `to_dict("records"/"list")`), so in wide rows and
 * column tables a NaN is read as a gap when the column has finite values after it (a real NaN loss does not
 * recover: once the weights are NaN every later value is), or when it trails the last finite value by no more
 * than the column's longest gap between finite values. A column with no finite value at all keeps its NaNs, and
 * so does a dense column (no inner gaps) whose values turn NaN. ±Infinity is never a gap: no tool writes it for
 * an empty cell.
 */
export function nanGaps(values: ArrayLike<number>): (i: number) => boolean {
  let first = -1;
  let last = -1;
  let longestInner = 0;
  let run = 0;
  for (let i = 0; i < values.length; i++) {
    if (Number.isFinite(values[i]!)) {
      if (first >= 0) longestInner = Math.max(longestInner, run);
      else first = i;
      last = i;
      run = 0;
    } else if (Number.isNaN(values[i]!)) run++;
  }
  if (first < 0) return () => false;
  const trailingIsGap = values.length - 1 - last <= longestInner;
  return (i) => Number.isNaN(values[i]!) && (i < last || trailingIsGap);
}
