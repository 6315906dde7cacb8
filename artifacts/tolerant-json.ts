/**
 * JSON.parse that also accepts the bare NaN, Infinity and -Infinity tokens Python's json.dumps writes
 * (Deepchecks, Evidently, Hugging Face trainer_state.json). Tokens inside strings are left alone.
 */
export function parseTolerantJson(text: string): unknown {
  if (!/NaN|Infinity/.test(text)) return JSON.parse(text);
  return JSON.parse(quoteNonFiniteTokens(text), (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(SENTINEL) ? NON_FINITE[value] ?? value : value,
  );
}

const SENTINEL = "\u0000nonfinite:";
const NON_FINITE: Record<string, number> = {
  [`${SENTINEL}NaN`]: Number.NaN,
  [`${SENTINEL}Infinity`]: Number.POSITIVE_INFINITY,
  [`${SENTINEL}-Infinity`]: Number.NEGATIVE_INFINITY,
};

/** Rewrites bare non-finite tokens outside strings into sentinel strings the reviver turns back into numbers. */
function quoteNonFiniteTokens(text: string): string {
  const out: string[] = [];
  let last = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    const token = c === 0x4e ? "NaN" : c === 0x49 ? "Infinity" : c === 0x2d && text.startsWith("-Infinity", i) ? "-Infinity" : null;
    if (token && text.startsWith(token, i)) {
      out.push(text.slice(last, i), JSON.stringify(SENTINEL + token));
      i += token.length - 1;
      last = i + 1;
    }
  }
  out.push(text.slice(last));
  return out.join("");
}
