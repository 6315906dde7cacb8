import type { BaseLanguageModelInput } from "@langchain/core/language_models/base";
import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
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

type StructuredRunnable = Runnable<BaseLanguageModelInput, Record<string, unknown>>;

/** Each model's structured runnables, by schema and name (structuredRunnable). */
const runnables = new WeakMap<ChatOpenAI, WeakMap<z.ZodType, Map<string, StructuredRunnable>>>();

/**
 * The model bound to the schema's response format with its output parser, built once per model, schema and name
 * instead of on every call: building it makes a new bound model (with its own OpenAI client, made on its first
 * request) and converts the schema to JSON schema. Stateless between calls, so concurrent calls share it.
 */
function structuredRunnable(model: ChatOpenAI, schema: z.ZodType, name: string): StructuredRunnable {
  let bySchema = runnables.get(model);
  if (!bySchema) runnables.set(model, (bySchema = new WeakMap()));
  let byName = bySchema.get(schema);
  if (!byName) bySchema.set(schema, (byName = new Map()));
  let runnable = byName.get(name);
  if (!runnable) byName.set(name, (runnable = model.withStructuredOutput(schema as z.ZodType & Record<string, unknown>, { name, method: "jsonSchema" })));
  return runnable;
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
  const structured = structuredRunnable(model, schema, name);
  try {
    return (await structured.invoke([...messages], config)) as T;
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
      return (await structured.invoke(again, config)) as T;
    } catch (second) {
      if (!isOutputError(second)) throw second;
      throw new LlmOutputError(`the model's reply did not match the ${name} schema twice: ${describeOutputError(second)}`);
    }
  }
}
