import { type Finding, type Severity, severityRank } from "../domain/result.js";
import { html, type SafeHtml } from "./html.js";
import { formatTick, type Scale } from "./scale.js";

/** A place on the curves where a detector fired: a finding's evidence window, in steps. */
export interface ChartMarker {
  label: number;
  findingId: string;
  title: string;
  severity: Severity;
  from: number;
  to: number;
}

/** Markers that share one window: one band, their labels side by side. */
interface MarkerGroup {
  from: number;
  to: number;
  severity: Severity;
  markers: ChartMarker[];
  /** x of the first label's centre, after making room for the groups to its left. */
  labelX: number;
}

export const SEVERITY_COLOR: Record<Severity, string> = {
  critical: "#b3261e",
  high: "#d9480f",
  medium: "#b8860b",
  low: "#2f6f9f",
  info: "#5f6b7a",
};

const LABEL_RADIUS = 9;
const LABEL_STEP = 2 * LABEL_RADIUS + 3;

/** Markers for the findings whose evidence names a window of a training curve, numbered in order. */
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

/**
 * Groups markers by window and places each group's labels from its band's left edge, moved right past the labels
 * of groups further left so no two overlap, and kept inside the plot.
 */
export function layoutMarkers(markers: readonly ChartMarker[], x: Scale, [left, right]: [number, number]): MarkerGroup[] {
  const byWindow = new Map<string, ChartMarker[]>();
  for (const m of markers) byWindow.set(`${m.from}:${m.to}`, [...(byWindow.get(`${m.from}:${m.to}`) ?? []), m]);
  const groups = [...byWindow.values()]
    .map((ms) => ({ from: ms[0]!.from, to: ms[0]!.to, markers: ms, labelX: 0, severity: ms.map((m) => m.severity).sort((a, b) => severityRank(a) - severityRank(b))[0]! }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  const width = (g: MarkerGroup) => (g.markers.length - 1) * LABEL_STEP;
  // Left to right: start at the band, after the previous group's labels; then right to left: back inside the plot.
  let free = left + LABEL_RADIUS;
  for (const g of groups) {
    g.labelX = Math.max(x(g.from) + LABEL_RADIUS + 2, free);
    free = g.labelX + width(g) + LABEL_STEP;
  }
  let limit = right - LABEL_RADIUS;
  for (const g of [...groups].reverse()) {
    g.labelX = Math.min(g.labelX, limit - width(g));
    limit = g.labelX - LABEL_STEP;
  }
  return groups;
}

/** The groups' bands (a line for a single step) over the plot, and their numbered labels in the top margin. */
export function renderMarkerBands(groups: readonly MarkerGroup[], x: Scale, top: number, bottom: number): SafeHtml[] {
  return groups.map((g) => {
    const color = SEVERITY_COLOR[g.severity];
    const x0 = x(g.from);
    const width = Math.max(1.5, x(g.to) - x0);
    const labels = g.markers.map((m, i) => {
      const cx = (g.labelX + i * LABEL_STEP).toFixed(1);
      return html`<circle cx="${cx}" cy="${top - 12}" r="${LABEL_RADIUS}" fill="${SEVERITY_COLOR[m.severity]}"/><text class="marker-label" x="${cx}" y="${top - 8}" text-anchor="middle">${m.label}</text>`;
    });
    const what = g.markers.map((m) => `${m.label}. ${m.title} (${m.severity})`).join("\n");
    return html`<g class="marker"><title>${what}\nsteps ${g.from}–${g.to}</title><rect x="${x0.toFixed(1)}" y="${top}" width="${width.toFixed(1)}" height="${bottom - top}" fill="${color}" fill-opacity="0.07" stroke="${color}" stroke-opacity="0.7" stroke-dasharray="4 3"/>${labels}</g>`;
  });
}

/** The numbered list under the chart: which finding each label stands for, and its window. */
export function renderMarkerList(markers: readonly ChartMarker[]): SafeHtml | "" {
  if (markers.length === 0) return "";
  const where = (m: ChartMarker) => (m.from === m.to ? `step ${formatTick(m.from)}` : `steps ${formatTick(m.from)}–${formatTick(m.to)}`);
  return html`<ol class="marker-list">${markers.map((m) => html`<li><span class="badge sev-${m.severity}">${m.label}</span> ${m.title} <code>${m.findingId}</code> <span class="muted">${where(m)}</span></li>`)}</ol>`;
}
