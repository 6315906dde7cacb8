import { realpath, stat } from "node:fs/promises";
import { isAbsolute, resolve, sep } from "node:path";
import { type DType, tensorBytes } from "./dtypes.js";
import { textField, type ProtoSource } from "./proto-source.js";
import { messageFields, varintsOf, type WireField } from "./proto-wire.js";
import type { IntegrityIssue, ScannedTensor } from "./scan-types.js";

/** TensorProto.DataType (onnx.proto3) → element type; STRING and 4-bit integers are not measured. */
const ONNX_DTYPES: Record<number, DType> = {
  1: "F32", 2: "U8", 3: "I8", 4: "U16", 5: "I16", 6: "I32", 7: "I64", 9: "BOOL", 10: "F16", 11: "F64", 12: "U32",
  13: "U64", 14: "C64", 15: "C128", 16: "BF16", 17: "F8_E4M3", 18: "F8_E4M3FNUZ", 19: "F8_E5M2", 20: "F8_E5M2FNUZ", 23: "F4",
};
const ONNX_DTYPE_NAMES: Record<number, string> = { 8: "STRING", 21: "UINT4", 22: "INT4" };

/** TensorProto fields: dims 1, data_type 2, float_data 4, name 8, raw_data 9, double_data 10, external_data 13, data_location 14. */
const F = { dims: 1, dataType: 2, floatData: 4, name: 8, rawData: 9, doubleData: 10, externalData: 13, dataLocation: 14 } as const;

/** Where the model's external data may be: beside the model, never outside its folder. */
export interface ExternalRoot {
  dir: string;
  /** The folder with symbolic links resolved, to catch a link that points out of it. */
  realDir: string;
}

/** A tensor of the model with the faults its record shows. */
export interface OnnxTensor {
  tensor: ScannedTensor;
  issues: IntegrityIssue[];
}

async function keyValues(src: ProtoSource, fields: readonly WireField[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of fields) {
    const bytes = await src.bytes(f, 1 << 16);
    let key = "";
    let value = "";
    for (const kv of messageFields(bytes, f.start)) {
      const text = new TextDecoder().decode(bytes.subarray(kv.start - f.start, kv.end - f.start));
      if (kv.field === 1) key = text;
      else if (kv.field === 2) value = text;
    }
    out.set(key, value);
  }
  return out;
}

/** The file an external tensor's `location` names, when it stays inside the model's folder (no `..`, no absolute path, no link out). */
async function externalFile(root: ExternalRoot, location: string): Promise<string | null> {
  if (location === "" || isAbsolute(location)) return null;
  const target = resolve(root.dir, location);
  const inside = (dir: string, path: string) => path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
  if (!inside(root.dir, target)) return null;
  try {
    return inside(root.realDir, await realpath(target)) ? target : null;
  } catch {
    return target;
  }
}

/** Places an external tensor's bytes (`location`, `offset`, `length`) in its file, checking they are there. */
async function placeExternal(t: ScannedTensor, entries: Map<string, string>, root: ExternalRoot, expected: number | null): Promise<IntegrityIssue[]> {
  const location = entries.get("location") ?? "";
  const file = await externalFile(root, location);
  if (!file) return [{ kind: "bad_header", detail: `tensor ${t.name}'s external data "${location}" lies outside the model's folder: it was not read` }];
  const size = await stat(file).then((s) => s.size, () => null);
  if (size === null) return [{ kind: "missing_storage", detail: `tensor ${t.name}'s external data file ${location} is missing` }];
  const offset = Number(entries.get("offset") ?? 0);
  const length = entries.has("length") ? Number(entries.get("length")) : expected ?? size - offset;
  if (expected !== null && length !== expected) return [{ kind: "size_mismatch", detail: `tensor ${t.name} declares ${length} bytes of external data, its shape and type need ${expected}`, expectedBytes: expected, actualBytes: length }];
  if (offset + length > size) return [{ kind: "truncated", detail: `tensor ${t.name} needs bytes up to ${offset + length} of ${location}, which has ${size}`, expectedBytes: offset + length, actualBytes: size }];
  t.file = file;
  t.byteRange = [offset, offset + length];
  return [];
}

/**
 * One TensorProto (an initializer or a Constant's value): name, type, shape and where its values are — inline
 * `raw_data`, packed `float_data`/`double_data`, or an external file. A byte count that disagrees with the shape
 * and type is reported, and the tensor is then listed without values.
 */
export async function readOnnxTensor(src: ProtoSource, start: number, end: number, prefix: string, root: ExternalRoot): Promise<OnnxTensor> {
  let name = "";
  let dataType = 0;
  let external = false;
  const dims: number[] = [];
  let data: WireField | null = null;
  const entries: WireField[] = [];
  for await (const f of src.fields(start, end)) {
    if (f.field === F.dims) dims.push(...varintsOf(await src.bytes(f, 1 << 16), f).map(Number));
    else if (f.field === F.dataType) dataType = Number(f.varint);
    else if (f.field === F.name) name = await textField(src, f);
    else if ((f.field === F.rawData || f.field === F.floatData || f.field === F.doubleData) && f.wire === 2) data = f;
    else if (f.field === F.externalData) entries.push(f);
    else if (f.field === F.dataLocation) external = f.varint === 1n;
  }
  const dtype = ONNX_DTYPES[dataType] ?? null;
  const numel = dims.reduce((a, b) => a * b, 1);
  const tensor: ScannedTensor = {
    name: prefix + name, dtype, rawDtype: dtype ?? ONNX_DTYPE_NAMES[dataType] ?? `onnx_type_${dataType}`, shape: dims, numel,
    byteRange: null, stats: null, group: "model",
  };
  const expected = dtype ? tensorBytes(dtype, numel) : null;
  if (external) return { tensor, issues: await placeExternal(tensor, await keyValues(src, entries), root, expected) };
  if (!data || !dtype) return { tensor, issues: [] };
  // float_data holds FLOAT (and double_data DOUBLE) values as packed little-endian numbers: the same bytes as raw_data.
  const packedAs: DType | null = data.field === F.rawData ? dtype : data.field === F.floatData ? (dtype === "F32" ? "F32" : null) : dtype === "F64" ? "F64" : null;
  if (!packedAs) return { tensor, issues: [] };
  if (data.end - data.start !== expected) {
    return { tensor, issues: [{ kind: "size_mismatch", detail: `tensor ${tensor.name} holds ${data.end - data.start} bytes, its shape ${JSON.stringify(dims)} and type ${tensor.rawDtype} need ${expected}`, expectedBytes: expected!, actualBytes: data.end - data.start }] };
  }
  tensor.byteRange = [data.start, data.end];
  return { tensor, issues: [] };
}
