/** Params kept at most, and the longest value kept (the rest is cut). */
const MAX_PARAMS = 500;
const MAX_VALUE = 1000;

/** Params as MLflow stores them: strings, Python spelling for booleans and None. */
export function stringifyParams(params: unknown): Record<string, string> {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params).slice(0, MAX_PARAMS)) out[k] = paramText(v).slice(0, MAX_VALUE);
  return out;
}

function paramText(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "True" : "False";
  if (v === null || v === undefined) return "None";
  if (typeof v === "number") return String(v);
  return JSON.stringify(v) ?? String(v);
}
