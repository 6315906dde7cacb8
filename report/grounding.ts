import type { GroundingReport } from "../domain/grounding.js";
import { html, type SafeHtml } from "./html.js";

/** What the grounding pass removed from each agent's model answer: counts and reasons (never the removed text). */
export function renderGrounding(byAgent: Readonly<Record<string, GroundingReport>>): SafeHtml {
  const entries = Object.entries(byAgent);
  if (entries.length === 0) return html``;
  const reasons = (r: GroundingReport) => {
    const listed = Object.entries(r.reasons).filter(([, n]) => n > 0);
    return listed.length ? listed.map(([reason, n]) => `${reason} ${n}`).join(", ") : "–";
  };
  const language = (r: GroundingReport) => `${r.language.expected} → ${r.language.detected ?? "?"} (${r.language.outcome})`;
  return html`<section class="grounding"><h2>Grounding of the model's text</h2>
<p class="muted">Each sentence and claim the language model wrote, checked against the evidence it was shown; what failed was removed.</p>
<table><thead><tr><th>Agent</th><th>Checked</th><th>Grounded</th><th>Removed</th><th>Reasons</th><th>Model findings dropped</th><th>Language</th></tr></thead><tbody>${entries.map(
    ([agent, r]) =>
      html`<tr><td>${agent}</td><td>${r.checked}</td><td>${r.grounded}</td><td class="${r.removed ? "outcome-error" : ""}">${r.removed}</td><td>${reasons(r)}</td><td>${r.dropped_findings}</td><td class="${r.language.outcome === "fallback" ? "outcome-error" : ""}">${language(r)}</td></tr>`,
  )}</tbody></table></section>`;
}
