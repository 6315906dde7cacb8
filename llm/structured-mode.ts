import { z } from "zod";

/**
 * How a structured answer is asked of the server, best first: OpenAI's `response_format: json_schema`, a forced
 * function call whose parameters are the schema, `response_format: json_object` (JSON mode) with the schema in
 * the prompt, or the schema in the prompt alone. docs/llm.md says which local servers take which.
 */
export const STRUCTURED_MODES = ["json_schema", "tools", "json_mode", "prompt"] as const;
export type StructuredMode = (typeof STRUCTURED_MODES)[number];

/** SERVICE_LLM_STRUCTURED_OUTPUT: `auto` negotiates (the default), a mode pins it. */
export const StructuredOutputSettingSchema = z.enum(["auto", ...STRUCTURED_MODES]);
export type StructuredOutputSetting = z.infer<typeof StructuredOutputSettingSchema>;

/** A 400 about the context or the token budget is not a refused format: a simpler format would not help. */
const NOT_ABOUT_FORMAT = /context|token|too long|maximum length|max_tokens/i;

/**
 * Whether an error is the server refusing the request's format: a 400 (or 422 from validating front ends) that
 * does not speak of the context length. A server that refuses `json_schema` says so this way (older vLLM and
 * llama.cpp builds, proxies that validate against an older OpenAI API).
 */
export function isFormatRefusal(error: unknown): boolean {
  const e = error as { status?: unknown; message?: unknown } | null;
  return (e?.status === 400 || e?.status === 422) && !NOT_ABOUT_FORMAT.test(String(e?.message ?? ""));
}

/**
 * The mode each endpoint (base URL and model) was found to take, shared by every call of the process: the first
 * call that is refused moves it down, every later one starts there. Endpoints are few (one per configuration).
 */
export class StructuredModeMemory {
  private readonly modes = new Map<string, StructuredMode>();

  /** The mode to try first at an endpoint. */
  current(endpoint: string): StructuredMode {
    return this.modes.get(endpoint) ?? STRUCTURED_MODES[0];
  }

  /** After `refused` was refused: the next mode (remembered), or null when none is left. */
  fallBack(endpoint: string, refused: StructuredMode): StructuredMode | null {
    const next = STRUCTURED_MODES[STRUCTURED_MODES.indexOf(refused) + 1] ?? null;
    if (next === null) return null;
    // Concurrent calls refused at once must not move the endpoint past a mode another call already reached.
    const known = this.current(endpoint);
    const chosen = STRUCTURED_MODES.indexOf(known) > STRUCTURED_MODES.indexOf(next) ? known : next;
    this.modes.set(endpoint, chosen);
    return chosen;
  }
}

/** The process's memory of endpoints' modes. */
export const structuredModes = new StructuredModeMemory();

/** An endpoint's key: where the calls go and which model answers them. */
export const endpointKey = (baseUrl: string, model: string) => `${baseUrl} ${model}`;
