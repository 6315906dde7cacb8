import { parseTolerantJson } from "../artifacts/tolerant-json.js";
import { packNumberColumns, type PackedValue } from "./number-columns.js";
import type { TaskOutput } from "./tasks.js";

/** Worker task: UTF-8 bytes of a JSON body → the parsed value, long number arrays packed as columns. */
export function parseJsonTask(bytes: Uint8Array): TaskOutput<PackedValue> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const { value, columns, transfer } = packNumberColumns(parseTolerantJson(text));
  return { value: { value, columns }, transfer };
}
