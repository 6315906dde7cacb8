import type { CompareResponse } from "../graph/compare-response.js";
import { isSeedParam } from "../nodes/experiment/model.js";
import { EXPERIMENT_AGENT } from "../nodes/experiment/names.js";
import { html, SafeHtml } from "./html.js";
import { REPORT_CSS } from "./render.js";
import { formatTick, linearScale, logScale, paddedDomain, type Scale, tickFormatter } from "./scale.js";
import { type CitationNumbers, renderFindings, renderRecommendations, renderReferences } from "./sections.js";

const WIDTH = 460;
const HEIGHT = 260;
const MARGIN = { left: 60, right: 16, top: 20, bottom: 34 };
/** Okabe & Ito colours, as the training chart uses them: finished runs, the baseline's configuration. */
const OK = "#0072B2";
const BASELINE = "#D55E00";

type Run = CompareResponse["runs"][number];

/** Numeric parameters with two or more values across the runs, seeds left out: the axes worth plotting. */
export function sweptNumericParams(runs: readonly Run[]): string[] {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.params)))].filter((p) => !isSeedParam(p)).sort();
  return names.filter((p) => {
    const values = runs.map((r) => Number(r.params[p]));
    return values.every(Number.isFinite) && new Set(values).size > 1;
  });
}

/** One scatter panel: the objective at its best against one parameter, failed runs marked along the top. */
function scatter(param: string, runs: readonly Run[], metric: string, baselineRuns: ReadonlySet<string>): SafeHtml {
  const xs = runs.map((r) => Number(r.params[param]));
  const [left, right, top, bottom] = [MARGIN.left, WIDTH - MARGIN.right, MARGIN.top, HEIGHT - MARGIN.bottom];
  const positive = xs.every((x) => x > 0);
  const x: Scale = positive && Math.max(...xs) / Math.min(...xs) >= 10 ? logScale([Math.min(...xs) / 1.5, Math.max(...xs) * 1.5], [left, right]) : linearScale(paddedDomain(xs), [left, right]);
  const scored = runs.filter((r) => r.status === "ok" && r.objective?.best != null);
  const y = linearScale(paddedDomain(scored.map((r) => r.objective!.best!)), [bottom, top]);
  const xLabel = tickFormatter(x.ticks);
  const yLabel = tickFormatter(y.ticks);
  const points = runs.map((r) => {
    const cx = x(Number(r.params[param])).toFixed(1);
    if (r.status !== "ok" || r.objective?.best == null) {
      return html`<text class="nonfinite" x="${cx}" y="${top + 8}" text-anchor="middle" fill="#b3261e"><title>${r.name} failed: ${r.failure ?? "no objective"}</title>✕</text>`;
    }
    const color = baselineRuns.has(r.name) ? BASELINE : OK;
    return html`<circle cx="${cx}" cy="${y(r.objective.best).toFixed(1)}" r="3.5" fill="${color}" fill-opacity="0.75"><title>${r.name}: ${param} = ${r.params[param]!}, best ${metric} ${formatTick(r.objective.best)}</title></circle>`;
  });
  return html`<figure class="chart-panel" data-param="${param}"><figcaption>${metric} (best per run) against ${param}${x.log ? " (log scale)" : ""}</figcaption>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${metric} against ${param}" xmlns="http://www.w3.org/2000/svg">
${y.ticks.map((t) => html`<line class="grid" x1="${left}" x2="${right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}"/><text class="tick" x="${left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end">${yLabel(t)}</text>`)}
<line class="axis" x1="${left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>
${x.ticks.map((t) => html`<text class="tick" x="${x(t).toFixed(1)}" y="${bottom + 16}" text-anchor="middle">${xLabel(t)}</text>`)}
<text class="tick" x="${(left + right) / 2}" y="${HEIGHT - 4}" text-anchor="middle">${param}</text>
${points}
</svg></figure>`;
}

function renderRuns(runs: readonly Run[]): SafeHtml {
  const rows = runs.map(
    (r) => html`<tr><td>${r.name}</td><td class="${r.status === "failed" ? "outcome-error" : ""}">${r.status === "failed" ? `failed: ${r.failure ?? ""}` : "ok"}</td><td>${r.objective?.best == null ? "–" : formatTick(r.objective.best)}</td><td>${r.objective?.final == null ? "–" : formatTick(r.objective.final)}</td><td>${r.top_findings.map((f) => html`<span class="badge sev-${f.severity}">${f.severity}</span> ${f.title}<br>`)}</td></tr>`,
  );
  return html`<section class="agents"><h2>Runs</h2><table><thead><tr><th>Run</th><th>Status</th><th>Best</th><th>Final</th><th>Top per-run findings</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** The comparison as a self-contained page (inline styles and SVG, no script): verdict, scatter of the objective against each swept parameter, findings, runs. */
export function renderComparePage(response: CompareResponse, generatedAt: Date = new Date()): string {
  const numbers: CitationNumbers = new Map(response.citations.map((c, i) => [c.id, { n: i + 1, title: c.title }]));
  const b = response.baseline_comparison;
  const baselineRuns = new Set(b?.baseline_runs ?? []);
  const params = response.objective ? sweptNumericParams(response.runs) : [];
  const title = `Comparison: ${response.dataset_name ?? `${response.runs.length} runs`}`;
  const verdict = b
    ? b.regression
      ? html`<p class="outcome-error"><strong>Regression against the baseline ${b.baseline}</strong>: ${b.candidates.filter((c) => c.regression).flatMap((c) => c.runs).join(", ")}</p>`
      : html`<p><strong>No regression against the baseline ${b.baseline} beyond seed noise.</strong></p>`
    : "";
  const body = html`<article class="report">
<header class="report-head"><h1>${title}</h1><p class="muted">${response.objective ? `${response.objective.metric} (${response.objective.direction})` : "no objective"} · ${response.runs.length} runs</p></header>
<section class="summary"><h2>Summary</h2>${verdict}<p>${response.summary}</p></section>
${params.length ? html`<section class="curves"><h2>Objective against the swept parameters</h2><p class="muted">Each dot is a run's best ${response.objective!.metric}; ${b ? "orange: the baseline's configuration; " : ""}✕: a failed run.</p>${params.map((p) => scatter(p, response.runs, response.objective!.metric, baselineRuns))}</section>` : ""}
${renderFindings(response.findings.map((f) => ({ ...f, agent: EXPERIMENT_AGENT })), numbers)}
${renderRecommendations(response.recommendations, numbers)}
${renderRuns(response.runs)}
${renderReferences(response.citations, numbers)}
</article>`;
  return html`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${new SafeHtml(REPORT_CSS)}</style></head>
<body class="report-page">${body}
<footer class="muted">Generated ${generatedAt.toISOString()} by the ML experiment diagnosis service.</footer>
</body></html>
`.text;
}
