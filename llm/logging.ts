import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { AIMessage } from "@langchain/core/messages";
import type { ChatGeneration, LLMResult } from "@langchain/core/outputs";
import type { Logger } from "../config/logger.js";
import { USAGE_AGENT_KEY } from "./usage.js";

/**
 * Logs every model call: agent, duration, token counts, whether the cache answered; failures at warn. Never the
 * prompt or the answer (they carry the customer's data).
 */
export class LlmCallLog extends BaseCallbackHandler {
  name = "llm-call-log";
  // Its handlers are synchronous and cheap: awaited in place rather than each event scheduled on LangChain's
  // background queue (a p-queue task per model start and end, on the way to and from the request).
  override awaitHandlers = true;
  private readonly started = new Map<string, { agent: unknown; at: number }>();

  constructor(private readonly logger: Logger, private readonly now: () => number = () => performance.now()) {
    super();
  }

  override handleChatModelStart(_llm: unknown, _m: unknown, runId: string, _p?: string, _e?: unknown, _t?: string[], metadata?: Record<string, unknown>): void {
    this.started.set(runId, { agent: metadata?.[USAGE_AGENT_KEY] ?? metadata?.langgraph_node ?? null, at: this.now() });
  }

  private finish(runId: string) {
    const start = this.started.get(runId);
    this.started.delete(runId);
    return { agent: start?.agent ?? null, ms: start ? Math.round(this.now() - start.at) : null };
  }

  override handleLLMEnd(output: LLMResult, runId: string, _p?: string, _t?: string[], extra?: Record<string, unknown>): void {
    const usage = ((output.generations[0]?.[0] as ChatGeneration | undefined)?.message as AIMessage | undefined)?.usage_metadata;
    // Under `usage`: the logger redacts top-level keys that look like secrets ("…token…").
    const counts = usage ? { input: usage.input_tokens, output: usage.output_tokens } : null;
    this.logger.debug("llm call", { ...this.finish(runId), cached: extra?.cached === true, usage: counts });
  }

  override handleLLMError(err: unknown, runId: string): void {
    this.logger.warn("llm call failed", { ...this.finish(runId), error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) });
  }
}

/** Sets up logging for the LLM framework at start-up; returns the handlers to attach to the model. */
export type LlmLoggingSetup = (logger: Logger) => BaseCallbackHandler[];

export const defaultLlmLoggingSetup: LlmLoggingSetup = (logger) => [new LlmCallLog(logger.child({ component: "llm" }))];

/**
 * Spec §2.3 rule 4: if the LLM framework's logging set-up fails, the failure is printed and start-up continues
 * without it (no handlers).
 */
export function setUpLlmLogging(
  logger: Logger,
  setup: LlmLoggingSetup = defaultLlmLoggingSetup,
  print: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): BaseCallbackHandler[] {
  try {
    return setup(logger);
  } catch (err) {
    print(`LLM logging set-up failed, continuing without it: ${err instanceof Error ? err.message : String(err)}`);
    return [];
  }
}
