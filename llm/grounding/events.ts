import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch/web";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { GroundingReport } from "../../domain/grounding.js";

/** The custom callback event that carries one agent's grounding report out of its node. */
export const GROUNDING_EVENT = "grounding_report";

export interface GroundingEvent {
  agent: string;
  report: GroundingReport;
}

/**
 * Announces what the grounding pass did to an agent's answer to the run's callbacks (the analysis's collector,
 * the trace). Reports travel as events rather than state so the nodes' code paths stay as they are; a call
 * outside a run (no callbacks) announces nothing.
 */
export async function announceGrounding(agent: string, report: GroundingReport, config: RunnableConfig): Promise<void> {
  await dispatchCustomEvent(GROUNDING_EVENT, { agent, report } satisfies GroundingEvent, config);
}

export function isGroundingEvent(name: string, data: unknown): data is GroundingEvent {
  return name === GROUNDING_EVENT && typeof data === "object" && data !== null && "agent" in data && "report" in data;
}

/** Collects one analysis's grounding reports by agent (additional_outputs.grounding), created per analysis. */
export class GroundingCollector extends BaseCallbackHandler {
  name = "grounding-collector";
  override awaitHandlers = true;
  // Only custom events carry reports: skipped for every node and model event of the run (see UsageCollector).
  override ignoreLLM = true;
  override ignoreChain = true;
  override ignoreAgent = true;
  override ignoreRetriever = true;
  private readonly byAgent = new Map<string, GroundingReport>();

  /** Reports live on this instance, so a copy LangChain might make must be the instance itself. */
  override copy(): this {
    return this;
  }

  override handleCustomEvent(eventName: string, data: unknown): void {
    if (isGroundingEvent(eventName, data)) this.byAgent.set(data.agent, data.report);
  }

  /** Agent name → report, agents in sorted order. */
  report(): Record<string, GroundingReport> {
    return Object.fromEntries([...this.byAgent].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}
