import { type Severity, severityRank } from "../../domain/result.js";
import type { AdviceOutput, AgentReviewOutput } from "../schemas.js";
import { checkSentence } from "./claims.js";
import type { GroundingEvidence } from "./evidence.js";
import type { GroundingTally } from "./report.js";
import { joinSentences, splitSentences } from "./sentences.js";

/** A model text with every failing sentence removed, and whether any was. */
interface GroundedText {
  text: string;
  intact: boolean;
}

/** Checks each sentence of a model text against the evidence; failing ones are removed and counted. */
export function groundText(text: string, evidence: GroundingEvidence, allowed: Severity, tally: GroundingTally): GroundedText {
  const kept = [];
  let intact = true;
  for (const sentence of splitSentences(text)) {
    if (!sentence.text.trim()) continue;
    const reason = checkSentence(sentence.text, evidence, allowed);
    tally.count(reason);
    if (reason === null) kept.push(sentence);
    else intact = false;
  }
  // Every sentence kept joins back into the text as written, trimmed.
  return { text: intact ? text.trim() : joinSentences(kept), intact };
}

const lower = (a: Severity, b: Severity): Severity => (severityRank(a) > severityRank(b) ? a : b);

function groundNullable(text: string | null, evidence: GroundingEvidence, allowed: Severity, tally: GroundingTally): string | null {
  return text === null ? null : groundText(text, evidence, allowed, tally).text || null;
}

/**
 * An analyzer's review with what the evidence does not support removed: entries for findings that do not exist,
 * failing sentences of reworded findings (an emptied field keeps the detector's text), the model's own findings
 * whose title, description or evidence fails, and severities above the agent's most severe detector finding
 * (a model finding never raises the agent's severity on its own).
 */
export function groundReview(out: AgentReviewOutput, evidence: GroundingEvidence, tally: GroundingTally): AgentReviewOutput {
  const findings = out.findings.flatMap((r) => {
    const severity = evidence.severityOf.get(r.id);
    tally.count(severity ? null : "unknown_id");
    if (!severity) return [];
    const g = (t: string | null) => groundNullable(t, evidence, severity, tally);
    return [
      {
        ...r,
        title: g(r.title) ?? "",
        description: g(r.description) ?? "",
        recommendation_action: g(r.recommendation_action),
        recommendation_rationale: g(r.recommendation_rationale),
        confidence_note: g(r.confidence_note),
      },
    ];
  });
  const newFindings = out.new_findings.flatMap((n) => {
    const assigned = n.severity as Severity;
    const severity = lower(assigned, evidence.top) as AgentReviewOutput["new_findings"][number]["severity"];
    tally.count(severity === assigned ? null : "severity");
    const carried = [n.title, n.description, n.evidence].map((t) => groundText(t, evidence, severity, tally));
    if (!carried.every((c) => c.intact)) {
      tally.dropFinding();
      return [];
    }
    const rec = n.recommendation;
    const action = rec ? groundText(rec.action, evidence, severity, tally).text : "";
    const recommendation = rec && action ? { ...rec, action, rationale: groundText(rec.rationale, evidence, severity, tally).text } : null;
    return [{ ...n, severity, recommendation }];
  });
  return { summary: groundText(out.summary, evidence, evidence.top, tally).text, findings, new_findings: newFindings };
}

/** A summary with failing sentences removed. */
export function groundSummary(summary: string, evidence: GroundingEvidence, tally: GroundingTally): string {
  return groundText(summary, evidence, evidence.top, tally).text;
}

/** The advice with failing sentences removed and rewordings of priorities that do not exist dropped. */
export function groundAdvice(out: AdviceOutput, planLength: number, evidence: GroundingEvidence, tally: GroundingTally): AdviceOutput {
  const recommendations = out.recommendations.flatMap((r) => {
    const exists = Number.isInteger(r.priority) && r.priority >= 1 && r.priority <= planLength;
    tally.count(exists ? null : "unknown_id");
    if (!exists) return [];
    return [{ ...r, action: groundText(r.action, evidence, evidence.top, tally).text, rationale: groundText(r.rationale, evidence, evidence.top, tally).text }];
  });
  return { advice: groundText(out.advice, evidence, evidence.top, tally).text, recommendations };
}
