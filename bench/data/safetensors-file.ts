import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { seededRandom } from "./training-history.js";

export type GeneratedDtype = "F32" | "F16" | "BF16";
type Dtype = GeneratedDtype;
export interface TensorPlan {
  name: string;
  dtype: Dtype;
  shape: number[];
}

const BYTES: Record<Dtype, number> = { F32: 4, F16: 2, BF16: 2 };

/** One transformer block of width d: attention in F32, MLP in BF16 and F16, norms in F32 (~32 MB at d = 1024). */
function block(i: number, d: number): TensorPlan[] {
  return [
    { name: `layers.${i}.attn.qkv.weight`, dtype: "F32", shape: [3 * d, d] },
    { name: `layers.${i}.attn.out.weight`, dtype: "F32", shape: [d, d] },
    { name: `layers.${i}.mlp.up.weight`, dtype: "BF16", shape: [4 * d, d] },
    { name: `layers.${i}.mlp.down.weight`, dtype: "F16", shape: [d, 4 * d] },
    { name: `layers.${i}.norm.weight`, dtype: "F32", shape: [d] },
    { name: `layers.${i}.norm.bias`, dtype: "F32", shape: [d] },
  ];
}

export const bytesOf = (t: TensorPlan) => t.shape.reduce((a, b) => a * b, 1) * BYTES[t.dtype];

/** float32 → IEEE half (round to nearest even is not needed for benchmark data: truncation). */
function toHalf(f32bits: number): number {
  const sign = (f32bits >>> 16) & 0x8000;
  const exp = ((f32bits >>> 23) & 0xff) - 127 + 15;
  const mant = f32bits & 0x7fffff;
  if (exp <= 0) return sign; // flush tiny values to zero
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | (mant >>> 13);
}

/**
 * Encoded tensor bytes for each dtype, drawn once from a seeded pool of roughly normal values (std 0.02) and
 * reused at shifting offsets: the scanner reads every byte, so realistic bytes matter, fresh ones do not.
 */
function valuePools(elements: number): Record<Dtype, Buffer> {
  const random = seededRandom(7);
  const f32 = new Float32Array(elements);
  for (let i = 0; i < elements; i++) f32[i] = (random() + random() + random() + random() - 2) * 0.035;
  const bits = new Uint32Array(f32.buffer);
  const f16 = new Uint16Array(elements);
  const bf16 = new Uint16Array(elements);
  for (let i = 0; i < elements; i++) {
    f16[i] = toHalf(bits[i]!);
    bf16[i] = bits[i]! >>> 16;
  }
  return { F32: Buffer.from(f32.buffer), F16: Buffer.from(f16.buffer), BF16: Buffer.from(bf16.buffer) };
}

export interface GeneratedSafetensors {
  bytes: number;
  tensors: number;
}

export interface SafetensorsLayout {
  /** Model width d; a block holds about 32·d² bytes. */
  width?: number;
  /** Every tensor in this one type instead of the mix (to measure one decoder alone). */
  dtype?: GeneratedDtype;
}

/** Writes a safetensors file of about `targetBytes` (layout per FORMATS.md §6.1) to `path`. */
export function writeSafetensors(path: string, targetBytes: number, layout: SafetensorsLayout = {}): GeneratedSafetensors {
  const plan = planTensors(targetBytes, layout.width ?? 1024, layout.dtype);
  const header: Record<string, unknown> = { __metadata__: { format: "pt", source: "npm run bench" } };
  let offset = 0;
  for (const t of plan) {
    header[t.name] = { dtype: t.dtype, shape: t.shape, data_offsets: [offset, offset + bytesOf(t)] };
    offset += bytesOf(t);
  }
  let json = JSON.stringify(header);
  json += " ".repeat((8 - (json.length % 8)) % 8);
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(json.length));

  const fd = openSync(path, "w");
  try {
    writeSync(fd, prefix);
    writeSync(fd, json);
    writeTensorValues(fd, plan);
  } finally {
    closeSync(fd);
  }
  return { bytes: 8 + json.length + offset, tensors: plan.length };
}

/** The plan of a file of about `targetBytes`: blocks of width `width`, every tensor in `dtype` when given. */
export function planTensors(targetBytes: number, width: number, dtype?: GeneratedDtype): TensorPlan[] {
  const blockOf = (i: number) => block(i, width).map((t) => (dtype ? { ...t, dtype } : t));
  const perBlock = blockOf(0).reduce((n, t) => n + bytesOf(t), 0);
  return Array.from({ length: Math.max(1, Math.round(targetBytes / perBlock)) }, (_, i) => blockOf(i)).flat();
}

/** Appends every tensor's values, in plan order and without padding, to `fd`, then flushes the file to disk. */
export function writeTensorValues(fd: number, plan: readonly TensorPlan[], alignTo = 1): void {
  const pools = valuePools((16 * 1024 ** 2) / 4);
  let shift = 0;
  for (const t of plan) {
    const pool = pools[t.dtype];
    for (let left = bytesOf(t); left > 0; ) {
      const start = (shift * 4096) % (pool.length / 2);
      const n = Math.min(left, pool.length - start);
      writeSync(fd, pool, start, n);
      left -= n;
      shift++;
    }
    const pad = (alignTo - (bytesOf(t) % alignTo)) % alignTo;
    if (pad > 0) writeSync(fd, Buffer.alloc(pad));
  }
  // Written back before anyone reads it: a scan timed against the kernel still flushing dirty pages is not the
  // scan's time.
  fsyncSync(fd);
}
