import { type BodyPart, decodeJsonColumns, decodeJsonPart } from "./decode-json-columns.js";
import type { PackedValue } from "./number-columns.js";
import type { TaskOutput } from "./pool.js";

/** Worker task: UTF-8 bytes of a JSON body → the parsed value, long number arrays decoded straight into columns. */
export function parseJsonTask(bytes: Uint8Array): TaskOutput<PackedValue> {
  const { value, columns, transfer } = decodeJsonColumns(bytes);
  return { value: { value, columns }, transfer };
}

export interface JsonPartTask {
  /** The body's bytes in shared memory: every part reads them where they are. */
  bytes: Uint8Array;
  part: number;
  parts: number;
}

/** Worker task: one part of a shared body's decoding (decodeJsonPart); columns are shared, nothing to transfer. */
export function parseJsonPartTask({ bytes, part, parts }: JsonPartTask): TaskOutput<BodyPart | null> {
  return { value: decodeJsonPart(bytes, part, parts), transfer: [] };
}
