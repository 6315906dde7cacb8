import type { AgentResult, Finding } from "../../domain/result.js";
import { prioritizeFindings } from "../findings.js";

const TOP = 5;

/** The templated cross-artifact summary used without an LLM: the top problems in order, with their numbers. */
export function templateSummary(
  agentResults: Record<string, AgentResult>,
  crossFindings: readonly Finding[],
  errors: Record<string, string> = {},
): string | null {
  const all = prioritizeFindings([...crossFindings, ...Object.values(agentResults).flatMap((r) => r.findings)]);
  // One analyzer per artifact group, so the groups analyzed are the agents that analyzed something.
  const groups = Object.values(agentResults).filter((r) => r.analyzed_artifacts.length > 0).length;
  if (groups === 0 && all.length === 0) return null;
  const failed = Object.keys(errors);
  const caveat = failed.length ? `\nIncomplete: ${failed.join(", ")} reported errors (see error_messages), so this summary may miss problems.` : "";
  return summarizeFindings(all, groups) + caveat;
}

function summarizeFindings(all: readonly Finding[], analyzedCount: number): string {
  const serious = all.filter((f) => f.severity === "critical" || f.severity === "high" || f.severity === "medium");
  if (serious.length === 0) {
    const notes = all.length ? ` ${all.length} minor note(s): ${all.slice(0, TOP).map((f) => f.title.toLowerCase()).join("; ")}.` : "";
    return `No significant problem found in ${analyzedCount} artifact group(s).${notes}`;
  }
  const lines = serious.slice(0, TOP).map((f, i) => {
    const numbers = f.evidence[0]?.text ? ` (${f.evidence[0].text.replace(/\.$/, "")})` : "";
    return `${i + 1}. [${f.severity}] ${f.title}${numbers}.`;
  });
  const more = serious.length > TOP ? ` ${serious.length - TOP} more issue(s) of medium or higher severity follow in the findings.` : "";
  return `${serious.length} issue(s) need attention, most severe first:\n${lines.join("\n")}${more}`;
}
