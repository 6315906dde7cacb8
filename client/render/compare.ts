import { type CompareResponseBody, type Severity, shownPerRun } from "../../domain/result.js";
import type { Palette } from "./colour.js";

/** Runs listed by name in a verdict line, at most. */
const NAMED_RUNS = 6;
const TOP_RECOMMENDATIONS = 5;

const names = (runs: readonly string[]) => `${runs.slice(0, NAMED_RUNS).join(", ")}${runs.length > NAMED_RUNS ? ` (+${runs.length - NAMED_RUNS})` : ""}`;

function headline(r: CompareResponseBody): string {
  const failed = r.runs.filter((x) => x.status === "failed").length;
  const on = r.objective ? ` on ${r.objective.metric} (${r.objective.direction})` : "";
  return `Comparison of ${r.runs.length} run${r.runs.length === 1 ? "" : "s"}${r.dataset_name ? ` of ${r.dataset_name}` : ""}${on}: ${r.findings.length} finding${r.findings.length === 1 ? "" : "s"}${failed ? `, ${failed} failed run${failed === 1 ? "" : "s"}` : ""}`;
}

/** One line per regressing configuration, or the all-clear; null without a baseline. */
function verdictLines(r: CompareResponseBody): string[] | null {
  const b = r.baseline_comparison;
  if (!b) return null;
  const regressed = b.candidates.filter((c) => c.regression);
  if (regressed.length === 0) return [`No regression against the baseline ${b.baseline} beyond seed noise.`];
  return [`Regression against the baseline ${b.baseline}:`, ...regressed.map((c) => `  ${names(c.runs)}: ${c.reasons.join("; ")}`)];
}

/** Each run's own findings that every format shows (high or worse, still improving): run, severity, title, id. */
function runFindings(r: CompareResponseBody): Array<{ run: string; severity: Severity; title: string; id: string }> {
  return r.runs.flatMap((run) => run.top_findings.filter(shownPerRun).map((f) => ({ run: run.name, severity: f.severity, title: f.title, id: f.id })));
}

/** The terminal report of a comparison: headline, verdict against the baseline, summary, findings, what to do. */
export function renderCompareText(r: CompareResponseBody, p: Palette): string {
  const out = [p.bold(headline(r))];
  const verdict = verdictLines(r);
  if (verdict) out.push("", ...verdict.map((l, i) => (i === 0 ? (r.baseline_comparison?.regression ? p.red(l) : p.green(l)) : l)));
  out.push("", `  ${r.summary}`);
  if (r.findings.length) {
    out.push("", p.bold("Findings"));
    for (const f of r.findings) out.push(`  ${p.severity(f.severity, f.severity.toUpperCase().padEnd(8))} ${p.bold(f.title)} ${p.dim(`[${f.id}]`)}`, `           ${f.description}`);
  }
  const perRun = runFindings(r);
  if (perRun.length) {
    out.push("", p.bold("Runs' own findings"));
    for (const f of perRun) out.push(`  ${p.severity(f.severity, f.severity.toUpperCase().padEnd(8))} ${f.run}: ${f.title} ${p.dim(`[${f.id}]`)}`);
  }
  if (r.recommendations.length) {
    out.push("", p.bold("What to do"));
    r.recommendations.slice(0, TOP_RECOMMENDATIONS).forEach((rec, i) => out.push(`  ${i + 1}. ${rec.action}`));
  }
  if (r.citations.length) out.push("", p.dim(`Sources: ${r.citations.map((c) => `${c.source} ${c.url}`).join("; ")}`));
  for (const [agent, message] of Object.entries(r.error_messages)) out.push(p.red(`${agent} failed: ${message}`));
  return `${out.join("\n")}\n`;
}

/** The same report as Markdown, for a CI job summary or a pull-request comment. */
export function renderCompareMarkdown(r: CompareResponseBody): string {
  const out = [`## ${headline(r)}`];
  const verdict = verdictLines(r);
  if (verdict) out.push("", `**${verdict[0]}**`, ...verdict.slice(1).map((l) => `- ${l.trim()}`));
  out.push("", r.summary);
  if (r.findings.length) {
    out.push("", "| Severity | Finding | Details |", "|---|---|---|");
    for (const f of r.findings) out.push(`| ${f.severity} | ${f.title} (\`${f.id}\`) | ${f.description.replace(/\|/g, "\\|")} |`);
  }
  const perRun = runFindings(r);
  if (perRun.length) out.push("", "### Runs' own findings", "", "| Run | Severity | Finding |", "|---|---|---|", ...perRun.map((f) => `| ${f.run.replace(/\|/g, "\\|")} | ${f.severity} | ${f.title.replace(/\|/g, "\\|")} (\`${f.id}\`) |`));
  if (r.recommendations.length) out.push("", "### What to do", ...r.recommendations.slice(0, TOP_RECOMMENDATIONS).map((rec, i) => `${i + 1}. ${rec.action}`));
  if (r.citations.length) out.push("", `Sources: ${r.citations.map((c) => `[${c.title}](${c.url})`).join(", ")}`);
  return `${out.join("\n")}\n`;
}
