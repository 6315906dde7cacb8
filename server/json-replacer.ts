import type { Redactor } from "./redaction.js";

/**
 * How every JSON answer is written (results, error bodies, SSE events, stored job results): a bigint as a
 * number, and the configured secrets removed by value wherever an upstream echoed them (an LLM gateway's error
 * body quoting the Authorization header).
 */
export function jsonReplacer(redactor: Redactor): (key: string, value: unknown) => unknown {
  return (_key, value) => (typeof value === "bigint" ? Number(value) : typeof value === "string" ? redactor.text(value) : value);
}
