import type { RunnableConfig } from "@langchain/core/runnables";
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
  const structured = model.withStructuredOutput(schema as z.ZodType<T> & Record<string, unknown>, { name, method: "jsonSchema" });
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
