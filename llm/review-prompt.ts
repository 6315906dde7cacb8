import type { ArtifactKind } from "../artifacts/context.js";
import { AGENT_NAMES } from "../domain/result.js";
import { checkpointPrompt } from "../nodes/checkpoint/prompt.js";
import { checksPrompt } from "../nodes/checks/prompt.js";
import { datasetPrompt } from "../nodes/dataset/prompt.js";
import { trainingPrompt } from "../nodes/training/prompt.js";
import { fitJson } from "./bound.js";
import type { AgentReviewRequest } from "./port.js";
import { type AnalyzerPrompt, fitFindings, jsonPrompt, type Prompt, systemMessage, userBudgetChars } from "./prompt-kit.js";
import { MAX_CONFIDENCE_SHIFT, MAX_NEW_FINDINGS } from "./review.js";

/** Each analyzer agent's artifact kind and prompt. */
export const ANALYZER_PROMPTS: Record<string, { kind: ArtifactKind; prompt: AnalyzerPrompt }> = {
  [AGENT_NAMES.dataset]: { kind: "dataset", prompt: datasetPrompt },
  [AGENT_NAMES.checks]: { kind: "checks", prompt: checksPrompt },
  [AGENT_NAMES.training]: { kind: "training", prompt: trainingPrompt },
  [AGENT_NAMES.checkpoint]: { kind: "checkpoint", prompt: checkpointPrompt },
};

/** Share of the user-message budget the findings may take; the digest gets the rest. */
const FINDINGS_SHARE = 0.45;

/**
 * The review prompt of an analyzer agent: its role and focus, the shared evidence rules, the language rule, then
 * its findings and the bounded digest as one JSON object, within PROMPT_TOKEN_BUDGET.
 */
export function reviewPrompt(prompt: AnalyzerPrompt, req: AgentReviewRequest): Prompt {
  const system = systemMessage(
    `You are ${req.agentName}, a senior machine-learning engineer reviewing ${prompt.artifact}.`,
    [
      "Rewrite each detector finding for an ML engineer: a clear title, a description that says what the numbers mean and why it matters, and a concrete recommendation. Keep its id.",
      `Change a finding's confidence only when the digest gives a reason, by at most ${MAX_CONFIDENCE_SHIFT} either way, and give the reason in confidence_note.`,
      `Add at most ${MAX_NEW_FINDINGS} new findings, only for problems the digest shows and no detector reported, each resting on numbers from the digest; otherwise leave new_findings empty.`,
      `Look in particular for: ${prompt.focus.join("; ")}.`,
      "Finish with a short summary of this artifact.",
    ],
    req.language,
  );
  const fixed = { agent: req.agentName, language: req.language };
  const room = userBudgetChars(system, fixed);
  const findings = fitFindings(req.findings, Math.floor(room * FINDINGS_SHARE));
  const digest = fitJson(req.digest, room - findings.text.length);
  return jsonPrompt(system, fixed, { findings, digest });
}
