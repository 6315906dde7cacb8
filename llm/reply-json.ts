/**
 * The JSON object in a model's reply text. Local models often wrap it in a Markdown fence and a sentence or two
 * ("Here is the review: ```json {…} ``` Let me know…"), or put prose before a bare object: the object is taken
 * out before it is parsed and validated. A reply that is JSON already is returned as it is.
 */

const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/g;

/** The end of the balanced {…} starting at `start` (strings and escapes respected), or -1. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

/** The first balanced object of the text that parses, or null. */
function firstObject(text: string): string | null {
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    const end = objectEnd(text, start);
    if (end === -1) return null;
    const candidate = text.slice(start, end + 1);
    try {
      JSON.parse(candidate);
      return candidate;
    } catch {
      // A brace in the prose ("{x}"): try the next one.
    }
  }
  return null;
}

/**
 * The JSON text to parse: the reply itself when it is JSON, else the first fenced block holding an object, else the
 * first balanced object in the prose; the trimmed reply when none is found (its parse error is then the one told).
 */
export function jsonOfReply(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") && trimmed.endsWith("}")) return trimmed;
  for (const fence of trimmed.matchAll(FENCE)) {
    const inner = fence[1]!.trim();
    const found = inner.startsWith("{") ? firstObject(inner) : null;
    if (found) return found;
  }
  return firstObject(trimmed) ?? trimmed;
}
