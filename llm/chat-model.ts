import type { BaseCache } from "@langchain/core/caches";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { RunnableConfig } from "@langchain/core/runnables";
import { AsyncCaller } from "@langchain/core/utils/async_caller";
import { ChatOpenAI, type ChatOpenAICallOptions, ChatOpenAICompletions, type OpenAIClient, wrapOpenAIClientError } from "@langchain/openai";
import { type LlmConfig, OPENAI_BASE_URL } from "./config.js";
import { httpFetch } from "./http-fetch.js";
import { isOutputError } from "./structured.js";

/** How calls reach the endpoint, beyond spec §2.3's fields. */
export interface ChatModelOptions {
  /** Per-request time-out in ms (SERVICE_LLM_TIMEOUT_MS). */
  timeoutMs: number;
  /** LangChain's retries per call on transient failures (SERVICE_LLM_MAX_RETRIES). */
  maxRetries: number;
  /** The response cache, or null for none (spec §2.3 `cache`). */
  cache: BaseCache | null;
  /** Process-wide callbacks on every call (the LLM call log). */
  callbacks?: Callbacks;
  /** The HTTP client (httpFetch by default); replaced by the recorder and in replays. */
  fetch?: typeof fetch;
}

/** Sent when no key is configured: local OpenAI-compatible servers accept any, and the SDK never reads OPENAI_API_KEY. */
const NO_API_KEY = "not-set";

/** Exposes the default caller's failed-attempt rule (4xx never, 429 per Retry-After, abort never) for reuse. */
class DefaultRetryRule extends AsyncCaller {
  get rule() {
    return this.onFailedAttempt;
  }
}
const retryTransient = new DefaultRetryRule({}).rule;

/**
 * The failed-attempt rule: a reply that does not parse or match the schema is not retried by the client (the
 * structured call retries it once, with the error in the prompt); anything else follows LangChain's rules.
 */
export function onFailedAttempt(error: unknown): void {
  if (isOutputError(error)) throw error;
  retryTransient?.(error);
}

/**
 * Chat completions sent with the SDK's `create`, never its `parse`: ChatOpenAI calls `parse` for a json_schema
 * response format, which throws on any reply that is not bare JSON, before the structured call can take the JSON
 * out of a fence or prose around it (llm/reply-json.ts) and validate it with the schema (llm/structured.ts).
 */
class ServiceCompletions extends ChatOpenAICompletions {
  override async completionWithRetry(request: OpenAIClient.Chat.ChatCompletionCreateParamsStreaming, requestOptions?: OpenAIClient.RequestOptions): Promise<AsyncIterable<OpenAIClient.Chat.Completions.ChatCompletionChunk>>;
  override async completionWithRetry(request: OpenAIClient.Chat.ChatCompletionCreateParamsNonStreaming, requestOptions?: OpenAIClient.RequestOptions): Promise<OpenAIClient.Chat.Completions.ChatCompletion>;
  override async completionWithRetry(
    request: OpenAIClient.Chat.ChatCompletionCreateParams,
    requestOptions?: OpenAIClient.RequestOptions,
  ): Promise<AsyncIterable<OpenAIClient.Chat.Completions.ChatCompletionChunk> | OpenAIClient.Chat.Completions.ChatCompletion> {
    const { maxRetries, ...sdkOptions } = (requestOptions ?? {}) as OpenAIClient.RequestOptions & { maxRetries?: number };
    const clientOptions = this._getClientOptions(sdkOptions);
    return this.caller.callWithOptions({ maxRetries }, async () => {
      try {
        return await this.client.chat.completions.create(request, clientOptions);
      } catch (e) {
        throw wrapOpenAIClientError(e);
      }
    });
  }
}

/**
 * ChatOpenAI whose cache key is the request itself: the endpoint and the body's parameters (model, temperature,
 * max_tokens, response_format, …). LangChain's default serializes every call option, and inside a LangGraph
 * node those include the run's `context` (all the deps), so no two analyses would ever share a key.
 */
class ServiceChatModel extends ChatOpenAI {
  private serialized: ReturnType<ChatOpenAI["toJSON"]> | undefined;

  /**
   * LangChain serializes the model for every call's start event (the run's `serialized` in traces): the
   * constructor's fields with the key replaced by its secret name, walked up the class chain. A model's fields
   * never change once built, so it is serialized once; readers only read it.
   */
  override toJSON() {
    this.serialized ??= super.toJSON();
    return this.serialized;
  }

  override _getSerializedCacheKeyParametersForCall({ config: _config, ...callOptions }: this["ParsedCallOptions"] & { config?: RunnableConfig }): string {
    return JSON.stringify({ endpoint: this.clientConfig.baseURL, ...this.invocationParams(callOptions) });
  }

  /**
   * ChatOpenAI's own withConfig (used by withStructuredOutput) would return a plain ChatOpenAI. A response format
   * given as a zod schema is bound as the endpoint receives it (JSON schema): LangChain would convert it again on
   * each of the four invocationParams of every call (the request, the cache key, two for tracing), milliseconds of
   * CPU per call on the way to the model. The converted format is only read. It is bound without the parser
   * LangChain attaches to it (not part of the request): the OpenAI client would run the reply through the zod
   * schema for a value ChatOpenAI then drops, and the structured call reads the reply with the same schema
   * (llm/structured.ts), so each answer was checked twice. The client still parses the reply as JSON.
   */
  override withConfig(config: Partial<ChatOpenAICallOptions>) {
    const bound = new ServiceChatModel(this.fields);
    bound.defaultOptions = { ...this.defaultOptions, ...config };
    if (config.response_format) {
      // The converted format always carries its schema, which the call options type requires; its enumerable
      // fields are the request's, the client-side parser is not one of them.
      bound.defaultOptions.response_format = { ...this._getResponseFormat(config.response_format) } as ChatOpenAICallOptions["response_format"];
    }
    return bound;
  }
}

/**
 * The chat model of spec §2.3: temperature and max_tokens as configured, an explicit time-out and bounded
 * retries, the configured endpoint and key only (never OPENAI_* from the environment). Never `streaming: true`:
 * that estimates tokens with tiktoken data fetched from the internet.
 */
export function createChatModel(config: LlmConfig, options: ChatModelOptions): ChatOpenAI {
  if (!Number.isInteger(options.maxRetries) || options.maxRetries < 0) throw new RangeError(`maxRetries must be an integer ≥ 0, got ${options.maxRetries}`);
  if (!(options.timeoutMs > 0)) throw new RangeError(`timeoutMs must be > 0, got ${options.timeoutMs}`);
  const fields = {
    model: config.modelName,
    apiKey: config.apiKey ?? NO_API_KEY,
    temperature: config.temperature,
    maxTokens: config.maxTokens,
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    onFailedAttempt,
    streaming: false,
    cache: options.cache ?? false,
    callbacks: options.callbacks,
    configuration: {
      baseURL: config.baseUrl ?? OPENAI_BASE_URL,
      fetch: options.fetch ?? httpFetch,
    },
  };
  return new ServiceChatModel({ ...fields, completions: new ServiceCompletions(fields) });
}
