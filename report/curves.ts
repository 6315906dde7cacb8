import { z } from "zod";

/** Which chart panel a curve belongs on: quantities of one scale share a panel. */
export const PanelSchema = z.enum(["loss", "metric", "lr", "other"]);
export type Panel = z.infer<typeof PanelSchema>;

/** One training curve, downsampled for drawing; `values` is null where the run logged NaN or ±Infinity. */
export const CurveSchema = z.object({
  name: z.string(),
  panel: PanelSchema,
  /** "train", "val", "test" or "none" (optimizer quantities), as the training analyzer normalized the name. */
  split: z.string(),
  steps: z.array(z.number()),
  values: z.array(z.number().nullable()),
  /** Points the run logged before downsampling. */
  points: z.number().int(),
});
export type Curve = z.infer<typeof CurveSchema>;

/** additional_outputs.curves: a bounded summary of the training metrics, for charts. */
export const CurvesSchema = z.object({
  series: z.array(CurveSchema),
  /** Series the run logged that were left out to keep the summary bounded. */
  omitted: z.array(z.string()),
});
export type Curves = z.infer<typeof CurvesSchema>;

/** A parsed training series as the training analyzer holds it (only what a chart needs). */
export interface CurveSource {
  name: string;
  split?: string;
  quantity?: string;
  steps: ArrayLike<number>;
  values: ArrayLike<number>;
}

export const MAX_SERIES = 12;
export const MAX_POINTS_PER_SERIES = 240;

const PANEL_ORDER: Panel[] = ["loss", "metric", "lr", "other"];
const METRIC_QUANTITIES = /^(accuracy|acc|f1|auc|precision|recall|map|iou|dice|r2|top\d+|bleu|rouge\w*)$/;

/** The panel of a series from its normalized quantity, or its name when the analyzer gave none. */
export function panelOf(source: Pick<CurveSource, "name" | "quantity">): Panel {
  const quantity = (source.quantity ?? source.name.split(/[/_@-]/).at(-1) ?? "").toLowerCase();
  if (/loss/.test(quantity) || (!source.quantity && /loss/i.test(source.name))) return "loss";
  if (quantity === "lr" || /^(lr|learning[_ -]?rate)\b/i.test(source.name)) return "lr";
  if (METRIC_QUANTITIES.test(quantity)) return "metric";
  return "other";
}

function splitOf(source: CurveSource): string {
  if (source.split) return source.split;
  const prefix = source.name.toLowerCase().match(/^(train|val|valid|eval|test)/)?.[1];
  return prefix === "valid" || prefix === "eval" ? "val" : (prefix ?? "none");
}

/**
 * Indices kept by M4 decimation (Jugel et al., "M4: A Visualization-Oriented Time Series Data Aggregation",
 * PVLDB 7(10), 2014): per bucket the first, last, minimum and maximum point, so spikes and the curve's envelope
 * survive; we also keep each bucket's first non-finite point, so a NaN or Infinity is never dropped.
 */
export function m4Indices(values: ArrayLike<number>, maxPoints: number): number[] {
  const n = values.length;
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  // Up to five points per bucket (first, min, max, last, first non-finite) keeps the total within maxPoints.
  const buckets = Math.max(1, Math.floor(maxPoints / 5));
  const kept: number[] = [];
  for (let b = 0; b < buckets; b++) {
    const lo = Math.floor((b * n) / buckets);
    const hi = Math.floor(((b + 1) * n) / buckets);
    if (hi <= lo) continue;
    let min = lo;
    let max = lo;
    let odd = -1;
    for (let i = lo; i < hi; i++) {
      const v = values[i]!;
      if (!Number.isFinite(v)) {
        if (odd < 0) odd = i;
      } else {
        if (!Number.isFinite(values[min]!) || v < values[min]!) min = i;
        if (!Number.isFinite(values[max]!) || v > values[max]!) max = i;
      }
    }
    const picks = odd >= 0 ? [lo, min, max, hi - 1, odd] : [lo, min, max, hi - 1];
    kept.push(...new Set(picks.sort((a, c) => a - c)));
  }
  return kept;
}

/** Downsamples one series into a drawable curve. */
export function toCurve(source: CurveSource, maxPoints = MAX_POINTS_PER_SERIES): Curve {
  const idx = m4Indices(source.values, maxPoints);
  return {
    name: source.name,
    panel: panelOf(source),
    split: splitOf(source),
    steps: idx.map((i) => source.steps[i]!),
    values: idx.map((i) => (Number.isFinite(source.values[i]!) ? source.values[i]! : null)),
    points: source.values.length,
  };
}

/**
 * The bounded curves summary of a run: at most MAX_SERIES series (losses first, then metrics, learning rate,
 * the rest; validation before train within a panel), each at most about MAX_POINTS_PER_SERIES points.
 */
export function summarizeCurves(series: Iterable<CurveSource>): Curves {
  const splitRank = (s: string) => {
    const rank = ["val", "train", "test"].indexOf(s);
    return rank < 0 ? 3 : rank;
  };
  const ranked = [...series]
    .filter((s) => s.values.length > 0)
    .map((s) => ({ s, panel: panelOf(s), split: splitOf(s) }))
    .sort(
      (a, b) =>
        PANEL_ORDER.indexOf(a.panel) - PANEL_ORDER.indexOf(b.panel) ||
        splitRank(a.split) - splitRank(b.split) ||
        a.s.name.localeCompare(b.s.name),
    );
  return {
    series: ranked.slice(0, MAX_SERIES).map(({ s }) => toCurve(s)),
    omitted: ranked.slice(MAX_SERIES).map(({ s }) => s.name),
  };
}
