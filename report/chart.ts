import type { Finding, Severity } from "../graph/result.js";
import type { Curve, Curves, Panel } from "./curves.js";
import { html, type SafeHtml } from "./html.js";
import { formatTick, linearScale, type Scale, tickFormatter, valueScale } from "./scale.js";

/** A place on the curves where a detector fired: a finding's evidence window, in steps. */
export interface ChartMarker {
  label: number;
  findingId: string;
  title: string;
  severity: Severity;
  from: number;
  to: number;
}

const PANEL_TITLE: Record<Panel, string> = { loss: "Loss", metric: "Metrics", lr: "Learning rate", other: "Other quantities" };
const PANELS: Panel[] = ["loss", "metric", "lr", "other"];
/** Colour-blind-safe categorical palette (Okabe & Ito, "Color Universal Design", 2008). */
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
export const SEVERITY_COLOR: Record<Severity, string> = {
  critical: "#b3261e",
  high: "#d9480f",
  medium: "#b8860b",
  low: "#2f6f9f",
  info: "#5f6b7a",
};

const WIDTH = 960;
/** The top margin holds the numbered marker labels, so they never cover a curve. */
const MARGIN = { left: 60, right: 16, top: 26, bottom: 26 };

/** Markers for the findings whose evidence names a window of a training curve. */
export function chartMarkers(findings: readonly Finding[]): ChartMarker[] {
  const markers: ChartMarker[] = [];
  for (const f of findings) {
    const evidence = f.evidence.find((e) => e.window && e.artifact.startsWith("training_artifacts"));
    if (!evidence?.window) continue;
    const [a, b] = evidence.window;
    markers.push({ label: markers.length + 1, findingId: f.id, title: f.title, severity: f.severity, from: Math.min(a, b), to: Math.max(a, b) });
  }
  return markers;
}

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
  const bands = markers.map((m) => {
    const x0 = x(m.from);
    const w = Math.max(2, x(m.to) - x0);
    return html`<g class="marker"><title>${m.label}. ${m.title} (${m.severity}), steps ${m.from}–${m.to}</title><rect x="${x0.toFixed(1)}" y="${MARGIN.top}" width="${w.toFixed(1)}" height="${bottom - MARGIN.top}" fill="${SEVERITY_COLOR[m.severity]}" fill-opacity="0.12" stroke="${SEVERITY_COLOR[m.severity]}" stroke-opacity="0.6" stroke-dasharray="3 3"/><circle cx="${(x0 + w / 2).toFixed(1)}" cy="${MARGIN.top - 12}" r="9" fill="${SEVERITY_COLOR[m.severity]}"/><text class="marker-label" x="${(x0 + w / 2).toFixed(1)}" y="${MARGIN.top - 8}" text-anchor="middle">${m.label}</text></g>`;
  });
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
  const markerList = markers.length
    ? html`<ol class="marker-list">${markers.map((m) => html`<li><span class="badge sev-${m.severity}">${m.label}</span> ${m.title} <code>${m.findingId}</code> <span class="muted">steps ${formatTick(m.from)}–${formatTick(m.to)}</span></li>`)}</ol>`
    : "";
  const omitted = curves.omitted.length ? html`<p class="muted">Not drawn (limit reached): ${curves.omitted.join(", ")}</p>` : "";
  return html`<div class="chart">${panels.map(([p, cs]) => renderPanel(p, cs, colors, x, markers))}<p class="axis-note">x axis: training step</p>${markerList}${omitted}</div>`;
}
