import { isRecord } from "../artifacts/json-values.js";
import { RequestDecodeError } from "../artifacts/request.js";
import { parseTolerantJson } from "../artifacts/tolerant-json.js";
import { readsAsColumn } from "../nodes/training/parse/index.js";
import { joinBodyParts } from "../workers/decode-json-columns.js";
import { type PackedValue, unpackNumberColumns } from "../workers/number-columns.js";
import { POOL_THREADS, runTask } from "../workers/pool.js";

/**
 * Bodies from this size on are parsed on a worker thread. Below it the hop costs more than it saves: measured on
 * the benchmark machine, a 0.5 MB history parses in 2.6 ms in place and takes 4.5 ms through a worker, a 1.6 MB
 * one blocks the event loop 7.4 ms in place; a 37 MB one 208 ms, against at most ~50 ms of slices through a worker.
 */
export const WORKER_PARSE_MIN_BYTES = 1024 * 1024;

const invalid = (message: string) => new RequestDecodeError(`(body): invalid JSON: ${message}`);

/** Parses a body's text as JSON, tolerating Python's bare NaN/Infinity; a syntax error is a 400. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === "") throw new RequestDecodeError("(body): empty body, expected a JSON object");
  try {
    return parseTolerantJson(text);
  } catch (err) {
    throw invalid((err as Error).message);
  }
}

/**
 * Whether the column at `path` of a packed analysis request is a training history's `{name: number[]}` array, which
 * the training parser reads as a Float64Column: such a column stays one (the request's checks know columns), so
 * the event loop neither rebuilds a 10^6-element array nor has it packed into a column again for the pool.
 */
function readByTrainingParserAsColumn(request: unknown, path: ReadonlyArray<string | number>): boolean {
  if (path.length !== 3 || path[0] !== "training_artifacts" || !isRecord(request) || !isRecord(request.training_artifacts)) return false;
  return readsAsColumn(request.training_artifacts, path.slice(1));
}

/** Parses a body read by server/intake.ts, off the event loop when it is large; the buffer is consumed (one in shared memory is only read). */
export async function parseJsonBody(body: Buffer): Promise<unknown> {
  if (body.length < WORKER_PARSE_MIN_BYTES) return parseJsonText(body.toString("utf8"));
  if (body.buffer instanceof SharedArrayBuffer) return parseSharedBody(new Uint8Array(body.buffer, body.byteOffset, body.length));
  // Transferred, not copied: a buffer of its own (Buffer.concat allocates one at this size) moves as it is.
  const owned = body.byteOffset === 0 && body.buffer.byteLength === body.length ? body : Buffer.from(body);
  const bytes = new Uint8Array(owned.buffer, 0, owned.length);
  return unpackParsed(runTask("parseJson", bytes, { transfer: [bytes.buffer as ArrayBuffer] }));
}

/**
 * A body in shared memory (server/intake.ts reads a large one with a declared length there) is decoded by every
 * thread of the pool at once, each reading its share of the long number arrays; a body any part refuses is read
 * whole by one, which gives the value or JSON.parse's error.
 */
async function parseSharedBody(bytes: Uint8Array): Promise<unknown> {
  const parts = await Promise.all(Array.from({ length: POOL_THREADS }, (_, part) => runTask("parseJsonPart", { bytes, part, parts: POOL_THREADS })));
  if (parts.every((p) => p !== null)) return unpackParsed(joinBodyParts(parts));
  return unpackParsed(runTask("parseJson", bytes));
}

/** The parsed body with its number arrays rebuilt, but for those the training parser reads as columns. */
async function unpackParsed(parsing: PackedValue | Promise<PackedValue>): Promise<unknown> {
  try {
    const packed = await parsing;
    return await unpackNumberColumns(packed, (path) => readByTrainingParserAsColumn(packed.value, path));
  } catch (err) {
    if ((err as Error).name === "SyntaxError") throw invalid((err as Error).message);
    throw err;
  }
}
