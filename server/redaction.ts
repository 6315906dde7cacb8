import { trackingEndpoint } from "../artifacts/mlflow/endpoint.js";
import type { ServiceSettings } from "../config/env.js";
import type { Logger } from "../config/logger.js";
import type { LlmConfig } from "../llm/config.js";

/** What replaces a secret in any text the service passes on. */
export const REDACTED = "[redacted]";

/**
 * Values shorter than this are not searched for: replacing every "ab" of a response would wreck it and reveal,
 * by the gaps, the very value. Real keys and tokens are far longer.
 */
const MIN_SECRET_LENGTH = 6;

/** Removes the configured secrets from text and from JSON-like values, by value. */
export interface Redactor {
  text(text: string): string;
  /** A copy of `value` with every string in it redacted (plain objects, arrays and errors are walked). */
  deep<T>(value: T): T;
  /** Whether a secret appears in JSON text as JSON.stringify writes it inside a string (quotes and backslashes escaped). */
  inJson(json: string): boolean;
}

/**
 * The secret values of the configuration as they can appear in text an upstream sends back: the LLM key, the
 * MLflow token or password (from the variables or the tracking URI), and the Authorization credential built from
 * them (a Basic one is base64, which no search for the password would find).
 */
export function configuredSecrets(settings: Readonly<ServiceSettings>, llmConfig: Pick<LlmConfig, "apiKey"> | null): string[] {
  const values = [llmConfig?.apiKey, settings.SERVICE_MLFLOW_TOKEN, settings.SERVICE_MLFLOW_PASSWORD];
  if (settings.SERVICE_MLFLOW_TRACKING_URI) {
    values.push(decodeURIComponent(new URL(settings.SERVICE_MLFLOW_TRACKING_URI).password));
    values.push(trackingEndpoint(settings).authorization?.split(" ")[1]);
  }
  if (settings.SERVICE_REDIS_URL) values.push(decodeURIComponent(new URL(settings.SERVICE_REDIS_URL).password));
  return [...new Set(values.filter((v): v is string => typeof v === "string" && v.length >= MIN_SECRET_LENGTH))];
}

/** A redactor for these secrets; the longest is replaced first, so one that contains another leaves no tail. */
export function createRedactor(secrets: readonly string[]): Redactor {
  const ordered = [...secrets].sort((a, b) => b.length - a.length);
  const text = (input: string) => {
    let out = input;
    for (const secret of ordered) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    return out;
  };
  const deep = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) return value.map(deep);
    if (value instanceof Error) {
      const copy = new Error(text(value.message));
      copy.name = value.name;
      return copy;
    }
    if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]));
    }
    return value;
  };
  // JSON escapes character by character, so a string holding a secret holds its escaped form once serialized.
  const escaped = ordered.map((secret) => JSON.stringify(secret).slice(1, -1));
  const inJson = (json: string) => escaped.some((secret) => json.includes(secret));
  if (ordered.length === 0) return { text: (t) => t, deep: (v) => v, inJson: () => false };
  return { text, deep: <T>(value: T) => deep(value) as T, inJson };
}

/** A logger whose message and fields pass through the redactor before they are written, children included. */
export function redactingLogger(logger: Logger, redactor: Redactor): Logger {
  const fieldsOf = (fields?: Record<string, unknown>) => (fields ? redactor.deep(fields) : fields);
  return {
    debug: (msg, fields) => logger.debug(redactor.text(msg), fieldsOf(fields)),
    info: (msg, fields) => logger.info(redactor.text(msg), fieldsOf(fields)),
    warn: (msg, fields) => logger.warn(redactor.text(msg), fieldsOf(fields)),
    error: (msg, fields) => logger.error(redactor.text(msg), fieldsOf(fields)),
    child: (fields) => redactingLogger(logger.child(redactor.deep(fields)), redactor),
  };
}
