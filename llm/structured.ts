import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { AIMessageChunk } from "@langchain/core/messages";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import type { ChatMessage } from "./prompt-kit.js";

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

/** A model bound to one schema's response format. */
type StructuredModel = Runnable<BaseLanguageModelInput, AIMessageChunk>;

/** Each model's structured bindings, by schema and name (structuredModel). */
const bindings = new WeakMap<ChatOpenAI, WeakMap<z.ZodType, Map<string, StructuredModel>>>();

/**
 * The model bound to the schema's response format, built once per model, schema and name instead of on every
 * call: building it makes a new bound model (with its own OpenAI client, made on its first request) and converts
 * the schema to JSON schema. The binding is the one ChatOpenAI's `withStructuredOutput(schema, { name, method:
 * "jsonSchema" })` makes (the same request, the same structured-output metadata for traces), without the
 * output parser it pipes the model into (readReply says why). Stateless between calls, so concurrent calls share it.
 */
function structuredModel(model: ChatOpenAI, schema: z.ZodType, name: string): StructuredModel {
  let bySchema = bindings.get(model);
  if (!bySchema) bindings.set(model, (bySchema = new WeakMap()));
  let byName = bySchema.get(schema);
  if (!byName) bySchema.set(schema, (byName = new Map()));
  let bound = byName.get(name);
  if (!bound) {
    const asJsonSchema = toJsonSchema(schema as z.ZodType & Record<string, unknown>) as { description?: unknown };
    const description = typeof asJsonSchema.description === "string" ? asJsonSchema.description : undefined;
    bound = model.withConfig({
      outputVersion: "v0",
      response_format: { type: "json_schema", json_schema: { name, description, schema: schema as z.ZodType & Record<string, unknown> } },
      ls_structured_output_format: { kwargs: { method: "json_schema" }, schema: { title: name, description, ...asJsonSchema } },
    } as Parameters<ChatOpenAI["withConfig"]>[0]);
    byName.set(name, bound);
  }
  return bound;
}

/**
 * The reply as the schema's value: its text parsed and checked against the schema, once. The OpenAI client parses
 * the reply as JSON on its way (a reply that is not JSON throws there), but the model is bound without LangChain's
 * schema parser (llm/chat-model.ts), and ChatOpenAI leaves the client's parsed value out of the message anyway;
 * withStructuredOutput's pipeline parsed the text again with LangChain's StructuredOutputParser, which first
 * rewrites every string literal of the reply with a regular expression (for fenced or unescaped replies, which
 * the client has refused by then), and ran the pipeline and its parser as traced runs of their own: milliseconds
 * of CPU per analysis, after each answer, on the critical path. A reply from the response cache is read the same
 * way. A failure here is an output error like the client's own (a SyntaxError or the schema's error), so the
 * caller asks once more.
 */
function readReply<T>(schema: z.ZodType<T>, reply: AIMessageChunk): T {
  return schema.parse(JSON.parse(reply.text));
}

/** One structured call: the bound model's request, then its reply read (readReply). */
async function askOnce<T>(bound: StructuredModel, schema: z.ZodType<T>, messages: ChatMessage[], config: RunnableConfig): Promise<T> {
  return readReply(schema, await bound.invoke(messages, config));
}

/**
 * Asks for structured output (OpenAI json_schema, strict) and validates it with the zod schema. A reply that is
 * not JSON or breaks the schema is asked for once more, with the problem stated; a second bad reply throws
 * LlmOutputError. Transport failures are the client's (bounded) retries, not this one's.
 */
export async function invokeStructured<T>(
  model: ChatOpenAI,
  schema: z.ZodType<T>,
  name: string,
  messages: readonly ChatMessage[],
  config: RunnableConfig,
): Promise<T> {
  const bound = structuredModel(model, schema, name);
  try {
    return await askOnce(bound, schema, [...messages], config);
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
      return await askOnce(bound, schema, again, config);
    } catch (second) {
      if (!isOutputError(second)) throw second;
      throw new LlmOutputError(`the model's reply did not match the ${name} schema twice: ${describeOutputError(second)}`);
    }
  }
}
