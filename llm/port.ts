import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Language } from "../artifacts/language.js";
import type { AgentResult, Finding, Recommendation } from "../domain/result.js";
import type { UsageCollector } from "./usage.js";

/** What an analyzer asks the model: explain and extend its detectors' findings over a bounded digest. */
export interface AgentReviewRequest {
  agentName: string;
  language: Language;
  /** The analyzer's digest of the artifact; the prompt bounds it again to its token budget. */
  digest: unknown;
  findings: Finding[];
}

/** The reviewed findings (every detector finding, reworded or not, then the model's own) and a summary. */
export interface AgentReview {
  findings: Finding[];
  summary: string | null;
}

export interface SummaryRequest {
  language: Language;
  agentResults: Record<string, AgentResult>;
  crossFindings: Finding[];
}

export interface AdviceRequest {
  language: Language;
  /** The plan, highest priority first. */
  recommendations: Recommendation[];
  findings: Finding[];
}

export interface AdviceResult {
  /** The input recommendations in the same order, action and rationale reworded; links unchanged. */
  recommendations: Recommendation[];
  advice: string;
}

/** The language-model side of the graph; absent (null) in deterministic mode. Every call takes the node's config. */
export interface LlmPort {
  reviewAgent(req: AgentReviewRequest, config: LangGraphRunnableConfig): Promise<AgentReview>;
  summarize(req: SummaryRequest, config: LangGraphRunnableConfig): Promise<string>;
  advise(req: AdviceRequest, config: LangGraphRunnableConfig): Promise<AdviceResult>;
  /**
   * Loads the model client now instead of on the first call, whose time-out would otherwise pay for the import
   * (seconds on a busy machine) and blame the model for it. Rejects with the client's load error.
   */
  loadClient(): Promise<void>;
  /** A usage collector for one analysis, to pass as a run callback; null when track_usage is off. */
  startUsage(): UsageCollector | null;
  /** What `additional_outputs.llm` says about the model (never the key). */
  describe(language: Language): Record<string, unknown>;
}
