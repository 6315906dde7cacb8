import { ConfigError, type ServiceSettings } from "../config/env.js";
import type { Deadline } from "./deadline.js";

type BudgetSettings = Pick<ServiceSettings, "SERVICE_AGENT_TIMEOUT_MS" | "SERVICE_REQUEST_TIMEOUT_MS" | "SERVICE_LLM_TIMEOUT_MS" | "SERVICE_LLM_MAX_RETRIES">;

/**
 * Share of the request time kept from the analyzers for integrate and advise, so they always run on what the
 * analyzers produced (a hung analyzer is cut at the end of its budget, not at the request's).
 */
export const FINISH_SHARE = 0.2;
/** Share of the request time kept after the last model call, for the deterministic rest and the response. */
export const RESPONSE_SHARE = 0.02;

export const AGENT_BUDGET = "SERVICE_AGENT_TIMEOUT_MS";
export const LLM_BUDGET = "the language model (SERVICE_LLM_TIMEOUT_MS × (1 + SERVICE_LLM_MAX_RETRIES))";

/** The most one model step (its attempts, a re-ask for a malformed reply included) may take. */
export function llmBudgetMs(settings: BudgetSettings): number {
  return settings.SERVICE_LLM_TIMEOUT_MS * (settings.SERVICE_LLM_MAX_RETRIES + 1);
}

/**
 * With a model configured, an agent's model step must fit inside the agent's time-out with room left for its
 * detectors: otherwise a hung endpoint would time out every agent instead of failing only the model step.
 */
export function checkLlmBudget(settings: BudgetSettings): void {
  const llm = llmBudgetMs(settings);
  if (llm < settings.SERVICE_AGENT_TIMEOUT_MS) return;
  throw new ConfigError(
    `the language-model budget per agent, SERVICE_LLM_TIMEOUT_MS (${settings.SERVICE_LLM_TIMEOUT_MS}) × (1 + SERVICE_LLM_MAX_RETRIES (${settings.SERVICE_LLM_MAX_RETRIES})) = ${llm} ms, ` +
      `must be smaller than SERVICE_AGENT_TIMEOUT_MS (${settings.SERVICE_AGENT_TIMEOUT_MS}); lower the first two or raise the last`,
  );
}

/** An analyzer's time: its own time-out, ending no later than the request's end less the share kept for finishing. */
export function agentBudgetMs(deadline: Deadline, settings: BudgetSettings): number {
  const reserve = FINISH_SHARE * settings.SERVICE_REQUEST_TIMEOUT_MS;
  return Math.max(0, Math.floor(Math.min(settings.SERVICE_AGENT_TIMEOUT_MS, deadline.remainingMs() - reserve)));
}

/**
 * A finishing step's model time: at most one model budget and an equal part of what the request has left
 * among the model steps still to come (integrate: 2, advise: 1), less the response's share.
 */
export function finishLlmBudgetMs(deadline: Deadline, settings: BudgetSettings, stepsLeft: number): number {
  const left = deadline.remainingMs() - RESPONSE_SHARE * settings.SERVICE_REQUEST_TIMEOUT_MS;
  return Math.max(0, Math.floor(Math.min(llmBudgetMs(settings), left / stepsLeft)));
}
