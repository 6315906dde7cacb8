import { createHash } from "node:crypto";

/** One chat request as sent on the wire (the JSON body, never the headers or key) and the answer it got. */
export interface WireExchange {
  request: unknown;
  response: { status: number; body: unknown };
}

/** One graph task of a recorded analysis (LangGraph streamMode "tasks"): the node, its input and its update. */
export interface RecordedTask {
  node: string;
  input: unknown;
  result: unknown;
  error: unknown;
}

/** A recorded analysis: every node's input and output and every LLM exchange, for replay tests. */
export interface ReplayFixture {
  format: typeof REPLAY_FORMAT;
  /** How it was made (the command line), for whoever re-records it. */
  made_with: string;
  /** The model parameters the requests were made with; a replay must send the same. */
  model: { name: string; temperature: number; max_tokens: number };
  tasks: RecordedTask[];
  llm: WireExchange[];
}

export const REPLAY_FORMAT = "analysis-replay/1";

const NON_FINITE = "$number";
const SHARED = "$shared";
/** Values whose JSON is at least this long are stored once and referenced (each node's input repeats the request). */
const SHARE_FROM_CHARS = 4096;

const isMarker = (v: unknown, key: string): v is Record<string, string> =>
  !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && key in v;

const encodeNumbers = (_key: string, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? { [NON_FINITE]: String(v) } : v);

/** Replaces every large value by {"$shared": <hash>}, storing it (its own large parts shared too) in `table`. */
function share(value: unknown, table: Record<string, unknown>): unknown {
  if (!value || typeof value !== "object") return value;
  const text = JSON.stringify(value, encodeNumbers);
  if (text === undefined || text.length < SHARE_FROM_CHARS) return value;
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 16);
  if (!(hash in table)) {
    table[hash] = null; // reserve the slot so the table lists outer values first
    table[hash] = Array.isArray(value)
      ? value.map((v) => share(v, table))
      : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, share(v, table)]));
  }
  return { [SHARED]: hash };
}

/** A fresh copy of `value` with every {"$shared": hash} replaced by its (recursively resolved) value. */
function unshare(value: unknown, table: Readonly<Record<string, unknown>>): unknown {
  if (!value || typeof value !== "object") return value;
  if (isMarker(value, SHARED)) {
    if (!(value[SHARED]! in table)) throw new Error(`replay fixture: shared value ${value[SHARED]} is missing`);
    return unshare(table[value[SHARED]!], table);
  }
  if (Array.isArray(value)) return value.map((v) => unshare(v, table));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unshare(v, table)]));
}

/**
 * JSON text of a fixture: large values repeated across node inputs and outputs are stored once under "shared",
 * and NaN and ±Infinity (real training logs have them) survive as {"$number": "NaN"}.
 */
export function serializeFixture(fixture: ReplayFixture): string {
  const shared: Record<string, unknown> = {};
  const tasks = fixture.tasks.map((t) => ({ ...t, input: share(t.input, shared), result: share(t.result, shared) }));
  return JSON.stringify({ ...fixture, tasks, shared }, encodeNumbers, 1);
}

/** Reads fixture text written by serializeFixture: shared values and non-finite numbers restored. */
export function parseFixture(text: string): ReplayFixture {
  const stored = JSON.parse(text, (_key, v: unknown) => (isMarker(v, NON_FINITE) ? Number(v[NON_FINITE]) : v)) as ReplayFixture & {
    shared?: Record<string, unknown>;
  };
  const { shared = {}, ...fixture } = stored;
  if (fixture.format !== REPLAY_FORMAT) throw new Error(`replay fixture: format "${String(fixture.format)}", expected "${REPLAY_FORMAT}"`);
  return { ...fixture, tasks: fixture.tasks.map((t) => ({ ...t, input: unshare(t.input, shared), result: unshare(t.result, shared) })) };
}

const bodyText = (init: RequestInit | undefined): string => (typeof init?.body === "string" ? init.body : "");

/** A fetch that forwards to `inner` and appends every exchange to `log` (bodies only: no headers, no key). */
export function recordingFetch(inner: typeof fetch, log: WireExchange[]): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // A non-JSON answer is recorded as its text.
    }
    log.push({ request: JSON.parse(bodyText(init) || "null"), response: { status: response.status, body } });
    return response;
  };
}

/** Canonical key of a request body: key order does not matter. */
function requestKey(body: unknown): string {
  return JSON.stringify(body, (_k, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/**
 * A fetch that answers from recorded exchanges: each request gets the recorded answers to an identical body, in
 * recorded order. A request the recording does not hold fails with a 404 naming what differs, so a changed prompt
 * shows up as a replay failure, not as a silent call.
 */
export function replayFetch(exchanges: readonly WireExchange[]): typeof fetch {
  const queues = new Map<string, WireExchange[]>();
  for (const e of exchanges) {
    const key = requestKey(e.request);
    queues.set(key, [...(queues.get(key) ?? []), e]);
  }
  return async (_input, init) => {
    const body = JSON.parse(bodyText(init) || "null") as unknown;
    const next = queues.get(requestKey(body))?.shift();
    if (!next) {
      const message = `replay: no recorded answer for this request (${exchanges.length} recorded); re-record if the prompt changed on purpose`;
      return new Response(JSON.stringify({ error: { message, type: "replay_miss" } }), { status: 404, headers: { "content-type": "application/json" } });
    }
    const text = typeof next.response.body === "string" ? next.response.body : JSON.stringify(next.response.body);
    return new Response(text, { status: next.response.status, headers: { "content-type": "application/json" } });
  };
}
