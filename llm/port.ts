import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { Language } from "../artifacts/language.js";
import type { AgentResult, Finding, Recommendation } from "../graph/result.js";

/** What an analyzer asks the model: explain and extend its detectors' findings over a bounded digest. */
export interface AgentReviewRequest {
  agentName: string;
  language: Language;
  /** A compact, size-bounded digest of the artifact (never the raw artifact). */
  digest: unknown;
  findings: Finding[];
}

/** The model's additions; detector findings are never removed by it. */
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
  recommendations: Recommendation[];
  findings: Finding[];
}

/** The language-model side of the graph; absent (null) in deterministic mode. */
export interface LlmPort {
  reviewAgent(req: AgentReviewRequest, config: LangGraphRunnableConfig): Promise<AgentReview>;
  summarize(req: SummaryRequest, config: LangGraphRunnableConfig): Promise<string>;
  advise(req: AdviceRequest, config: LangGraphRunnableConfig): Promise<{ recommendations: Recommendation[]; advice: string }>;
}
