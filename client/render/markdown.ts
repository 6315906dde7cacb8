import { SEVERITIES } from "../../domain/result.js";
import { countLine, type Digest } from "./digest.js";

/** A table cell: pipes and line breaks would end the cell or the row. */
const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
const MARK: Record<string, string> = { critical: "🟥", high: "🟧", medium: "🟨", low: "🟦", info: "⬜" };

/** Markdown for a CI job summary ($GITHUB_STEP_SUMMARY) or a pull-request comment: every finding, every recommendation. */
export function renderMarkdown(d: Digest): string {
  const out: string[] = [`## ML diagnosis${d.datasetName ? ` of ${d.datasetName}` : ""}: ${countLine(d)}`, ""];
  if (d.summary) out.push(...d.summary.trim().split("\n").map((l) => `> ${l}`), "");
  if (d.findings.length > 0) {
    out.push("| Severity | Finding | Evidence |", "|---|---|---|");
    for (const f of d.findings) {
      const evidence = f.evidence.map((e) => e.text).join(" ");
      out.push(`| ${MARK[f.severity]} ${f.severity} | **${cell(f.title)}** \`${f.id}\` | ${cell(evidence)} |`);
    }
    out.push("");
  }
  if (d.recommendations.length > 0) {
    out.push("### What to do, most impact first", "");
    d.recommendations.forEach((r, i) => {
      const sources = r.citations.map((id) => {
        const c = d.citations.get(id);
        return c?.url ? `[${c.title ?? id}](${c.url})` : (c?.title ?? id);
      });
      out.push(`${i + 1}. **${r.action}** (${r.category}, ${r.effort} effort) ${r.rationale}${sources.length > 0 ? ` Sources: ${sources.join("; ")}.` : ""}`);
    });
    out.push("");
  }
  if (d.failures.length > 0) {
    out.push("### Agents that failed", "", ...d.failures.map((f) => `- \`${f.agent}\`: ${f.message}`), "");
  }
  const bands = SEVERITIES.filter((s) => d.counts[s] > 0);
  if (bands.length === 0 && d.failures.length === 0) out.push("No issues found in the artifacts sent.", "");
  return out.join("\n");
}
