import { AGENT_NAMES } from "../../domain/result.js";
import { BOUND_LEVELS, boundValue } from "../../llm/bound.js";
import type { AdviceRequest } from "../../llm/port.js";
import { fitFindings, fitList, jsonPrompt, type Prompt, systemMessage, userBudgetChars } from "../../llm/prompt-kit.js";

const AGENT = AGENT_NAMES.advise;
/** Share of the user-message budget for the recommendations; the findings behind them get the rest. */
const RECOMMENDATIONS_SHARE = 0.55;

/**
 * The optimization advisor's prompt: the prioritized plan (priority = position + 1) and the findings it rests on,
 * within PROMPT_TOKEN_BUDGET.
 */
export function advicePrompt(req: AdviceRequest): Prompt {
  const system = systemMessage(
    `You are ${AGENT}, a senior machine-learning engineer turning a diagnosis into an optimization plan for the next training run.`,
    [
      "Write the optimization advice: the next steps in the order of the priorities given, what each changes and what improvement to expect, grouping steps that belong together. At most 250 words, plain text.",
      "Reword each recommendation's action and rationale for the reader, keeping its priority number. Do not add, merge or drop recommendations; their links to findings and citations stay as they are.",
    ],
    req.language,
  );
  const recommendations = req.recommendations.map((r, i) =>
    boundValue(
      { priority: i + 1, action: r.action, rationale: r.rationale, category: r.category, effort: r.effort, confidence: r.confidence, finding_ids: r.finding_ids },
      { ...BOUND_LEVELS[2]!, maxString: 400 },
    ),
  );
  const fixed = { agent: AGENT, language: req.language };
  const room = userBudgetChars(system, fixed);
  const recommendationsText = fitList(recommendations, Math.floor(room * RECOMMENDATIONS_SHARE), "recommendations");
  const findings = fitFindings(req.findings, room - recommendationsText.text.length);
  return jsonPrompt(system, fixed, { recommendations: recommendationsText, findings });
}
