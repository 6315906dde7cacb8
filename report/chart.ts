import type { Curve, Curves, Panel } from "./curves.js";
import { html, type SafeHtml } from "./html.js";
import { type ChartMarker, layoutMarkers, renderMarkerBands, renderMarkerList } from "./markers.js";
import { formatTick, linearScale, type Scale, tickFormatter, valueScale } from "./scale.js";

const PANEL_TITLE: Record<Panel, string> = { loss: "Loss", metric: "Metrics", lr: "Learning rate", other: "Other quantities" };
const PANELS: Panel[] = ["loss", "metric", "lr", "other"];
/** Colour-blind-safe categorical palette (Okabe & Ito, "Color Universal Design", 2008). */
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
const WIDTH = 960;
/** The top margin holds the numbered marker labels, so they never cover a curve. */
const MARGIN = { left: 60, right: 16, top: 26, bottom: 26 };

/** An SVG path through a curve's points, broken where the value is not finite. */
function linePath(curve: Curve, x: Scale, y: Scale): string {
  let d = "";
  let pen = false;
  curve.values.forEach((v, i) => {
    if (v === null || (y.log && v <= 0)) {
      pen = false;
      return;
    }
    d += `${pen ? "L" : "M"}${x(curve.steps[i]!).toFixed(1)},${y(v).toFixed(1)}`;
    pen = true;
  });
  return d;
}

function renderPanel(panel: Panel, curves: Curve[], colors: Map<string, string>, x: Scale, markers: readonly ChartMarker[]): SafeHtml {
  const height = panel === "lr" ? 150 : 210;
  const bottom = height - MARGIN.bottom;
  const y = valueScale(curves.flatMap((c) => c.values.filter((v): v is number => v !== null)), [bottom, MARGIN.top]);
  const [left, right] = [MARGIN.left, WIDTH - MARGIN.right];
  const yLabel = tickFormatter(y.ticks);
  const grid = y.ticks.map(
    (t) => html`<line class="grid" x1="${left}" x2="${right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/><text class="tick" x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${yLabel(t)}</text>`,
  );
  const xTicks = x.ticks.map(
    (t) => html`<text class="tick" x="${x(t).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${formatTick(t)}</text>`,
  );
  const bands = renderMarkerBands(layoutMarkers(markers, x, [left, right]), x, MARGIN.top, bottom);
  const lines = curves.map((c) => {
    const color = colors.get(c.name)!;
    const dots = c.values.length <= 40 ? c.values.map((v, i) => (v === null ? "" : html`<circle cx="${x(c.steps[i]!).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.2" fill="${color}"/>`)) : [];
    const nonFinite = c.values.flatMap((v, i) =>
      v === null ? [html`<text class="nonfinite" x="${x(c.steps[i]!).toFixed(1)}" y="${MARGIN.top + 10}" text-anchor="middle" fill="#b3261e"><title>${c.name} not finite at step ${c.steps[i]!}</title>✕</text>`] : [],
    );
    return html`<g class="series" data-series="${c.name}"><title>${c.name} (${c.points} points logged)</title><path d="${linePath(c, x, y)}" fill="none" stroke="${color}" stroke-width="${c.split === "val" ? 2.2 : 1.5}"/>${dots}${nonFinite}</g>`;
  });
  return html`<figure class="chart-panel" data-panel="${panel}">
<figcaption>${PANEL_TITLE[panel]}${y.log ? " (log scale)" : ""}</figcaption>
<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${PANEL_TITLE[panel]} by step" xmlns="http://www.w3.org/2000/svg">
${grid}<line class="axis" x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>${xTicks}${bands}${lines}
</svg>
<ul class="legend">${curves.map((c) => html`<li><span class="swatch" style="background:${colors.get(c.name)!}"></span>${c.name}</li>`)}</ul>
</figure>`;
}

/** The training curves as inline SVG panels (loss, metrics, learning rate, the rest) on a shared step axis. */
export function renderChart(curves: Curves, markers: readonly ChartMarker[]): SafeHtml {
  const steps = curves.series.flatMap((c) => c.steps);
  const x = linearScale([Math.min(...steps, ...markers.map((m) => m.from)), Math.max(...steps, ...markers.map((m) => m.to))], [MARGIN.left, WIDTH - MARGIN.right], 8);
  const panels = PANELS.map((p) => [p, curves.series.filter((c) => c.panel === p)] as const).filter(([, cs]) => cs.length > 0);
  const colors = new Map<string, string>();
  for (const [, cs] of panels) cs.forEach((c, i) => colors.set(c.name, PALETTE[i % PALETTE.length]!));
  const omitted = curves.omitted.length ? html`<p class="muted">Not drawn (limit reached): ${curves.omitted.join(", ")}</p>` : "";
  return html`<div class="chart">${panels.map(([p, cs]) => renderPanel(p, cs, colors, x, markers))}<p class="axis-note">x axis: training step</p>${renderMarkerList(markers)}${omitted}</div>`;
}
