import type { Finding } from "../../domain/result.js";
import type { Palette } from "./colour.js";
import { type Citation, countLine, DETAILED, type Digest, TOP_RECOMMENDATIONS } from "./digest.js";

const indent = (text: string, pad: string) => text.split("\n").map((l) => `${pad}${l}`).join("\n");

function findingLines(f: Finding, p: Palette): string[] {
  const head = `  ${p.severity(f.severity, f.severity.toUpperCase().padEnd(8))} ${p.bold(f.title)} ${p.dim(`[${f.id}]`)}`;
  if (!DETAILED.includes(f.severity)) return [head];
  // The first evidence is the finding's own; later ones repeat what related findings already show.
  return f.evidence[0] ? [head, `           ${f.evidence[0].text}`] : [head];
}

function citationText(id: string, c: Citation | undefined): string {
  if (!c) return id;
  return [c.source ?? c.title ?? id, c.url].filter(Boolean).join(" ");
}

/**
 * The terminal report, read top-down in ten seconds: one headline, the service's summary, every finding by
 * severity (evidence numbers for critical…medium, one line below), the top recommendations with their sources,
 * and one line per agent that failed.
 */
export function renderText(d: Digest, p: Palette): string {
  const out: string[] = [];
  out.push(p.bold(`Diagnosis${d.datasetName ? ` of ${d.datasetName}` : ""}: ${countLine(d)}`));
  if (d.summary) out.push("", indent(d.summary.trim(), "  "));
  if (d.findings.length > 0) {
    out.push("", p.bold("Findings"));
    for (const f of d.findings) out.push(...findingLines(f, p));
  } else {
    out.push("", p.green("  No issues found in the artifacts sent."));
  }
  if (d.recommendations.length > 0) {
    out.push("", p.bold("What to do, most impact first"));
    const cited = new Set<string>();
    d.recommendations.slice(0, TOP_RECOMMENDATIONS).forEach((r, i) => {
      out.push(`  ${i + 1}. ${r.action} ${p.dim(`(${r.category}, ${r.effort} effort)`)}`);
      r.citations.forEach((c) => cited.add(c));
      if (r.citations.length > 0) out.push(p.dim(`     sources: ${r.citations.join(", ")}`));
    });
    const more = d.recommendations.length - TOP_RECOMMENDATIONS;
    if (more > 0) out.push(p.dim(`  … ${more} more in --format markdown or json`));
    if (cited.size > 0) {
      // Ids that cite the same work share one line (three ids often point at one paper or guide).
      const byWork = new Map<string, string[]>();
      for (const id of cited) {
        const work = citationText(id, d.citations.get(id));
        byWork.set(work, [...(byWork.get(work) ?? []), id]);
      }
      out.push("", p.bold("Sources"));
      for (const [work, ids] of byWork) out.push(`  ${ids.join(", ")}: ${work}`);
    }
  }
  if (d.failures.length > 0) {
    out.push("", p.bold(p.red("Agents that failed (their findings are missing)")));
    for (const f of d.failures) out.push(`  ✗ ${f.agent}: ${f.message}`);
  }
  return `${out.join("\n")}\n`;
}
