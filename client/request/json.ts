/** Marks a non-finite number while JSON.stringify runs; it cannot occur in real text (NUL). */
const SENTINEL = "\u0000nonfinite:";
const TOKEN = new RegExp(`"${SENTINEL.replace("\u0000", "\\\\u0000")}(NaN|Infinity|-Infinity)"`, "g");

/**
 * JSON text that keeps NaN and ±Infinity as the bare tokens Python writes and the service reads
 * (ARTIFACTS.md), where JSON.stringify would turn them into null and hide a diverged loss.
 */
export function stringifyRequest(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? `${SENTINEL}${v}` : v), indent);
  return text.replace(TOKEN, "$1");
}
