import { Prng } from "./prng.js";

/**
 * Seeded structural mutations of a JSON request body, for robustness fuzzing through the HTTP API. Each mutation
 * replaces (or removes) one subtree of the parsed body, or breaks the serialized text, and reports where, so a
 * test can check that a 400 names that place. Serialization writes bare NaN/Infinity (the service accepts what
 * Python's json.dumps writes) and splices in text JSON.stringify cannot make (deep nesting, lone surrogates).
 */

export type JsonPath = (string | number)[];

export interface Mutation {
  /** Operator name, e.g. "wrong_type", "deep_nesting", "truncate". */
  kind: string;
  /** The mutated subtree ([] for the whole body); null for text-level mutations (truncate). */
  path: JsonPath | null;
  /** Human-readable: what replaced what. */
  note: string;
  /** The request body text to send. */
  text: string;
  /** The value put at `path` (a Raw for spliced text; undefined for deletions and text-level mutations). */
  value?: unknown;
}

/** `a.b[2].c`, as the service formats zod issue paths; "(body)" for the root. */
export function formatJsonPath(path: JsonPath): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${p}` : p;
  return out || "(body)";
}

/** Every path in the value, with its depth (root excluded). */
function allPaths(value: unknown, limit = 50_000): JsonPath[] {
  const out: JsonPath[] = [];
  const walk = (v: unknown, path: JsonPath) => {
    if (out.length >= limit) return;
    if (path.length > 0) out.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  };
  walk(value, []);
  return out;
}

function getAt(root: unknown, path: JsonPath): unknown {
  let v: any = root;
  for (const p of path) v = v?.[p];
  return v;
}

/** A structured clone that keeps NaN/Infinity (JSON.parse(JSON.stringify()) would not). */
const clone = <T>(v: T): T => structuredClone(v);

function setAt(root: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = clone(root) as any;
  let parent = copy;
  for (const p of path.slice(0, -1)) parent = parent[p];
  parent[path.at(-1)!] = value;
  return copy;
}

function deleteAt(root: unknown, path: JsonPath): unknown {
  const copy = clone(root) as any;
  let parent = copy;
  for (const p of path.slice(0, -1)) parent = parent[p];
  const last = path.at(-1)!;
  if (Array.isArray(parent)) parent.splice(last as number, 1);
  else delete parent[last];
  return copy;
}

/** Placeholders replaced in the serialized text by what JSON.stringify cannot write. */
const RAW_PREFIX = "\u0000raw:";

/** Compact JSON with bare NaN/Infinity and raw splices (`raw(text)` values). */
export function serialize(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v) => {
    if (typeof v === "number" && !Number.isFinite(v)) return `${RAW_PREFIX}${Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity"}`;
    if (v instanceof Raw) {
      raws.push(v.text);
      return `${RAW_PREFIX}#${raws.length - 1}`;
    }
    return v;
  });
  return (text ?? "null").replace(/"\\u0000raw:([^"]*)"/g, (_m, t: string) => (t.startsWith("#") ? raws[Number(t.slice(1))]! : t));
}

/** A value serialized verbatim (already JSON text). */
export class Raw {
  constructor(readonly text: string) {}
  toJSON() {
    return this;
  }
}

/** JSON type of a value; a Raw splice counts as what its text starts with. */
export const typeOf = (v: unknown): string => {
  if (v instanceof Raw) return v.text.startsWith("[") ? "array" : v.text.startsWith("{") ? "object" : v.text.startsWith('"') ? "string" : "number";
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
};

const WRONG_TYPES: unknown[] = ["x", "", 42, -1, 0.5, true, false, [], {}, [1, 2, 3], { a: 1 }, ["a", null]];
const NUMBERS: unknown[] = [
  1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE, -0, 2 ** 53 + 2, -(2 ** 63), 1e21, 0, -1, 1e-300,
  Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, "NaN", "Infinity", "-Infinity", new Raw("1e999"), new Raw("-1e999"),
];
const STRINGS: unknown[] = [
  "\u0000", "a\u0000b", "\u001b[31mred\u001b[0m", "\r\n\t\b\f", "\u2028\u2029", "\u202eevil", "nan", "inf", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  new Raw('"\\ud800"'), new Raw('"\\udfff\\ud800x"'), "x".repeat(100_000), "__proto__", "constructor", "{\"a\": 1}", "../../../etc/passwd",
];

/** One seeded mutation of `base` (a parsed request body). */
export function mutate(base: unknown, rng: Prng): Mutation {
  const paths = allPaths(base);
  // Pick a depth first, then a node at that depth, so shallow structure is hit as often as long leaf arrays.
  const byDepth = new Map<number, JsonPath[]>();
  for (const p of paths) (byDepth.get(p.length) ?? byDepth.set(p.length, []).get(p.length)!).push(p);
  const depths = [...byDepth.keys()].sort((a, b) => a - b);
  const pickPath = (): JsonPath => (rng.chance(0.04) || depths.length === 0 ? [] : rng.pick(byDepth.get(rng.pick(depths))!));

  const op = rng.pick(["wrong_type", "null", "number", "empty", "deep_nesting", "string", "delete", "wrap", "truncate", "huge_array", "proto_key"] as const);
  if (op === "truncate") {
    const text = serialize(base);
    const cut = rng.int(0, Math.max(0, text.length - 2));
    return { kind: op, path: null, note: `cut at ${cut} of ${text.length} chars`, text: text.slice(0, cut) };
  }
  const path = pickPath();
  const old = getAt(base, path);
  const at = formatJsonPath(path);
  const replace = (value: unknown, note: string): Mutation => ({ kind: op, path, note: `${at}: ${typeOf(old)} → ${note}`, text: serialize(setAt(base, path, value)), value });
  switch (op) {
    case "wrong_type": {
      const options = WRONG_TYPES.filter((v) => typeOf(v) !== typeOf(old));
      const v = rng.pick(options);
      return replace(v, JSON.stringify(v));
    }
    case "null":
      return replace(null, "null");
    case "number": {
      const v = rng.pick(NUMBERS);
      return replace(v, v instanceof Raw ? v.text : typeof v === "number" ? String(v) : JSON.stringify(v));
    }
    case "empty": {
      const v = rng.pick([[], {}, ""]);
      return replace(v, JSON.stringify(v));
    }
    case "deep_nesting": {
      const depth = rng.pick([64, 512, 3000, 20_000]);
      const arrays = rng.chance(0.5);
      const text = arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
      return replace(new Raw(text), `${arrays ? "arrays" : "objects"} nested ${depth} deep`);
    }
    case "string": {
      const v = rng.pick(STRINGS);
      return replace(v, v instanceof Raw ? v.text : JSON.stringify(v).slice(0, 40));
    }
    case "delete":
      if (path.length === 0) return replace({}, "{}");
      return { kind: op, path, note: `${at}: deleted`, text: serialize(deleteAt(base, path)) };
    case "wrap": {
      const v = rng.chance(0.5) ? [old] : { value: old };
      return replace(v, Array.isArray(v) ? "[old]" : "{value: old}");
    }
    case "huge_array": {
      // 20,000 elements of one kind: numbers, nulls or small objects.
      const kind = rng.pick(["number", "null", "object"] as const);
      const v = Array.from({ length: 20_000 }, (_, i) => (kind === "number" ? i * 0.5 : kind === "null" ? null : { step: i, value: 1 / (i + 1) }));
      return replace(v, `array of 20000 ${kind}s`);
    }
    case "proto_key": {
      // An object whose own keys are __proto__ / constructor / prototype (JSON.parse keeps them as own keys).
      const key = rng.pick(["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"]);
      return replace(new Raw(`{"${key}": {"polluted": true}, "x": 1}`), `{"${key}": {...}}`);
    }
  }
}
