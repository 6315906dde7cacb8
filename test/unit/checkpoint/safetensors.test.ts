import { describe, expect, it } from "vitest";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { expectedStats, fixture } from "./fixtures.js";

const reference = expectedStats("safetensors");
const close = (a: number | null | undefined, b: number, rel = 1e-6) => Math.abs((a ?? Number.NaN) - b) <= rel * Math.max(1, Math.abs(b));

describe("safetensors reader", () => {
  it.each(Object.keys(reference))("%s: every tensor's statistics match numpy's", async (file) => {
    const scan = await scanCheckpointFile(fixture(`safetensors/${file}`));
    expect(scan.format).toBe("safetensors");
    expect(scan.issues).toEqual([]);
    const expected = reference[file]!;
    expect(scan.tensors.map((t) => t.name).sort()).toEqual(Object.keys(expected).sort());
    for (const t of scan.tensors) {
      const e = expected[t.name] as Record<string, number>;
      const s = t.stats!;
      expect([t.name, s.count, s.nanCount, s.posInfCount, s.negInfCount, s.zeroCount]).toEqual([t.name, e.count, e.nan, e.posinf, e.neginf, e.zeros]);
      if (e.mean === undefined) continue;
      for (const [ours, theirs] of [[s.mean, e.mean], [s.std, e.std], [s.min, e.min], [s.max, e.max], [s.l2, e.l2]] as const) {
        expect(close(ours, theirs!, 1e-5), `${file} ${t.name}: ${ours} vs ${theirs}`).toBe(true);
      }
    }
  });

  it("reads __metadata__, dtypes and shapes from the header", async () => {
    const scan = await scanCheckpointFile(fixture("safetensors/benign-transformer.safetensors"));
    expect(scan.fileMetadata).toEqual({ format: "pt" });
    expect(scan.tensors.find((t) => t.name === "model.embed_tokens.weight")).toMatchObject({ dtype: "F32", shape: [128, 32], numel: 4096 });
    expect(scan.tensors.find((t) => t.name === "encoder.bn.num_batches_tracked")).toBeUndefined();
  });

  it("decodes bf16 and fp8 (E4M3) elements", async () => {
    const bf16 = await scanCheckpointFile(fixture("safetensors/benign-transformer-bf16.safetensors"));
    const f32 = await scanCheckpointFile(fixture("safetensors/benign-transformer.safetensors"));
    for (const t of bf16.tensors) {
      const ref = f32.tensors.find((x) => x.name === t.name)!;
      expect(t.dtype).toBe("BF16");
      // bf16 keeps 8 bits of mantissa: statistics agree to ~0.5 %.
      expect(Math.abs(t.stats!.std! - ref.stats!.std!)).toBeLessThanOrEqual(0.005 * ref.stats!.std! + 1e-9);
    }
    const fp8 = await scanCheckpointFile(fixture("safetensors/fp8-e4m3.safetensors"));
    // codes 0x38 0x40 0xb8 0x7e 0x00 0x38 0x40 0xb8 are 1, 2, −1, 448, 0, 1, 2, −1
    expect(fp8.tensors[0]!.stats).toMatchObject({ count: 8, min: -1, max: 448, mean: 56.5, zeroCount: 1, nanCount: 0 });
  });

  it.each([
    ["fault-hole.safetensors", "hole"],
    ["fault-overlap.safetensors", "overlap"],
    ["fault-truncated.safetensors", "truncated"],
    ["fault-header-too-large.safetensors", "bad_header"],
  ])("%s is reported as %s", async (file, kind) => {
    const scan = await scanCheckpointFile(fixture(`safetensors/${file}`));
    expect(scan.format).toBe("safetensors");
    expect(scan.issues.map((i) => i.kind)).toContain(kind);
  });

  it("does not read tensors that lie past the end of a truncated file", async () => {
    const scan = await scanCheckpointFile(fixture("safetensors/fault-truncated.safetensors"));
    const last = scan.tensors.find((t) => t.byteRange![1] > scan.fileSize)!;
    expect(last.stats).toBeNull();
    expect(scan.tensors.filter((t) => t.stats !== null).length).toBeGreaterThan(0);
  });

  it("scans header-only above maxBytes but still reads tiny tensors", async () => {
    const scan = await scanCheckpointFile(fixture("safetensors/benign-mlp.safetensors"), { maxBytes: 1000 });
    expect(scan.headerOnly).toBe(true);
    expect(scan.tensors.find((t) => t.name === "encoder.fc2.weight")!.stats).toBeNull();
    expect(scan.tensors.find((t) => t.name === "encoder.bn.num_batches_tracked")!.stats).toMatchObject({ min: 4200, max: 4200 });
  });

  it("honours an abort signal and reports progress", async () => {
    const controller = new AbortController();
    controller.abort(new Error("client went away"));
    await expect(scanCheckpointFile(fixture("safetensors/benign-mlp.safetensors"), { signal: controller.signal })).rejects.toThrow("client went away");
    const seen: number[] = [];
    await scanCheckpointFile(fixture("safetensors/benign-mlp.safetensors"), { chunkBytes: 4096, onProgress: (p) => seen.push(p.bytesRead / p.bytesTotal) });
    expect(seen.length).toBeGreaterThan(3);
    expect(seen.at(-1)).toBe(1);
  });
});
