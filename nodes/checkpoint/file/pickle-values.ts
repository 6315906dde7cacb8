/**
 * Inert stand-ins for what a pickle would build: nothing here is ever called or imported. A REDUCE/NEWOBJ/BUILD
 * becomes a `PyCall` that records which global it would have called with which arguments.
 */
export type PyValue =
  | null
  | boolean
  | number
  | string
  | PyValue[]
  | PyTuple
  | PyDict
  | PySet
  | PyBytes
  | PyGlobal
  | PyCall
  | PyPersistent
  | PyUnknown;

export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}

/** A dict, or an OrderedDict / dict subclass when `className` says so; keys keep their pickled values. */
export class PyDict {
  readonly entries: Array<[PyValue, PyValue]> = [];
  /** Attributes set by BUILD (torch stores `_metadata` on state-dict OrderedDicts). */
  state: PyValue | undefined = undefined;
  constructor(readonly className: string | null = null) {}

  get(key: string): PyValue | undefined {
    for (const [k, v] of this.entries) if (k === key) return v;
    return undefined;
  }

  has(key: string): boolean {
    return this.entries.some(([k]) => k === key);
  }

  /** The keys that are strings, in order. */
  stringKeys(): string[] {
    return this.entries.flatMap(([k]) => (typeof k === "string" ? [k] : []));
  }
}

export class PySet {
  constructor(readonly items: PyValue[], readonly frozen: boolean) {}
}

/** Bytes; `data` is null when the payload was larger than the reader keeps (it is skipped, not read). */
export class PyBytes {
  constructor(readonly length: number, readonly data: Uint8Array | null, readonly offset: number) {}
}

/** A reference to `module.name` (GLOBAL, INST or STACK_GLOBAL); "unknown" parts could not be resolved. */
export class PyGlobal {
  constructor(readonly module: string, readonly name: string) {}
  get qualified(): string {
    return `${this.module}.${this.name}`;
  }
}

/** What calling `callee(*args)` would have produced, plus what BUILD / SETITEMS / APPENDS added afterwards. */
export class PyCall {
  state: PyValue | undefined = undefined;
  readonly items: Array<[PyValue, PyValue]> = [];
  readonly appended: PyValue[] = [];
  constructor(readonly callee: PyValue, readonly args: PyValue[], readonly kwargs: PyValue | null = null) {}

  /** `module.name` of the callee when it is a global, else null. */
  get calleeName(): string | null {
    return this.callee instanceof PyGlobal ? this.callee.qualified : null;
  }
}

/** A persistent id (PERSID/BINPERSID): torch uses it for storages, `("storage", type, key, location, numel)`. */
export class PyPersistent {
  constructor(readonly pid: PyValue) {}
}

/** A value the reader could not know (stack underflow, out-of-band buffer, memo miss). */
export class PyUnknown {
  constructor(readonly reason: string) {}
}

/** The value as plain JSON (dicts with string keys, tuples as arrays), for hyperparameters and digests. */
export function toPlain(value: PyValue | undefined, depth = 0): unknown {
  if (depth > 12) return "…";
  if (value === undefined) return null;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.slice(0, 200).map((v) => toPlain(v, depth + 1));
  if (value instanceof PyTuple) return value.items.slice(0, 200).map((v) => toPlain(v, depth + 1));
  if (value instanceof PySet) return value.items.slice(0, 200).map((v) => toPlain(v, depth + 1));
  if (value instanceof PyDict) return plainEntries(value.entries, depth);
  if (value instanceof PyBytes) return `<${value.length} bytes>`;
  if (value instanceof PyGlobal) return value.qualified;
  if (value instanceof PyPersistent) return "<persistent>";
  if (value instanceof PyUnknown) return null;
  return plainCall(value, depth);
}

function plainEntries(entries: ReadonlyArray<[PyValue, PyValue]>, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries.slice(0, 500)) out[typeof k === "string" ? k : String(toPlain(k, depth + 1))] = toPlain(v, depth + 1);
  return out;
}

const SEQUENCE_TYPES = /^(__builtin__|builtins)\.(set|frozenset|list|tuple)$/;

/** Dict-like objects (AttributeDict, Namespace, DictConfig) become their items or state, protocol-2 sets their
 * items; others the name of their callee. */
function plainCall(call: PyCall, depth: number): unknown {
  if (SEQUENCE_TYPES.test(call.calleeName ?? "") && Array.isArray(call.args[0])) return toPlain(call.args[0], depth + 1);
  if (call.items.length > 0) return plainEntries(call.items, depth);
  if (call.state instanceof PyDict) return plainEntries(call.state.entries, depth);
  if (call.args.length === 1 && call.args[0] instanceof PyDict) return plainEntries(call.args[0].entries, depth);
  return `<${call.calleeName ?? "object"}>`;
}
