import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { AIMessageChunk } from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import type { ChatMessage } from "./prompt-kit.js";
import { jsonOfReply } from "./reply-json.js";
import { endpointKey, isFormatRefusal, type StructuredMode, type StructuredModeMemory, structuredModes, type StructuredOutputSetting } from "./structured-mode.js";

/** The model's reply could not be used twice in a row; the message says what was wrong with it. */
export class LlmOutputError extends Error {
  override name = "LlmOutputError";
}

/** A reply that is not JSON (SyntaxError from the client's parse) or does not match the schema (zod). */
export function isOutputError(error: unknown): boolean {
  if (error instanceof SyntaxError || error instanceof z.core.$ZodError) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === "SyntaxError" || name === "ZodError" || name === "$ZodError";
}

/** A one-line account of an output error: the JSON error, or the first schema issues with their paths. */
export function describeOutputError(error: unknown): string {
  const issues = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues;
  if (Array.isArray(issues)) {
    return issues
      .slice(0, 3)
      .map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`)
      .join("; ");
  }
  return `not valid JSON (${(error as Error).message})`;
}

/** A model bound to one schema's request format. */
type StructuredModel = Runnable<BaseLanguageModelInput, AIMessageChunk>;

/** Each model's structured bindings, by schema, then name and mode (structuredModel). */
const bindings = new WeakMap<ChatOpenAI, WeakMap<z.ZodType, Map<string, StructuredModel>>>();

/** The schema as JSON schema and its description, converted once per schema. */
const jsonSchemas = new WeakMap<z.ZodType, { schema: Record<string, unknown>; description: string | undefined }>();

function jsonSchemaOf(schema: z.ZodType): { schema: Record<string, unknown>; description: string | undefined } {
  let converted = jsonSchemas.get(schema);
  if (!converted) {
    const asJson = toJsonSchema(schema as z.ZodType & Record<string, unknown>) as Record<string, unknown>;
    converted = { schema: asJson, description: typeof asJson.description === "string" ? asJson.description : undefined };
    jsonSchemas.set(schema, converted);
  }
  return converted;
}

/** The call options that ask for the schema in one mode (none for `prompt`: the instruction does it). */
function modeOptions(mode: StructuredMode, schema: z.ZodType, name: string): Record<string, unknown> {
  const { schema: asJson, description } = jsonSchemaOf(schema);
  const traced = { kwargs: { method: mode === "tools" ? "function_calling" : mode === "json_schema" ? "json_schema" : "json_mode" }, schema: { title: name, description, ...asJson } };
  switch (mode) {
    case "json_schema":
      return { response_format: { type: "json_schema", json_schema: { name, description, schema: schema as z.ZodType & Record<string, unknown> } }, ls_structured_output_format: traced };
    case "tools":
      return { tools: [{ type: "function", function: { name, description: description ?? name, parameters: asJson } }], tool_choice: { type: "function", function: { name } }, ls_structured_output_format: traced };
    case "json_mode":
      return { response_format: { type: "json_object" }, ls_structured_output_format: traced };
    case "prompt":
      return { ls_structured_output_format: traced };
  }
}

/**
 * The model bound to the schema in one mode, built once per model, schema, name and mode instead of on every call:
 * building it makes a new bound model (with its own OpenAI client, made on its first request) and converts the
 * schema to JSON schema. In `json_schema` mode the binding is the one ChatOpenAI's `withStructuredOutput(schema,
 * { name, method: "jsonSchema" })` makes (the same request, the same structured-output metadata for traces),
 * without the output parser it pipes the model into (readReply says why). Stateless between calls, so concurrent
 * calls share it.
 */
function structuredModel(model: ChatOpenAI, schema: z.ZodType, name: string, mode: StructuredMode): StructuredModel {
  let bySchema = bindings.get(model);
  if (!bySchema) bindings.set(model, (bySchema = new WeakMap()));
  let byKey = bySchema.get(schema);
  if (!byKey) bySchema.set(schema, (byKey = new Map()));
  const key = `${mode} ${name}`;
  let bound = byKey.get(key);
  if (!bound) {
    bound = model.withConfig({ outputVersion: "v0", ...modeOptions(mode, schema, name) } as Parameters<ChatOpenAI["withConfig"]>[0]);
    byKey.set(key, bound);
  }
  return bound;
}

/**
 * The messages of one mode: for JSON mode and the prompt-only mode the schema is stated in the system message, as
 * those servers see nothing else of it (a function call and json_schema carry it in the request).
 */
function modeMessages(mode: StructuredMode, schema: z.ZodType, name: string, messages: readonly ChatMessage[]): ChatMessage[] {
  if (mode === "json_schema" || mode === "tools") return [...messages];
  const instruction = `Reply with only one JSON object, no other text, that matches the JSON schema "${name}": ${JSON.stringify(jsonSchemaOf(schema).schema)}`;
  const [first, ...rest] = messages;
  return first?.role === "system" ? [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest] : [{ role: "system", content: instruction }, ...messages];
}

/** The reply's JSON text: a forced function call's arguments (parsed or not by the client), else the message text. */
function replyJson(reply: AIMessageChunk): unknown {
  const call = reply.tool_calls?.[0];
  if (call) return call.args;
  const invalid = reply.invalid_tool_calls?.[0];
  return JSON.parse(jsonOfReply(invalid?.args ?? reply.text));
}

/**
 * The reply as the schema's value: its JSON taken out of fences and prose (llm/reply-json.ts), parsed and checked
 * against the schema, once. The model is bound without LangChain's schema parser (llm/chat-model.ts), and the
 * client does not parse the reply either (ServiceCompletions): withStructuredOutput's pipeline parsed the text again
 * with LangChain's StructuredOutputParser and ran the pipeline and its parser as traced runs of their own:
 * milliseconds of CPU per analysis, after each answer, on the critical path. A reply from the response cache is
 * read the same way. A failure here is an output error (a SyntaxError or the schema's error), so the caller asks
 * once more.
 */
function readReply<T>(schema: z.ZodType<T>, reply: AIMessageChunk): T {
  return schema.parse(replyJson(reply));
}

/** How the structured calls of one endpoint ask: the setting, the endpoint's key and the memory of its mode. */
export interface StructuredOptions {
  /** SERVICE_LLM_STRUCTURED_OUTPUT. */
  setting: StructuredOutputSetting;
  /** The endpoint's key (base URL and model), under which the negotiated mode is remembered. */
  endpoint: string;
  memory?: StructuredModeMemory;
}

/** The options of a model used as configured: `auto`, remembered under its own base URL and model. */
function defaultOptions(model: ChatOpenAI): StructuredOptions {
  return { setting: "auto", endpoint: endpointKey(String(model.clientConfig.baseURL ?? ""), model.model) };
}

/**
 * One structured call in the endpoint's mode. With `auto`, a server that refuses the mode (isFormatRefusal) moves
 * the endpoint to the next one (json_schema → tools → json_mode → prompt), remembered for every later call, and the
 * call is asked again in it; a pinned mode is used as it is.
 */
async function askInMode<T>(model: ChatOpenAI, schema: z.ZodType<T>, name: string, messages: readonly ChatMessage[], config: RunnableConfig, options: StructuredOptions): Promise<T> {
  const memory = options.memory ?? structuredModes;
  let mode = options.setting === "auto" ? memory.current(options.endpoint) : options.setting;
  for (;;) {
    try {
      return readReply(schema, await structuredModel(model, schema, name, mode).invoke(modeMessages(mode, schema, name, messages), config));
    } catch (error) {
      const next = options.setting === "auto" && isFormatRefusal(error) ? memory.fallBack(options.endpoint, mode) : null;
      if (next === null) throw error;
      mode = next;
    }
  }
}

/**
 * Asks for structured output (OpenAI json_schema, strict, or what the server takes: askInMode) and validates it
 * with the zod schema. A reply that is not JSON or breaks the schema is asked for once more, with the problem
 * stated; a second bad reply throws LlmOutputError. Transport failures are the client's (bounded) retries, not
 * this one's.
 */
export async function invokeStructured<T>(
  model: ChatOpenAI,
  schema: z.ZodType<T>,
  name: string,
  messages: readonly ChatMessage[],
  config: RunnableConfig,
  options: StructuredOptions = defaultOptions(model),
): Promise<T> {
  try {
    return await askInMode(model, schema, name, messages, config, options);
  } catch (first) {
    if (!isOutputError(first)) throw first;
    const again = [
      ...messages,
      {
        role: "user" as const,
        content: `Your previous reply could not be used: ${describeOutputError(first)}. Reply again with only the JSON object the ${name} schema asks for.`,
      },
    ];
    try {
      return await askInMode(model, schema, name, again, config, options);
    } catch (second) {
      if (!isOutputError(second)) throw second;
      throw new LlmOutputError(`the model's reply did not match the ${name} schema twice: ${describeOutputError(second)}`);
    }
  }
}
