// Measures the checkpoint scanner: writes a safetensors file of the requested size into a temp dir, scans it
// with scanCheckpointFile and prints throughput (GB/s) and peak RSS growth as one JSON line.
// Usage: npx tsx scripts/measure-checkpoint-scan.ts [--gb 1] [--dtype F32|F16|BF16] [--repeats 3]
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { scanCheckpointFile } from "../nodes/checkpoint/file/scan.js";

const { values } = parseArgs({ options: { gb: { type: "string", default: "1" }, dtype: { type: "string", default: "F32" }, repeats: { type: "string", default: "3" } } });
const dtype = values.dtype as "F32" | "F16" | "BF16";
const elementBytes = dtype === "F32" ? 4 : 2;
const tensorBytes = 16 * 2 ** 20;
const tensors = Math.max(1, Math.round((Number(values.gb) * 2 ** 30) / tensorBytes));

/** Seeded weights around N(0, 0.02)-ish, written one 16 MiB tensor at a time (never the whole file in memory). */
function writeFile(path: string): number {
  const rows = tensorBytes / elementBytes / 1024;
  const header: Record<string, unknown> = { __metadata__: { format: "pt" } };
  for (let i = 0; i < tensors; i++) header[`layers.${i}.weight`] = { dtype, shape: [rows, 1024], data_offsets: [i * tensorBytes, (i + 1) * tensorBytes] };
  let text = JSON.stringify(header);
  text += " ".repeat((8 - (text.length % 8)) % 8);
  const fd = openSync(path, "w");
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(text.length));
  writeSync(fd, prefix);
  writeSync(fd, text);
  const f32 = new Float32Array(tensorBytes / 4);
  let s = 12345;
  for (let i = 0; i < f32.length; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    f32[i] = ((s / 2 ** 32) - 0.5) * 0.07;
  }
  const half = new Uint16Array(tensorBytes / 2);
  if (dtype !== "F32") {
    const bits = new Uint32Array(f32.buffer);
    // bf16 keeps the top 16 bits; for f16 the same bit pattern is a valid (different) value, fine for timing.
    for (let i = 0; i < half.length; i++) half[i] = bits[i % bits.length]! >>> 16;
  }
  const block = dtype === "F32" ? new Uint8Array(f32.buffer) : new Uint8Array(half.buffer);
  for (let i = 0; i < tensors; i++) {
    const j = i % block.length;
    block[j] = block[j]! ^ 1;
    writeSync(fd, block);
  }
  closeSync(fd);
  return 8 + text.length + tensors * tensorBytes;
}

const dir = mkdtempSync(join(tmpdir(), "ckpt-scan-"));
try {
  const file = join(dir, "model.safetensors");
  const bytes = writeFile(file);
  await scanCheckpointFile(file, { maxBytes: 64 * 2 ** 20 }); // warm the JIT on the header path
  const rssBefore = process.memoryUsage().rss;
  const seconds: number[] = [];
  for (let r = 0; r < Number(values.repeats); r++) {
    const t0 = performance.now();
    const scan = await scanCheckpointFile(file);
    seconds.push((performance.now() - t0) / 1000);
    if (scan.tensors.some((t) => t.stats === null)) throw new Error("a tensor was not measured");
  }
  const best = Math.min(...seconds);
  const peakGrowth = process.resourceUsage().maxRSS * 1024 - rssBefore;
  console.log(JSON.stringify({
    dtype, bytes, tensors, repeats: seconds.length,
    gb_per_s_best: Number((bytes / 1e9 / best).toFixed(3)),
    gb_per_s_median: Number((bytes / 1e9 / seconds.sort((a, b) => a - b)[Math.floor(seconds.length / 2)]!).toFixed(3)),
    peak_rss_growth_mb: Math.round(Math.max(0, peakGrowth) / 2 ** 20),
  }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
