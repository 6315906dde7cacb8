import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { writeSafetensors } from "../../../bench/data/safetensors-file.js";
import { HISTORY_METRICS, trainingHistory, trainingHistoryBody, trainingHistoryRequest } from "../../../bench/data/training-history.js";
import { decodeAnalysisRequest } from "../../../artifacts/request.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";

describe("bench training history", () => {
  it("is seeded: the same size gives the same numbers", () => {
    expect(trainingHistory(500)).toEqual(trainingHistory(500));
    expect(trainingHistory(500, 1)).not.toEqual(trainingHistory(500, 2));
  });

  it("has six finite series of the requested length that look like a healthy run", () => {
    const h = trainingHistory(2000);
    expect(Object.keys(h)).toEqual([...HISTORY_METRICS]);
    for (const m of HISTORY_METRICS) {
      expect(h[m]).toHaveLength(2000);
      expect(h[m].every(Number.isFinite)).toBe(true);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(h.val_loss.slice(-200))).toBeLessThan(mean(h.val_loss.slice(0, 200)) / 3);
    expect(mean(h.val_accuracy.slice(-200))).toBeGreaterThan(0.85);
  });

  it("is written as bytes in shared memory exactly as JSON.stringify writes the request", () => {
    for (const points of [1, 3, 2000]) {
      const body = trainingHistoryBody(points);
      expect(body.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(body.toString("utf8")).toBe(JSON.stringify(trainingHistoryRequest(points)));
    }
  });

  it("is a request the service decodes", () => {
    const context = decodeAnalysisRequest(trainingHistoryRequest(100), "bench-test");
    expect(context.artifacts.map((a) => a.field)).toEqual(["training_artifacts"]);
  });
});

describe("bench safetensors file", () => {
  const dir = mkdtempSync(join(tmpdir(), "bench-gen-test-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("is a valid safetensors file the scanner reads whole, in F32, BF16 and F16", async () => {
    const file = join(dir, "model.safetensors");
    const generated = writeSafetensors(file, 2 * 1024 ** 2, { width: 64 });
    expect(statSync(file).size).toBe(generated.bytes);
    const scan = await scanCheckpointFile(file);
    expect(scan.format).toBe("safetensors");
    expect(scan.issues).toEqual([]);
    expect(scan.tensors).toHaveLength(generated.tensors);
    expect(new Set(scan.tensors.map((t) => t.dtype))).toEqual(new Set(["F32", "BF16", "F16"]));
    const weights = scan.tensors.filter((t) => t.name.endsWith("qkv.weight"));
    for (const t of weights) {
      expect(t.stats!.nanCount).toBe(0);
      expect(t.stats!.std!).toBeGreaterThan(0.01);
      expect(t.stats!.std!).toBeLessThan(0.05);
    }
  });

  it("can hold one dtype only", async () => {
    const file = join(dir, "bf16.safetensors");
    writeSafetensors(file, 1024 ** 2, { width: 64, dtype: "BF16" });
    const scan = await scanCheckpointFile(file);
    expect(scan.issues).toEqual([]);
    expect(new Set(scan.tensors.map((t) => t.dtype))).toEqual(new Set(["BF16"]));
  });
});
