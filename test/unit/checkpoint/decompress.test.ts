import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCheckpointInfo } from "../../../nodes/checkpoint/build-info.js";
import { compressionOf, decompressHead } from "../../../nodes/checkpoint/file/decompress.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { byId, findingsOf, fixture } from "./fixtures.js";

const zlibFile = fixture("ml-pickles/benign/sklearn-random-forest-zlib.joblib");
const gzipFile = fixture("ml-pickles/benign/sklearn-random-forest.joblib.gz");
const dir = mkdtempSync(join(tmpdir(), "decompress-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("compressed pickles (joblib.dump(compress=…), .pkl.gz)", () => {
  it("knows zlib and gzip by their headers, and nothing else", () => {
    expect(compressionOf(readFileSync(zlibFile).subarray(0, 2))).toBe("zlib");
    expect(compressionOf(readFileSync(gzipFile).subarray(0, 2))).toBe("gzip");
    expect(compressionOf(Uint8Array.of(0x78, 0x9d))).toBeNull(); // 0x789d is not a multiple of 31
    expect(compressionOf(Uint8Array.of(0x80, 0x04))).toBeNull();
  });

  it("stops at the output limit and says the output is not whole", async () => {
    const fh = await open(zlibFile, "r");
    try {
      const head = await decompressHead(fh, "zlib", 100);
      expect(head).toMatchObject({ complete: false, error: null });
      expect(head.bytes.length).toBe(100);
      const whole = await decompressHead(fh, "zlib", 1 << 20);
      expect(whole.complete).toBe(true);
      expect(whole.bytes.length).toBeGreaterThan(readFileSync(zlibFile).length);
    } finally {
      await fh.close();
    }
  });

  it("reads a cut gzip file as far as it goes, and cannot vouch for the rest", async () => {
    const bytes = readFileSync(gzipFile);
    const path = join(dir, "cut.joblib.gz");
    writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const scan = await scanCheckpointFile(path);
    expect(scan.format).toBe("pickle");
    expect(scan.pickles[0]!.error).toMatch(/truncated/);
    const [unsafe] = byId(findingsOf(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null })), "checkpoint.unsafe_pickle");
    expect(unsafe?.severity).toBe("medium");
  });
});
