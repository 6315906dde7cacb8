import { z } from "zod";
import { ConfigError, type RawEnv } from "../config/env.js";

/** Language-model configuration, spec §2.3. */
export const LlmConfigSchema = z.object({
  apiKey: z.string().nullable(),
  baseUrl: z.string().nullable(),
  modelName: z.string().min(1),
  temperature: z.number(),
  maxTokens: z.number().int().positive(),
  cache: z.boolean(),
  trackUsage: z.boolean(),
});
export type LlmConfig = z.infer<typeof LlmConfigSchema>;

/** Where calls go without SERVICE_LLM_BASE_URL. */
export const OPENAI_BASE_URL = "https://api.openai.com/v1";

/** Documented defaults (spec §2.3 table); loading from the environment does not apply them (rule 1). */
export const LLM_DEFAULTS = { temperature: 0.7, maxTokens: 8000, cache: true, trackUsage: true } as const;

export interface LlmConfigLoad {
  /** null: no SERVICE_LLM_MODEL_NAME, the service runs deterministic only. */
  config: LlmConfig | null;
  warnings: string[];
}

const FALSE_LOOKING = /^(false|0|no|off)$/i;

/** Rule 2: any non-empty text is true, unset or empty is false; warn when the text reads like "false". */
function truthyString(raw: RawEnv, name: string, warnings: string[]): boolean {
  const value = raw[name];
  if (value === undefined || value === "") return false;
  if (FALSE_LOOKING.test(value.trim())) {
    warnings.push(`${name}="${value}" counts as true (spec §2.3: any non-empty value is true); unset it to disable`);
  }
  return true;
}

function required(raw: RawEnv, name: string): string {
  const value = raw[name];
  if (value === undefined || value.trim() === "") {
    throw new ConfigError(`${name} must be set when SERVICE_LLM_MODEL_NAME is set (spec §2.3: no fallback on load)`);
  }
  return value.trim();
}

/**
 * Loads the LLM configuration exactly as spec §2.3 says: temperature as a float and max_tokens as an integer,
 * both required once a model name is set; cache and track_usage true for any non-empty text.
 */
export function loadLlmConfig(raw: RawEnv): LlmConfigLoad {
  const warnings: string[] = [];
  const modelName = raw.SERVICE_LLM_MODEL_NAME?.trim();
  if (!modelName) return { config: null, warnings };

  const temperatureText = required(raw, "SERVICE_LLM_TEMPERATURE");
  const temperature = Number.parseFloat(temperatureText);
  if (!Number.isFinite(temperature) || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(temperatureText)) {
    throw new ConfigError(`SERVICE_LLM_TEMPERATURE must be a number, got "${temperatureText}"`);
  }
  const maxTokensText = required(raw, "SERVICE_LLM_MAX_TOKENS");
  if (!/^[+-]?\d+$/.test(maxTokensText) || Number.parseInt(maxTokensText, 10) <= 0) {
    throw new ConfigError(`SERVICE_LLM_MAX_TOKENS must be a positive integer, got "${maxTokensText}"`);
  }
  const baseUrl = raw.SERVICE_LLM_BASE_URL?.trim() || null;
  if (baseUrl !== null && !URL.canParse(baseUrl)) {
    throw new ConfigError(`SERVICE_LLM_BASE_URL is not a URL: "${baseUrl}"`);
  }
  const config: LlmConfig = {
    apiKey: raw.SERVICE_LLM_API_KEY || null,
    baseUrl,
    modelName,
    temperature,
    maxTokens: Number.parseInt(maxTokensText, 10),
    cache: truthyString(raw, "SERVICE_LLM_CACHE", warnings),
    trackUsage: truthyString(raw, "SERVICE_LLM_TRACK_USAGE", warnings),
  };
  return { config, warnings };
}

/** The configuration as it may be shown or logged: never the API key. */
export function describeLlmConfig(config: LlmConfig | null): Record<string, unknown> {
  if (!config) return { mode: "deterministic" };
  const { apiKey, ...rest } = config;
  return { mode: "llm", ...rest, apiKey: apiKey ? "(set)" : null };
}
