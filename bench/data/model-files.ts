import { closeSync, openSync, writeSync } from "node:fs";
import { basename, join } from "node:path";
import { bytesOf, planTensors, type TensorPlan, writeTensorValues } from "./safetensors-file.js";

/** A generated model file and where each tensor's bytes are, for the numpy baseline to read the same bytes. */
export interface GeneratedModelFile {
  /** The file to scan. */
  path: string;
  /** Bytes of every file written (an ONNX model's external data included). */
  bytes: number;
  tensors: Array<{ file: string; offset: number; dtype: string; shape: number[] }>;
}

/** Protobuf wire encoding, enough for a ModelProto whose initializers live in an external file. */
const varint = (n: number | bigint): number[] => {
  const out: number[] = [];
  let v = BigInt(n);
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? b | 0x80 : b);
  } while (v > 0n);
  return out;
};
const key = (field: number, wire: number) => varint((field << 3) | wire);
const uint = (field: number, n: number) => [...key(field, 0), ...varint(n)];
const bytes = (field: number, payload: number[] | Uint8Array) => [...key(field, 2), ...varint(payload.length), ...payload];
const text = (field: number, s: string) => bytes(field, new TextEncoder().encode(s));

const ONNX_TYPES: Record<string, number> = { F32: 1, F16: 10, BF16: 16 };
const GGML_TYPES: Record<string, number> = { F32: 0, F16: 1, BF16: 30 };

function layoutOf(plan: readonly TensorPlan[], file: string, start: number, align = 1): GeneratedModelFile["tensors"] {
  let offset = start;
  return plan.map((t) => {
    const at = offset;
    offset += Math.ceil(bytesOf(t) / align) * align;
    return { file, offset: at, dtype: t.dtype, shape: t.shape };
  });
}

/** An ONNX model (IR 8, opset 17) whose initializers are in `model.onnx.data` beside it, as onnx writes models over 2 GB. */
export function writeOnnxExternal(dir: string, targetBytes: number): GeneratedModelFile {
  const plan = planTensors(targetBytes, 1024);
  const data = join(dir, "model.onnx.data");
  const tensors = layoutOf(plan, data, 0);
  const initializers = plan.flatMap((t, i) => {
    const entry = (k: string, v: string) => bytes(13, [...text(1, k), ...text(2, v)]);
    const tensor = [
      ...t.shape.flatMap((d) => uint(1, d)), ...uint(2, ONNX_TYPES[t.dtype]!), ...text(8, t.name),
      ...entry("location", basename(data)), ...entry("offset", String(tensors[i]!.offset)), ...entry("length", String(bytesOf(t))), ...uint(14, 1),
    ];
    return bytes(5, tensor);
  });
  const graph = [...text(2, "bench"), ...initializers];
  const model = [...uint(1, 8), ...text(2, "npm run bench"), ...bytes(7, graph), ...bytes(8, uint(2, 17))];
  const path = join(dir, "model.onnx");
  const fd = openSync(path, "w");
  writeSync(fd, Uint8Array.from(model));
  closeSync(fd);
  const dfd = openSync(data, "w");
  try {
    writeTensorValues(dfd, plan);
  } finally {
    closeSync(dfd);
  }
  return { path, bytes: model.length + plan.reduce((n, t) => n + bytesOf(t), 0), tensors };
}

/** A GGUF v3 file (llama.cpp layout): header, two metadata keys, tensor infos, data aligned to 32 bytes. */
export function writeGguf(dir: string, targetBytes: number): GeneratedModelFile {
  const plan = planTensors(targetBytes, 1024);
  const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(n); return b; };
  const u64 = (n: number) => { const b = Buffer.alloc(8); b.writeBigUInt64LE(BigInt(n)); return b; };
  const str = (s: string) => Buffer.concat([u64(Buffer.byteLength(s)), Buffer.from(s)]);
  const relative = layoutOf(plan, "", 0, 32);
  const header = Buffer.concat([
    Buffer.from("GGUF"), u32(3), u64(plan.length), u64(2),
    str("general.architecture"), u32(8), str("llama"), str("llama.context_length"), u32(4), u32(4096),
    ...plan.flatMap((t, i) => [str(t.name), u32(t.shape.length), ...[...t.shape].reverse().map(u64), u32(GGML_TYPES[t.dtype]!), u64(relative[i]!.offset)]),
  ]);
  const dataStart = Math.ceil(header.length / 32) * 32;
  const path = join(dir, "model.gguf");
  const fd = openSync(path, "w");
  try {
    writeSync(fd, header);
    writeSync(fd, Buffer.alloc(dataStart - header.length));
    writeTensorValues(fd, plan, 32);
  } finally {
    closeSync(fd);
  }
  const tensors = relative.map((t) => ({ ...t, file: path, offset: dataStart + t.offset }));
  return { path, bytes: dataStart + plan.reduce((n, t) => n + Math.ceil(bytesOf(t) / 32) * 32, 0), tensors };
}

/** An HDF5 file of F32 datasets laid out as a Keras `.weights.h5` (`layers/<name>/vars/<i>`), written by libhdf5 (h5wasm). */
export async function writeHdf5(dir: string, targetBytes: number): Promise<GeneratedModelFile> {
  const h5 = await import("h5wasm/node");
  await h5.ready;
  const plan = planTensors(targetBytes, 1024, "F32");
  const path = join(dir, "model.weights.h5");
  const file = new h5.File(path, "w");
  const values = new Float32Array(4 * 1024 * 1024);
  for (let i = 0; i < values.length; i++) values[i] = Math.sin(i * 0.7) * 0.02;
  try {
    for (const t of plan) {
      const numel = t.shape.reduce((a, b) => a * b, 1);
      const layer = `layers/${t.name.replaceAll(".", "_")}`;
      for (const group of ["layers", layer, `${layer}/vars`]) if (!file.keys().includes(group) && file.get(group) === null) file.create_group(group);
      file.create_dataset({ name: `${layer}/vars/0`, data: values.subarray(0, numel), shape: t.shape, dtype: "<f" });
    }
  } finally {
    file.close();
  }
  // Offsets come from h5py in the baseline (libhdf5 places the data); here only the sizes are known.
  return { path, bytes: plan.reduce((n, t) => n + bytesOf(t), 0), tensors: [] };
}
