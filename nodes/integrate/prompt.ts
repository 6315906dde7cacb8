import { AGENT_NAMES, compareFindings } from "../../domain/result.js";
import { BOUND_LEVELS, boundValue } from "../../llm/bound.js";
import type { SummaryRequest } from "../../llm/port.js";
import { fitFindings, fitList, jsonPrompt, type Prompt, systemMessage, userBudgetChars } from "../../llm/prompt-kit.js";

const AGENT = AGENT_NAMES.integrate;
/** Shares of the user-message budget: agent overviews, cross-artifact findings, then the analyzers' findings. */
const SHARE = { agents: 0.2, cross: 0.25 } as const;

/**
 * The cross-artifact reasoning prompt: every analyzer's verdict and summary, the cross-artifact rules' findings,
 * then the analyzers' findings by priority, within PROMPT_TOKEN_BUDGET.
 */
export function summaryPrompt(req: SummaryRequest): Prompt {
  const system = systemMessage(
    `You are ${AGENT}, a senior machine-learning engineer connecting what several analyzers found in the artifacts of one experiment (dataset, data checks, training history, checkpoint).`,
    [
      "Write the cross-artifact summary for the team: the few problems that matter most, most severe first, each with its numbers.",
      "Say where artifacts corroborate or explain each other (for example a train/validation gap that a distribution shift explains, or a saved checkpoint that is not the best one), using the cross_findings first.",
      "Say which agents failed or found nothing, and what is therefore unknown. If nothing significant was found, say so plainly; never invent problems.",
      "End with what to do first. At most 250 words, plain text without headings.",
    ],
    req.language,
  );
  const agents = Object.values(req.agentResults).map((r) =>
    boundValue(
      {
        agent: r.agent_name,
        severity: r.severity,
        confidence: r.confidence,
        findings: r.findings.length,
        analyzed: r.analyzed_artifacts,
        error: r.error_message,
        summary: r.summary ?? null,
      },
      { ...BOUND_LEVELS[2]!, maxString: 400 },
    ),
  );
  const fixed = { agent: AGENT, language: req.language };
  const room = userBudgetChars(system, fixed);
  const agentsText = fitList(agents, Math.floor(room * SHARE.agents), "agents");
  const crossText = fitFindings(req.crossFindings, Math.floor(room * SHARE.cross));
  const agentOf = new Map(Object.values(req.agentResults).flatMap((r) => r.findings.map((f) => [f, r.agent_name] as const)));
  const findings = fitFindings(
    [...agentOf.keys()].sort(compareFindings),
    room - agentsText.text.length - crossText.text.length,
    (f) => ({ agent: agentOf.get(f) ?? null }),
  );
  return jsonPrompt(system, fixed, { agents: agentsText, cross_findings: crossText, findings });
}
