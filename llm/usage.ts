import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { AIMessage } from "@langchain/core/messages";
import type { ChatGeneration, LLMResult } from "@langchain/core/outputs";

/** Metadata key the port sets on each model call: which agent the tokens belong to. */
export const USAGE_AGENT_KEY = "llm_agent";

/** Token accounting of one agent (or of the whole analysis). */
export interface AgentUsage {
  /** Model calls that returned an answer, from the endpoint or the cache. */
  calls: number;
  /** Calls answered from the in-process cache: no request, no tokens spent. */
  cache_hits: number;
  /** Calls that ended in an error (after the client's retries). */
  failed_calls: number;
  /** Tokens spent by this analysis: answers that came from the endpoint. */
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** What the answers served from the cache cost when they were first made (not spent again). */
  cached_input_tokens: number;
  cached_output_tokens: number;
  cached_total_tokens: number;
}

export interface UsageReport {
  total: AgentUsage;
  by_agent: Record<string, AgentUsage>;
}

const emptyUsage = (): AgentUsage => ({
  calls: 0,
  cache_hits: 0,
  failed_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  total_tokens: 0,
  cached_input_tokens: 0,
  cached_output_tokens: 0,
  cached_total_tokens: 0,
});

interface Tokens {
  input: number;
  output: number;
  total: number;
}

/** Counts of a fresh answer: usage_metadata, else the provider's tokenUsage. */
function spentTokens(message: AIMessage | undefined, result: LLMResult): Tokens {
  const u = message?.usage_metadata;
  if (u) return { input: u.input_tokens, output: u.output_tokens, total: u.total_tokens };
  return fromTokenUsage(result.llmOutput?.tokenUsage);
}

function fromTokenUsage(t: { promptTokens?: number; completionTokens?: number; totalTokens?: number } | undefined): Tokens {
  const input = t?.promptTokens ?? 0;
  const output = t?.completionTokens ?? 0;
  return { input, output, total: t?.totalTokens ?? input + output };
}

/**
 * Collects token usage of one analysis as a LangChain callback handler passed with the run, so concurrent
 * analyses never share counts. LangChain reports a cache hit with zeroed usage_metadata and `{cached: true}`;
 * the original counts survive in the copied message's response_metadata.tokenUsage and are reported apart.
 */
export class UsageCollector extends BaseCallbackHandler {
  name = "usage-collector";
  // Counting must finish before the run's result is assembled, not in LangChain's background queue.
  override awaitHandlers = true;
  // Only model events count tokens: LangChain skips an ignoring handler outright instead of scheduling a no-op
  // call for each of the graph's node starts and ends (~16 each per analysis) and each grounding event.
  override ignoreChain = true;
  override ignoreCustomEvent = true;
  override ignoreAgent = true;
  override ignoreRetriever = true;
  private readonly agentByRun = new Map<string, string>();
  private readonly byAgent = new Map<string, AgentUsage>();

  private usageOf(runId: string): AgentUsage {
    const agent = this.agentByRun.get(runId) ?? "unattributed";
    this.agentByRun.delete(runId);
    let usage = this.byAgent.get(agent);
    if (!usage) this.byAgent.set(agent, (usage = emptyUsage()));
    return usage;
  }

  override handleChatModelStart(
    _llm: unknown,
    _messages: unknown,
    runId: string,
    _parentRunId?: string,
    _extra?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    const agent = metadata?.[USAGE_AGENT_KEY] ?? metadata?.langgraph_node;
    this.agentByRun.set(runId, typeof agent === "string" ? agent : "unattributed");
  }

  override handleLLMEnd(output: LLMResult, runId: string, _p?: string, _t?: string[], extra?: Record<string, unknown>): void {
    const usage = this.usageOf(runId);
    const message = (output.generations[0]?.[0] as ChatGeneration | undefined)?.message as AIMessage | undefined;
    usage.calls++;
    if (extra?.cached === true) {
      const t = fromTokenUsage(message?.response_metadata?.tokenUsage as Parameters<typeof fromTokenUsage>[0]);
      usage.cache_hits++;
      usage.cached_input_tokens += t.input;
      usage.cached_output_tokens += t.output;
      usage.cached_total_tokens += t.total;
      return;
    }
    const t = spentTokens(message, output);
    usage.input_tokens += t.input;
    usage.output_tokens += t.output;
    usage.total_tokens += t.total;
  }

  override handleLLMError(_err: unknown, runId: string): void {
    this.usageOf(runId).failed_calls++;
  }

  /** Per-agent counts (sorted by agent name) and their sum. */
  report(): UsageReport {
    const total = emptyUsage();
    const byAgent: Record<string, AgentUsage> = {};
    for (const agent of [...this.byAgent.keys()].sort()) {
      const usage = this.byAgent.get(agent)!;
      byAgent[agent] = { ...usage };
      for (const key of Object.keys(total) as (keyof AgentUsage)[]) total[key] += usage[key];
    }
    return { total, by_agent: byAgent };
  }
}
