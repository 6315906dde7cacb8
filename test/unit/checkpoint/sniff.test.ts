import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCheckpointInfo } from "../../../nodes/checkpoint/build-info.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { sniffFormat } from "../../../nodes/checkpoint/file/sniff.js";
import { byId, findingsOf, fixture } from "./fixtures.js";

const dir = mkdtempSync(join(tmpdir(), "ckpt-sniff-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes bytes to a temp file named `name` and scans it. */
async function scanBytes(name: string, bytes: Uint8Array) {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const scan = await scanCheckpointFile(path);
  return { scan, findings: findingsOf(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null })) };
}

describe("format by content, not by extension", () => {
  it("a torch archive renamed .safetensors is still a torch archive, and safetensors renamed .pt is safetensors", async () => {
    expect((await scanBytes("weights.safetensors", readFileSync(fixture("torch/smallnet.pt")))).scan.format).toBe("torch_zip");
    expect((await scanBytes("weights.pt", readFileSync(fixture("safetensors/benign-mlp.safetensors")))).scan.format).toBe("safetensors");
    expect((await scanBytes("weights.bin", readFileSync(fixture("pickle/process-os-system.pkl")))).scan.format).toBe("pickle");
  });

  it("does not take a safetensors header length whose low byte is 0x80 for a pickle", () => {
    const head = new Uint8Array(16);
    new DataView(head.buffer).setBigUint64(0, 0x0280n, true);
    head.set([0x7b, 0x22], 8);
    expect(sniffFormat(head, 10_000, "x.bin")).toBe("safetensors");
  });

  it("a truncated torch archive (no central directory) is reported as truncated: critical", async () => {
    const whole = readFileSync(fixture("torch/smallnet.pt"));
    const { scan, findings } = await scanBytes("cut.pt", whole.subarray(0, whole.length - 2000));
    expect(scan.issues[0]).toMatchObject({ kind: "truncated" });
    expect(byId(findings, "checkpoint.corrupt_file")).toEqual([expect.objectContaining({ severity: "critical", title: "Checkpoint file is truncated" })]);
    // One root cause, one finding: the size check stays silent on a file whose own structure says it is cut short.
    expect(byId(findings, "checkpoint.size_vs_params")).toEqual([]);
  });

  it("a truncated legacy torch file is reported as truncated", async () => {
    const whole = readFileSync(fixture("torch/smallnet-legacy.pt"));
    const { scan } = await scanBytes("cut-legacy.pt", whole.subarray(0, whole.length - 500));
    expect(scan.format).toBe("torch_legacy");
    expect(scan.issues.map((i) => i.kind)).toContain("truncated");
  });

  it("an empty GGUF is read (no tensors, no fault); unknown binaries are named, not scanned: low", async () => {
    const gguf = await scanBytes("model.gguf", new Uint8Array([0x47, 0x47, 0x55, 0x46, 3, 0, 0, 0, ...new Array(32).fill(0)]));
    expect(gguf.scan.format).toBe("gguf");
    expect(gguf.scan.issues).toEqual([]);
    expect(byId(gguf.findings, "checkpoint.unrecognized_format")).toEqual([]);
    const junk = await scanBytes("model.onnx", new Uint8Array(64).fill(7));
    expect(junk.scan.format).toBe("unknown");
    expect(byId(junk.findings, "checkpoint.unrecognized_format")).toEqual([expect.objectContaining({ severity: "low" })]);
  });

  it("a malformed safetensors JSON header becomes a finding, not a crash", async () => {
    const text = Buffer.from('{"a": {"dtype": "F32", "shape": [1], ');
    const head = Buffer.alloc(8);
    head.writeBigUInt64LE(BigInt(text.length));
    const { scan, findings } = await scanBytes("bad.safetensors", Buffer.concat([head, text, Buffer.alloc(4)]));
    expect(scan.issues[0]).toMatchObject({ kind: "unreadable" });
    expect(byId(findings, "checkpoint.corrupt_file")).toEqual([expect.objectContaining({ severity: "high" })]);
  });

  it("corrupted archives and headers never crash the scan", async () => {
    let seed = 7;
    for (const file of ["torch/smallnet.pt", "torch/smallnet-legacy.pt", "safetensors/benign-mlp.safetensors"]) {
      const data = readFileSync(fixture(file));
      for (let round = 0; round < 40; round++) {
        const copy = Uint8Array.from(data);
        for (let k = 0; k < 4; k++) {
          seed = (seed * 1103515245 + 12345) >>> 0;
          // Corrupt the structural parts: the first 2 KiB (headers, data.pkl) and the last 1 KiB (zip directory).
          const at = seed % 2 === 0 ? seed % 2048 : copy.length - 1 - (seed % 1024);
          copy[at] = seed >>> 24;
        }
        await expect(scanBytes(`fuzz-${round}.bin`, copy)).resolves.toBeDefined();
      }
    }
  });
});
