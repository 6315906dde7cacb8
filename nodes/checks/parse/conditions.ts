import { toFinite } from "../../../artifacts/json-values.js";

const COMPARATOR =
  /(?:<=?|>=?|≤|≥|less(?: or equal)? (?:than|to)|greater(?: or equal)? (?:than|to)|more than|above|below|at most|at least|lower than|higher than|not greater than|not more than|exceed(?:s|ing)?)\s*(-?\d*\.?\d+(?:e-?\d+)?)\s*(%)?/i;

/** A number from a condition text, "%" turned into a fraction: "… less or equal to 5%" → 0.05. */
export function conditionThreshold(condition: string | null): number | null {
  if (!condition) return null;
  const m = COMPARATOR.exec(condition);
  if (!m?.[1]) return null;
  const n = Number(m[1]);
  if (!Number.isFinite(n)) return null;
  return m[2] ? n / 100 : n;
}

/** The threshold a condition names for one kind of column, compiled once (not per drift check read). */
const driftScore = (kind: string) => new RegExp(`${kind} drift score\\s*(?:<=?|less than)\\s*(-?\\d*\\.?\\d+)`, "i");
const CATEGORICAL_DRIFT = driftScore("categorical");
const NUMERICAL_DRIFT = driftScore("numerical");

/**
 * Deepchecks drift conditions name separate thresholds for categorical and numerical columns
 * ("categorical drift score < 0.2 and numerical drift score < 0.1"); a single "drift score < x" applies to both.
 */
export function driftThresholds(condition: string | null): { categorical: number | null; numerical: number | null } {
  if (!condition) return { categorical: null, numerical: null };
  const pick = (pattern: RegExp) => {
    const m = pattern.exec(condition);
    return m?.[1] ? Number(m[1]) : null;
  };
  const any = conditionThreshold(condition);
  return { categorical: pick(CATEGORICAL_DRIFT) ?? any, numerical: pick(NUMERICAL_DRIFT) ?? any };
}

/** Drift methods Deepchecks uses for categorical columns; the rest (KS, EMD) are numerical. */
export function isCategoricalMethod(method: string | undefined): boolean {
  return !!method && /cramer|psi|jensen|chi|categor/i.test(method);
}

/**
 * The Python dict literal Deepchecks puts in "More Info", e.g. `{'Brightness': '0.39', 'RMS Contrast': '0.27'}`
 * or `{'Brightness': {'late_blight': '0.38'}}`, as a JSON value; null when there is none or it does not parse.
 */
export function moreInfoDict(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return null;
  try {
    const parsed: unknown = JSON.parse(pythonLiteralToJson(text.slice(start, end + 1)));
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Rewrites single-quoted strings and None/True/False of a Python literal into JSON. */
function pythonLiteralToJson(src: string): string {
  let out = "";
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      let body = "";
      while (j < src.length && src[j] !== c) {
        if (src[j] === "\\" && j + 1 < src.length) body += src[++j];
        else body += src[j];
        j++;
      }
      out += JSON.stringify(body);
      i = j;
    } else if (src.startsWith("None", i)) {
      out += "null";
      i += 3;
    } else if (src.startsWith("True", i) || src.startsWith("False", i)) {
      out += src.startsWith("True", i) ? "true" : "false";
      i += src.startsWith("True", i) ? 3 : 4;
    } else out += c;
  }
  return out;
}

/** Flattens a More Info dict into (name, subject, score) triples: {'a': '0.3'} and {'a': {'cls': '0.38'}}. */
export function moreInfoScores(dict: Record<string, unknown> | null): Array<{ name: string; subject?: string; score: number | null }> {
  if (!dict) return [];
  return Object.entries(dict).flatMap(([name, v]) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v)) {
      return Object.entries(v as Record<string, unknown>).map(([subject, s]) => ({ name, subject, score: toFinite(s) }));
    }
    return [{ name, score: toFinite(v) }];
  });
}
