import { maskedCrc32c } from "./crc32c.js";
import { ProtoReader, WIRE } from "./protobuf.js";
import type { SeriesBuilder } from "./series-builder.js";

// Field numbers from tensorboard/compat/proto/{event,summary,tensor}.proto.
const EVENT = { wallTime: 1, step: 2, summary: 5 } as const;
const VALUE = { tag: 1, simpleValue: 2, tensor: 8, metadata: 9 } as const;
const TENSOR = { dtype: 1, shape: 2, content: 4, floatVal: 5, doubleVal: 6 } as const;
const DT_FLOAT = 1;
const DT_DOUBLE = 2;

const utf8 = new TextDecoder();

/**
 * Reads TensorBoard scalars from an event file: TFRecord framing (u64 length, masked CRC-32C of the length,
 * data, masked CRC-32C of the data), each record an `Event` whose `summary.value`s carry `simple_value`
 * (PyTorch, tensorboardX) or a scalar `tensor` (TF2, plugin "scalars"). Checksums are verified; a truncated
 * last record (a live run, or a copy cut short) ends the reading, and `onCut` is told how many bytes were left after how many records.
 * Returns the number of events read.
 */
export function readTfEvents(file: Uint8Array, out: SeriesBuilder, prefix = "", onCut?: (bytesLeft: number, recordsRead: number) => void): number {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const plugins = new Map<string, string>();
  let pos = 0;
  let events = 0;
  while (pos + 12 <= file.length) {
    const lengthBytes = file.subarray(pos, pos + 8);
    if (view.getUint32(pos + 8, true) !== maskedCrc32c(lengthBytes)) {
      throw new Error(`tfevents record at byte ${pos}: length checksum mismatch (not an event file, or corrupted)`);
    }
    const length = view.getUint32(pos, true) + view.getUint32(pos + 4, true) * 2 ** 32;
    const start = pos + 12;
    if (start + length + 4 > file.length) break;
    const data = file.subarray(start, start + length);
    if (view.getUint32(start + length, true) !== maskedCrc32c(data)) {
      throw new Error(`tfevents record at byte ${pos}: data checksum mismatch (corrupted file)`);
    }
    readEvent(data, plugins, out, prefix);
    events++;
    pos = start + length + 4;
  }
  if (pos < file.length) onCut?.(file.length - pos, events);
  return events;
}

/** The split a log folder stands for (Keras' TensorBoard callback writes `train/` and `validation/`). */
const SPLIT_FOLDER = /^(?:train|training|val|valid|validation|eval|evaluation|test)$/i;

/**
 * Reads several event files of one run, `[{path, content_base64}]`, as one run: a file inside a split folder
 * (`logs/train/…`, `logs/validation/…`) has its tags read under that split, so Keras' `epoch_loss` in both folders
 * becomes the training and the validation loss. Returns the number of events read; `onCut` hears of a file cut
 * off mid-record, with its path.
 */
export function readTfEventFiles(files: readonly unknown[], out: SeriesBuilder, onCut?: (path: string, recordsRead: number, bytesLeft: number) => void): number {
  let events = 0;
  files.forEach((f, i) => {
    const file = f as { path?: unknown; content_base64?: unknown };
    if (typeof file.content_base64 !== "string") throw new Error(`metrics.files[${i}].content_base64: expected the event file, base64-encoded`);
    const path = typeof file.path === "string" ? file.path : `files[${i}]`;
    const split = path.split(/[\\/]/).slice(0, -1).reverse().find((d) => SPLIT_FOLDER.test(d));
    events += readTfEvents(Buffer.from(file.content_base64, "base64"), out, split ? `${split}/` : "", (left, read) => onCut?.(path, read, left));
  });
  return events;
}

function readEvent(data: Uint8Array, plugins: Map<string, string>, out: SeriesBuilder, prefix: string): void {
  const r = new ProtoReader(data);
  let wallTime = Number.NaN;
  let step = 0;
  const summaries: Uint8Array[] = [];
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === EVENT.wallTime && f.wire === WIRE.fixed64) wallTime = r.double();
    else if (f.field === EVENT.step && f.wire === WIRE.varint) step = r.varint();
    else if (f.field === EVENT.summary && f.wire === WIRE.bytes) summaries.push(r.bytes());
    else r.skip(f.wire);
  }
  for (const summary of summaries) {
    const s = new ProtoReader(summary);
    for (let f = s.next(); f; f = s.next()) {
      if (f.field !== 1 || f.wire !== WIRE.bytes) {
        s.skip(f.wire);
        continue;
      }
      const scalar = readValue(s.bytes(), plugins);
      if (scalar) out.add(prefix + scalar.tag, step, scalar.value, Number.NaN, wallTime * 1000);
    }
  }
}

/** A `Summary.Value` holding one scalar, or null (histograms, images, text, non-scalar tensors). */
function readValue(bytes: Uint8Array, plugins: Map<string, string>): { tag: string; value: number } | null {
  const r = new ProtoReader(bytes);
  let tag = "";
  let simple: number | null = null;
  let tensor: number | null = null;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === VALUE.tag && f.wire === WIRE.bytes) tag = utf8.decode(r.bytes());
    else if (f.field === VALUE.simpleValue && f.wire === WIRE.fixed32) simple = r.float();
    else if (f.field === VALUE.tensor && f.wire === WIRE.bytes) tensor = readScalarTensor(r.bytes());
    else if (f.field === VALUE.metadata && f.wire === WIRE.bytes) {
      const plugin = pluginName(r.bytes());
      if (plugin && tag) plugins.set(tag, plugin);
    } else r.skip(f.wire);
  }
  if (!tag) return null;
  if (simple !== null) return { tag, value: simple };
  const plugin = plugins.get(tag);
  return tensor !== null && (plugin === undefined || plugin === "scalars") ? { tag, value: tensor } : null;
}

/** SummaryMetadata.plugin_data.plugin_name. */
function pluginName(metadata: Uint8Array): string | null {
  const r = new ProtoReader(metadata);
  for (let f = r.next(); f; f = r.next()) {
    if (f.field !== 1 || f.wire !== WIRE.bytes) {
      r.skip(f.wire);
      continue;
    }
    const p = new ProtoReader(r.bytes());
    for (let g = p.next(); g; g = p.next()) {
      if (g.field === 1 && g.wire === WIRE.bytes) return utf8.decode(p.bytes());
      p.skip(g.wire);
    }
  }
  return null;
}

/** The value of a rank-0 (or one-element) float/double TensorProto, else null. */
function readScalarTensor(bytes: Uint8Array): number | null {
  const r = new ProtoReader(bytes);
  let dtype = 0;
  let elements = 1;
  const values: number[] = [];
  let content: Uint8Array | null = null;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field === TENSOR.dtype && f.wire === WIRE.varint) dtype = r.varint();
    else if (f.field === TENSOR.shape && f.wire === WIRE.bytes) elements = shapeElements(r.bytes());
    else if (f.field === TENSOR.content && f.wire === WIRE.bytes) content = r.bytes();
    else if (f.field === TENSOR.floatVal) readRepeated(r, f.wire, WIRE.fixed32, values, () => r.float());
    else if (f.field === TENSOR.doubleVal) readRepeated(r, f.wire, WIRE.fixed64, values, () => r.double());
    else r.skip(f.wire);
  }
  if (elements !== 1 || (dtype !== DT_FLOAT && dtype !== DT_DOUBLE)) return null;
  if (values.length === 1) return values[0]!;
  if (content) {
    const v = new DataView(content.buffer, content.byteOffset, content.byteLength);
    if (dtype === DT_FLOAT && content.length === 4) return v.getFloat32(0, true);
    if (dtype === DT_DOUBLE && content.length === 8) return v.getFloat64(0, true);
  }
  return null;
}

/** Repeated scalar fields arrive packed (one bytes field) or one per tag. */
function readRepeated(r: ProtoReader, wire: number, single: number, into: number[], read: () => number): void {
  if (wire === single) {
    into.push(read());
    return;
  }
  if (wire !== WIRE.bytes) {
    r.skip(wire);
    return;
  }
  const packed = r.bytes();
  const width = single === WIRE.fixed32 ? 4 : 8;
  const v = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  for (let i = 0; i + width <= packed.length; i += width) into.push(width === 4 ? v.getFloat32(i, true) : v.getFloat64(i, true));
}

/** Number of elements of a TensorShapeProto (product of dim sizes; 1 for rank 0). */
function shapeElements(shape: Uint8Array): number {
  const r = new ProtoReader(shape);
  let n = 1;
  for (let f = r.next(); f; f = r.next()) {
    if (f.field !== 2 || f.wire !== WIRE.bytes) {
      r.skip(f.wire);
      continue;
    }
    const dim = new ProtoReader(r.bytes());
    for (let g = dim.next(); g; g = dim.next()) {
      if (g.field === 1 && g.wire === WIRE.varint) n *= dim.varint();
      else dim.skip(g.wire);
    }
  }
  return n;
}
