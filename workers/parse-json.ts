import { decodeJsonColumns } from "./decode-json-columns.js";
import type { PackedValue } from "./number-columns.js";
import type { TaskOutput } from "./tasks.js";

/** Worker task: UTF-8 bytes of a JSON body → the parsed value, long number arrays decoded straight into columns. */
export function parseJsonTask(bytes: Uint8Array): TaskOutput<PackedValue> {
  const { value, columns, transfer } = decodeJsonColumns(bytes);
  return { value: { value, columns }, transfer };
}
