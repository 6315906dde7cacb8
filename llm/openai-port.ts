import type { RunnableConfig } from "@langchain/core/runnables";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ChatOpenAI } from "@langchain/openai";
import type { Language } from "../artifacts/language.js";
import type { Logger } from "../config/logger.js";
import { AGENT_NAMES } from "../domain/result.js";
import { advicePrompt } from "../nodes/advise/prompt.js";
import { summaryPrompt } from "../nodes/integrate/prompt.js";
import { LruLlmCache } from "./cache.js";
import { type LlmConfig, OPENAI_BASE_URL } from "./config.js";
import type { ChatModelOptions } from "./chat-model.js";
import { type LlmLoggingSetup, setUpLlmLogging } from "./logging.js";
import { adviceTexts, reviewTexts, summaryTexts } from "./grounding/answer-texts.js";
import { groundAdvice, groundReview, groundSummary } from "./grounding/answers.js";
import { EvidenceCache } from "./grounding/evidence-cache.js";
import type { GroundingEvidence } from "./grounding/evidence.js";
import { answerInLanguage, groundingOfError } from "./grounding/pass.js";
import type { GroundingTally } from "./grounding/report.js";
import { announceGrounding } from "./grounding/events.js";
import type { AdviceRequest, AdviceResult, AgentReview, AgentReviewRequest, LlmPort, SummaryRequest } from "./port.js";
import type { ChatMessage, Prompt } from "./prompt-kit.js";
import { ANALYZER_PROMPTS, reviewPrompt } from "./review-prompt.js";
import { applyReview } from "./review.js";
import { type AdviceOutput, AdviceSchema, type AgentReviewOutput, AgentReviewSchema, CrossSummarySchema, SCHEMA_NAMES } from "./schemas.js";
import { invokeStructured, LlmOutputError, type StructuredOptions } from "./structured.js";
import { endpointKey, type StructuredOutputSetting, structuredModes } from "./structured-mode.js";
import { USAGE_AGENT_KEY, UsageCollector } from "./usage.js";

export interface LlmPortOptions {
  /** SERVICE_LLM_TIMEOUT_MS: per-request time-out. */
  timeoutMs: number;
  /** SERVICE_LLM_MAX_RETRIES: the client's retries per call. */
  maxRetries: number;
  /** SERVICE_LLM_STRUCTURED_OUTPUT: how structured answers are asked for (`auto` by default). */
  structuredOutput?: StructuredOutputSetting;
  logger: Logger;
  /** The response cache when config.cache is on; a fresh bounded LRU by default. */
  cache?: LruLlmCache;
  /** The HTTP client (the recorder's, or a replay). */
  fetch?: typeof fetch;
  /** Replaces the LLM logging set-up (tests inject a failing one). */
  loggingSetup?: LlmLoggingSetup;
  /** Where a failed logging set-up is printed. */
  print?: (line: string) => void;
}

const AGENT_TEXT_LIMIT = 4000;

/**
 * What of the node's config reaches the model: its abort signal, callbacks (usage, streaming, traces), tags and
 * metadata plus the agent the tokens count for. Not the rest: LangChain puts unknown config keys (LangGraph's
 * `context` with all the deps, execution info) into the cache key.
 */
function callConfig(config: LangGraphRunnableConfig, agent: string): RunnableConfig {
  return {
    signal: config.signal,
    callbacks: config.callbacks,
    tags: config.tags,
    metadata: { ...config.metadata, [USAGE_AGENT_KEY]: agent },
  };
}

function cappedText(value: string): string {
  const text = value.trim();
  return text.length > AGENT_TEXT_LIMIT ? `${text.slice(0, AGENT_TEXT_LIMIT - 1)}…` : text;
}

function requiredText(value: string, what: string): string {
  if (!value.trim()) throw new LlmOutputError(`the model returned an empty ${what}`);
  return cappedText(value);
}

/** The LLM port on an OpenAI-compatible chat model (spec §2.3), built once at start-up. */
export class OpenAiLlmPort implements LlmPort {
  /** null when config.cache is off. */
  readonly cache: LruLlmCache | null;
  private readonly modelOptions: ChatModelOptions;
  /** How the structured calls ask this endpoint (llm/structured.ts). */
  private readonly structured: StructuredOptions;
  private model: Promise<ChatOpenAI> | null = null;
  /** What each prompt showed the model, for the grounding pass: built from the prompt's values, once per prompt. */
  private readonly evidence = new EvidenceCache();

  constructor(private readonly config: LlmConfig, options: LlmPortOptions) {
    this.cache = config.cache ? (options.cache ?? new LruLlmCache()) : null;
    this.modelOptions = {
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
      cache: this.cache,
      callbacks: setUpLlmLogging(options.logger, options.loggingSetup, options.print),
      fetch: options.fetch,
    };
    this.structured = { setting: options.structuredOutput ?? "auto", endpoint: endpointKey(config.baseUrl ?? OPENAI_BASE_URL, config.modelName) };
  }

  /**
   * The chat model, built on the first call: its client (@langchain/openai and the OpenAI SDK) is a third of the
   * service's start-up when imported eagerly, so it is loaded only once a model is asked.
   */
  private chatModel(): Promise<ChatOpenAI> {
    this.model ??= import("./chat-model.js").then(({ createChatModel }) => createChatModel(this.config, this.modelOptions));
    return this.model;
  }

  async loadClient(): Promise<void> {
    await this.chatModel();
  }

  async reviewAgent(req: AgentReviewRequest, config: LangGraphRunnableConfig): Promise<AgentReview> {
    const entry = ANALYZER_PROMPTS[req.agentName];
    if (!entry) throw new Error(`no review prompt for agent "${req.agentName}"`);
    const prompt = reviewPrompt(entry.prompt, req);
    const ask = async (m: readonly ChatMessage[]) => invokeStructured(await this.chatModel(), AgentReviewSchema, SCHEMA_NAMES.review, m, callConfig(config, req.agentName), this.structured);
    const out = await this.grounded(req.agentName, config, prompt, () => answerInLanguage(ask, prompt.messages, req.language, reviewTexts), (answer, evidence, tally) =>
      groundReview(answer, evidence, tally),
    );
    return { findings: applyReview(req.findings, out, entry.kind), summary: out.summary.trim() ? cappedText(out.summary) : null };
  }

  async summarize(req: SummaryRequest, config: LangGraphRunnableConfig): Promise<string> {
    const prompt = summaryPrompt(req);
    const ask = async (m: readonly ChatMessage[]) => invokeStructured(await this.chatModel(), CrossSummarySchema, SCHEMA_NAMES.summary, m, callConfig(config, AGENT_NAMES.integrate), this.structured);
    const summary = await this.grounded(AGENT_NAMES.integrate, config, prompt, () => answerInLanguage(ask, prompt.messages, req.language, summaryTexts), (answer, evidence, tally) =>
      groundSummary(answer.summary, evidence, tally),
    );
    return requiredText(summary, "summary once ungrounded sentences were removed");
  }

  async advise(req: AdviceRequest, config: LangGraphRunnableConfig): Promise<AdviceResult> {
    const prompt = advicePrompt(req);
    const ask = async (m: readonly ChatMessage[]) => invokeStructured(await this.chatModel(), AdviceSchema, SCHEMA_NAMES.advice, m, callConfig(config, AGENT_NAMES.advise), this.structured);
    const out = await this.grounded(AGENT_NAMES.advise, config, prompt, () => answerInLanguage(ask, prompt.messages, req.language, adviceTexts), (answer, evidence, tally) =>
      groundAdvice(answer, req.recommendations.length, evidence, tally),
    );
    const byPriority = new Map(out.recommendations.map((r) => [Math.round(r.priority), r]));
    const recommendations = req.recommendations.map((rec, i) => {
      const reworded = byPriority.get(i + 1);
      const action = reworded?.action.trim();
      const rationale = reworded?.rationale.trim();
      return { ...rec, action: action || rec.action, rationale: rationale || rec.rationale };
    });
    return { recommendations, advice: requiredText(out.advice, "advice once ungrounded sentences were removed") };
  }

  /**
   * The grounding pass over one agent's answer (llm/grounding): the answer in the asked language, then every
   * claim checked against what the model was shown. The report is announced to the run either way.
   */
  private async grounded<A, T>(
    agent: string,
    config: LangGraphRunnableConfig,
    prompt: Prompt,
    answer: () => Promise<{ answer: A; tally: GroundingTally }>,
    ground: (answer: A, evidence: GroundingEvidence, tally: GroundingTally) => T,
  ): Promise<T> {
    const evidence = this.evidenceWhileAnswered(prompt);
    let asked: { answer: A; tally: GroundingTally };
    try {
      asked = await answer();
    } catch (err) {
      evidence.drop();
      const report = groundingOfError(err);
      if (report) await announceGrounding(agent, report, config);
      throw err;
    }
    const out = ground(asked.answer, evidence.get(), asked.tally);
    await announceGrounding(agent, asked.tally.report(), config);
    return out;
  }

  /**
   * The prompt's grounding evidence, built while the model answers rather than after: the build is asked for in
   * the check phase of the event loop, which comes after the call's request has been written (the way there is
   * microtasks and next ticks), so it takes nothing from the call and the answer's grounding, on the critical
   * path, finds it ready. An answer that comes first (the response cache) builds it then, as before.
   */
  private evidenceWhileAnswered(prompt: Prompt): { get(): GroundingEvidence; drop(): void } {
    let evidence: GroundingEvidence | undefined;
    const early = setImmediate(() => (evidence ??= this.evidence.of(prompt)));
    return {
      get: () => {
        clearImmediate(early);
        return (evidence ??= this.evidence.of(prompt));
      },
      drop: () => clearImmediate(early),
    };
  }

  startUsage(): UsageCollector | null {
    return this.config.trackUsage ? new UsageCollector() : null;
  }

  describe(language: Language): Record<string, unknown> {
    return {
      mode: "llm",
      model: this.config.modelName,
      language: language.code,
      cache: this.config.cache,
      track_usage: this.config.trackUsage,
      structured_output: this.structured.setting === "auto" ? `auto (${structuredModes.current(this.structured.endpoint)})` : this.structured.setting,
    };
  }
}

/** The port from the loaded configuration, or null in deterministic mode (no SERVICE_LLM_MODEL_NAME). */
export function createLlmPort(config: LlmConfig | null, options: LlmPortOptions): OpenAiLlmPort | null {
  return config ? new OpenAiLlmPort(config, options) : null;
}
