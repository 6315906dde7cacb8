/** A map from data values to pixels, with the tick values worth labelling. */
export interface Scale {
  (value: number): number;
  ticks: number[];
  log: boolean;
}

/** Tick step of about `count` ticks over a span: 1, 2 or 5 times a power of ten. */
function tickStep(span: number, count: number): number {
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const r = raw / magnitude;
  return magnitude * (r < 1.5 ? 1 : r < 3 ? 2 : r < 7 ? 5 : 10);
}

/** The domain of some values, padded so a flat line sits mid-panel and extremes do not touch the frame. */
export function paddedDomain(values: readonly number[]): [number, number] {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0, 1];
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (lo === hi) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    return [lo - pad, hi + pad];
  }
  const pad = (hi - lo) * 0.05;
  lo -= pad;
  hi += pad;
  return [lo, hi];
}

/** A linear scale from [d0, d1] to [r0, r1] with "nice" ticks. */
export function linearScale([d0, d1]: [number, number], [r0, r1]: [number, number], tickCount = 5): Scale {
  const span = d1 - d0 || 1;
  const scale = ((v: number) => r0 + ((v - d0) / span) * (r1 - r0)) as Scale;
  const step = tickStep(span, tickCount);
  const ticks: number[] = [];
  for (let t = Math.ceil(d0 / step) * step; t <= d1 + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
  scale.ticks = ticks;
  scale.log = false;
  return scale;
}

/** A log10 scale (values must be > 0) with ticks at powers of ten. */
export function logScale([d0, d1]: [number, number], [r0, r1]: [number, number]): Scale {
  const l0 = Math.log10(d0);
  const l1 = Math.log10(d1);
  const scale = ((v: number) => r0 + ((Math.log10(v) - l0) / (l1 - l0 || 1)) * (r1 - r0)) as Scale;
  const ticks: number[] = [];
  for (let e = Math.ceil(l0); e <= Math.floor(l1); e++) ticks.push(10 ** e);
  scale.ticks = ticks;
  scale.log = true;
  return scale;
}

/**
 * The value scale of a panel: log when every value is positive and they span more than two decades (a
 * diverging or fast-falling loss), linear otherwise.
 */
export function valueScale(values: readonly number[], range: [number, number]): Scale {
  const finite = values.filter(Number.isFinite);
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  if (finite.length > 1 && lo > 0 && hi / lo > 100) return logScale([lo / 1.2, hi * 1.2], range);
  return linearScale(paddedDomain(finite), range);
}

/** Labels for one axis: all in exponent form when any tick is below 1e-3 (a learning rate), so they read alike. */
export function tickFormatter(ticks: readonly number[]): (value: number) => string {
  const tiny = ticks.some((t) => t !== 0 && Math.abs(t) < 1e-3);
  return tiny ? (t) => (t === 0 ? "0" : t.toExponential(1).replace(".0e", "e")) : formatTick;
}

/** A short label for an axis value: 1.2k, 3e-4, 0.25. */
export function formatTick(value: number): string {
  const abs = Math.abs(value);
  if (value === 0) return "0";
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (abs >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`;
  if (abs < 1e-3) return value.toExponential(0);
  return String(Number(value.toPrecision(3)));
}
