import { readFileSync } from "node:fs";
import type { z } from "zod";
import { SEVERITIES } from "../domain/result.js";
import { renderChart } from "./chart.js";
import { renderGrounding } from "./grounding.js";
import { chartMarkers } from "./markers.js";
import { html, SafeHtml } from "./html.js";
import { REPORT_OUTPUTS, type ReportInput } from "./schema.js";
import {
  type CitationNumbers,
  renderErrors,
  renderFindings,
  renderRecommendations,
  renderReferences,
  renderTimings,
  type ReportedFinding,
} from "./sections.js";

/** The report's stylesheet: inlined in the standalone page, served to the debug page as a file. */
export const REPORT_CSS = readFileSync(new URL("./report.css", import.meta.url), "utf8");

type Outputs = { [K in keyof typeof REPORT_OUTPUTS]: z.infer<(typeof REPORT_OUTPUTS)[K]> };

/** Reads each additional output the report shows; a malformed one becomes a note instead of hiding the report. */
function readOutputs(outputs: Record<string, unknown>): { found: Partial<Outputs>; problems: string[] } {
  const found: Partial<Outputs> = {};
  const problems: string[] = [];
  for (const key of Object.keys(REPORT_OUTPUTS) as (keyof Outputs)[]) {
    if (outputs[key] === undefined) continue;
    const parsed = REPORT_OUTPUTS[key].safeParse(outputs[key]);
    if (parsed.success) (found as Record<string, unknown>)[key] = parsed.data;
    else problems.push(`additional_outputs.${key} could not be read: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  }
  return { found, problems };
}

function renderAgents(response: ReportInput): SafeHtml {
  const rows = Object.values(response.agent_results).map(
    (r) => html`<tr><td>${r.agent_name}</td><td><span class="badge sev-${r.severity}">${r.severity}</span></td><td>${r.findings.length}</td><td>${r.analyzed_artifacts.join(", ")}</td><td class="${r.error_message ? "outcome-error" : ""}">${r.error_message ?? "ok"}</td></tr>`,
  );
  return html`<section class="agents"><h2>Agents</h2><table><thead><tr><th>Agent</th><th>Severity</th><th>Findings</th><th>Analyzed</th><th>Status</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

/** The report as an HTML fragment: header, summary, errors, findings, recommendations, curves, references, timings. */
export function renderReport(response: ReportInput): SafeHtml {
  const { found, problems } = readOutputs(response.additional_outputs);
  const findings: ReportedFinding[] = Object.entries(response.agent_results).flatMap(([agent, r]) => r.findings.map((f) => ({ ...f, agent })));
  const numbers: CitationNumbers = new Map((found.citations ?? []).map((c, i) => [c.id, { n: i + 1, title: c.title }]));
  const counts = SEVERITIES.map((s) => [s, findings.filter((f) => f.severity === s).length] as const).filter(([, n]) => n > 0);
  const curves = found.curves && found.curves.series.length > 0 ? found.curves : null;
  return html`<article class="report">
<header class="report-head"><h1>Diagnosis: ${response.dataset_name ?? "unnamed dataset"}</h1>
<p class="counts">${counts.length ? counts.map(([s, n]) => html`<span class="badge sev-${s}">${n} ${s}</span> `) : html`<span class="muted">no findings</span>`}<span class="muted">${Object.keys(response.agent_results).length} agents</span></p></header>
<section class="summary"><h2>Summary</h2>${(response.summary ?? "No summary was produced.").split(/\n+/).map((p) => html`<p>${p}</p>`)}</section>
${renderErrors(response.error_messages)}
${renderFindings(findings, numbers)}
${renderRecommendations(found.recommendations ?? [], numbers)}
${curves ? html`<section class="curves"><h2>Training curves</h2>${renderChart(curves, chartMarkers(findings))}</section>` : ""}
${renderAgents(response)}
${renderGrounding(found.grounding ?? {})}
${renderReferences(found.citations ?? [], numbers)}
${renderTimings(found.trace?.spans ?? [])}
${problems.length ? html`<section class="notes"><h2>Notes</h2><ul>${problems.map((p) => html`<li>${p}</li>`)}</ul></section>` : ""}
</article>`;
}

/** A self-contained page (inline styles and SVG, no script, nothing fetched) a user can save or attach. */
export function renderReportPage(response: ReportInput, generatedAt: Date = new Date()): string {
  return html`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Diagnosis report: ${response.dataset_name ?? "unnamed dataset"}</title>
<style>${new SafeHtml(REPORT_CSS)}</style></head>
<body class="report-page">${renderReport(response)}
<footer class="muted">Generated ${generatedAt.toISOString()} by the ML experiment diagnosis service.</footer>
</body></html>
`.text;
}
