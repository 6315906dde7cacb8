import { compareFindings, type Evidence, type Finding, SEVERITIES } from "../domain/result.js";
import type { Span } from "../domain/trace.js";
import { html, type SafeHtml, safeHref } from "./html.js";
import type { PlannedRecommendation, ReportCitation } from "./schema.js";

/** A finding with the agent that reported it. */
export interface ReportedFinding extends Finding {
  agent: string;
}

/** Citation id → its number in the reference list and its title, so every "[n]" links to the same entry. */
export type CitationNumbers = Map<string, { n: number; title: string }>;

const percent = (x: number) => `${Math.round(x * 100)}%`;

/** An evidence number as a person reads it: 4 significant digits, integers as they are. */
function formatValue(v: number | string | boolean): string {
  return typeof v === "number" && !Number.isInteger(v) ? String(Number(v.toPrecision(4))) : String(v);
}

function citeLinks(ids: readonly string[], numbers: CitationNumbers): SafeHtml | "" {
  const known = ids.flatMap((id) => numbers.get(id) ?? []);
  if (known.length === 0) return "";
  return html`<p class="cites">Sources: ${known.map((c) => html`<a href="#ref-${c.n}" title="${c.title}">[${c.n}]</a>`)}</p>`;
}

function renderEvidence(e: Evidence): SafeHtml {
  const numbers = [
    e.window ? `steps ${e.window[0]}–${e.window[1]}` : null,
    e.observed !== undefined && e.observed !== null ? `observed ${formatValue(e.observed)}` : null,
    e.threshold !== undefined && e.threshold !== null ? `threshold ${formatValue(e.threshold)}` : null,
    e.n_points ? `${e.n_points} points` : null,
  ].filter((s): s is string => s !== null);
  return html`<li><span class="rule">${e.rule_id}</span> ${e.text} <span class="muted">${e.artifact}${numbers.length ? ` · ${numbers.join(" · ")}` : ""}</span></li>`;
}

function renderFinding(f: ReportedFinding, numbers: CitationNumbers): SafeHtml {
  return html`<li class="finding sev-${f.severity}">
<div class="finding-head"><strong>${f.title}</strong> <span class="muted">${f.agent} · confidence ${percent(f.confidence)} · ${f.source}</span> <code>${f.id}</code></div>
<p>${f.description}</p>
${f.evidence.length ? html`<ul class="evidence">${f.evidence.map(renderEvidence)}</ul>` : ""}
${f.confidence_note ? html`<p class="muted">${f.confidence_note}</p>` : ""}${citeLinks(f.citations, numbers)}
</li>`;
}

/** Every agent's findings, grouped by severity (most severe first) and ordered by confidence within a group. */
export function renderFindings(findings: readonly ReportedFinding[], numbers: CitationNumbers): SafeHtml {
  if (findings.length === 0) return html`<section class="findings"><h2>Findings</h2><p class="muted">No findings.</p></section>`;
  const groups = SEVERITIES.map((s) => [s, [...findings].filter((f) => f.severity === s).sort(compareFindings)] as const).filter(([, fs]) => fs.length > 0);
  return html`<section class="findings"><h2>Findings</h2>${groups.map(
    ([severity, fs]) => html`<h3><span class="badge sev-${severity}">${severity}</span> ${fs.length} finding${fs.length > 1 ? "s" : ""}</h3><ul class="finding-list">${fs.map((f) => renderFinding(f, numbers))}</ul>`,
  )}</section>`;
}

/** The advisor's plan: action, why, how sure, and the sources behind it. */
export function renderRecommendations(recommendations: readonly PlannedRecommendation[], numbers: CitationNumbers): SafeHtml {
  if (recommendations.length === 0) return html``;
  return html`<section class="recommendations"><h2>Recommendations</h2><ol>${recommendations.map(
    (r) => html`<li><strong>${r.action}</strong> <span class="muted">${r.category} · ${r.effort} effort · confidence ${percent(r.confidence)}</span>
<p>${r.rationale}</p>${r.finding_ids.length ? html`<p class="muted">Addresses ${r.finding_ids.map((id, i) => html`${i ? ", " : ""}<code>${id}</code>`)}</p>` : ""}${citeLinks(r.citations, numbers)}</li>`,
  )}</ol></section>`;
}

/** The cited documents, numbered as the findings and recommendations cite them. */
export function renderReferences(citations: readonly ReportCitation[], numbers: CitationNumbers): SafeHtml {
  if (citations.length === 0) return html``;
  return html`<section class="references"><h2>References</h2><ol>${citations.map((c) => {
    const href = safeHref(c.url);
    const title = href ? html`<a href="${href}" rel="noopener noreferrer">${c.title}</a>` : html`${c.title}`;
    return html`<li id="ref-${numbers.get(c.id)?.n ?? ""}">${title}${c.source ? html` <span class="muted">${c.source}</span>` : ""} <code>${c.id}</code></li>`;
  })}</ol></section>`;
}

/** Agents that failed or ran partially, with their messages. */
export function renderErrors(errors: Readonly<Record<string, string>>): SafeHtml {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  return html`<section class="errors"><h2>Agent errors</h2><ul>${entries.map(([agent, message]) => html`<li><strong>${agent}</strong>: ${message}</li>`)}</ul></section>`;
}

/** Per-node spans as a table with a bar per node on a shared time axis. */
export function renderTimings(spans: readonly Span[]): SafeHtml {
  if (spans.length === 0) return html``;
  const end = Math.max(...spans.map((s) => s.start_ms + s.duration_ms)) || 1;
  const bar = (s: Span) =>
    html`<span class="bar-track"><span class="bar outcome-${s.outcome}" style="margin-left:${((s.start_ms / end) * 100).toFixed(2)}%;width:${Math.max(0.5, (s.duration_ms / end) * 100).toFixed(2)}%"></span></span>`;
  return html`<section class="timings"><h2>Node timings</h2><table><thead><tr><th>Node</th><th>Step</th><th>Start</th><th>Duration</th><th>Outcome</th><th>Findings</th><th class="bar-col">Timeline</th></tr></thead><tbody>${[...spans]
    .sort((a, b) => a.start_ms - b.start_ms)
    .map(
      (s) => html`<tr><td><code>${s.node}</code></td><td>${s.step}</td><td>${s.start_ms.toFixed(1)} ms</td><td>${s.duration_ms.toFixed(1)} ms</td><td class="outcome-${s.outcome}" title="${s.error ?? ""}">${s.outcome}</td><td>${s.findings ?? "–"}</td><td>${bar(s)}</td></tr>`,
    )}</tbody></table></section>`;
}
