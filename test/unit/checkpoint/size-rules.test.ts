import { describe, expect, it } from "vitest";
import {
  countParameters,
  detectCorruptFile,
  detectParamCountMismatch,
  detectSizeVsParams,
  expectedWeightBytes,
} from "../../../nodes/checkpoint/detectors/size.js";
import type { IntegrityIssue } from "../../../nodes/checkpoint/file/scan-types.js";
import { checkpointInfo, only, scannedInfo, tensor } from "./checkpoint-info.js";

/** CK-09 and CK-11's counts on hand-built tables: bytes the weights need, the ratios' edges, and what is reported. */
/** One fp32 64 × 32 weight: 2048 parameters, 8192 bytes. */
const W = () => tensor("fc.weight", [64, 32]);
const moment = (name: string, shape = [64, 32]) => tensor(name, shape, {}, { group: "optimizer" });

describe("the bytes the weights need and the parameters counted", () => {
  it("scanned: model tensors' bytes by dtype, a tied storage once, optimizer state and unknown dtypes left out", () => {
    expect(expectedWeightBytes(scannedInfo({ tensors: [W(), tensor("fc2.weight", [10, 10], {}, { dtype: "F16" }), moment("exp_avg")] }))).toBe(8192 + 200);
    const tied = [tensor("wte.weight", [100, 16], {}, { storage: "0" }), tensor("lm_head.weight", [100, 16], {}, { storage: "0" }), tensor("h.weight", [16, 16], {}, { storage: "1" })];
    expect(expectedWeightBytes(scannedInfo({ tensors: tied }))).toBe(6400 + 1024);
    expect(expectedWeightBytes(scannedInfo({ tensors: [tensor("a", [4], {}, { dtype: null }), tensor("b", null)] }))).toBeNull();
    expect(expectedWeightBytes(scannedInfo())).toBeNull();
  });

  it("metadata only: num_parameters × the declared dtype, unless the client listed every tensor", () => {
    expect(expectedWeightBytes(checkpointInfo({ metadata: { dtype: "bfloat16" }, declaredParameters: 1000 }))).toBe(2000);
    expect(expectedWeightBytes(checkpointInfo({ declaredParameters: 1000 }))).toBeNull();
    expect(expectedWeightBytes(checkpointInfo({ metadata: { dtype: "float32" } }))).toBeNull();
    expect(expectedWeightBytes(checkpointInfo({ metadata: { dtype: "float32" }, declaredParameters: 1000, tensors: [W()], tensorsComplete: true }))).toBe(8192);
  });

  it("parameters: every model tensor of a complete table, tied ones once, buffers and optimizer state out", () => {
    const tensors = [W(), tensor("fc.bias", [64]), tensor("bn.running_mean", [64]), moment("exp_avg"), tensor("a", [3], {}, { storage: "s" }), tensor("b", [3], {}, { storage: "s" })];
    expect(countParameters(scannedInfo({ tensors }))).toBe(2048 + 64 + 3);
    expect(countParameters(scannedInfo({ tensors, tensorsComplete: false }))).toBeNull();
    expect(countParameters(scannedInfo({ tensors: [tensor("bn.running_var", [64])] }))).toBeNull();
    expect(countParameters(scannedInfo({ tensors: [W(), tensor("x.weight", null)] }))).toBeNull();
  });
});

describe("CK-09 size vs parameters: smaller than the weights (metadata)", () => {
  const metadata = (sizeBytes: number, extra = {}) => checkpointInfo({ metadata: { dtype: "float32" }, declaredParameters: 1000, sizeBytes, ...extra });

  it("critical below 0.95 × the bytes the parameters need, not at 0.95", () => {
    const f = only(detectSizeVsParams(metadata(3796)));
    expect(f).toMatchObject({ severity: "critical", confidence: 0.75, title: "Checkpoint is smaller than its parameters need" });
    expect(f.description).toContain("size_bytes 3796 is 0.949× the 4000 bytes that 1000 parameters need");
    expect(f.evidence).toEqual([{ rule_id: "CK-09", artifact: "model_checkpoint_artifacts.metadata.size_bytes", text: "size_bytes 3796 vs expected ≥ 4000 (ratio 0.949).", observed: 0.949, threshold: 0.95 }]);
    expect(detectSizeVsParams(metadata(3800))).toEqual([]);
  });

  it("\"the listed\" parameters when the count comes from the client's table; never for a scanned file", () => {
    const listed = checkpointInfo({ tensors: [W()], tensorsComplete: true, sizeBytes: 4000 });
    expect(only(detectSizeVsParams(listed)).description).toContain("that the listed parameters need");
    expect(detectSizeVsParams(scannedInfo({ tensors: [W()], sizeBytes: 4000 }))).toEqual([]);
    expect(detectSizeVsParams(metadata(0))).toEqual([]);
    expect(detectSizeVsParams(checkpointInfo({ sizeBytes: 10 }))).toEqual([]);
  });

  it("a truncated file is left to the corrupt-file finding", () => {
    expect(detectSizeVsParams(metadata(100, { issues: [{ kind: "truncated", detail: "cut" }] }))).toEqual([]);
  });
});

describe("CK-09 size vs parameters: optimizer state included", () => {
  const metadata = (sizeBytes: number, extra = {}) => checkpointInfo({ metadata: { dtype: "float32" }, declaredParameters: 1000, sizeBytes, ...extra });

  it("metadata only: a file 1.8 to 4.5 × its weights, both ends included, unless the metadata says there is no optimizer state", () => {
    const f = only(detectSizeVsParams(metadata(7200)));
    expect(f).toMatchObject({ severity: "info", confidence: 0.6, title: "Checkpoint includes optimizer state" });
    expect(f.evidence).toEqual([{ rule_id: "CK-09", artifact: "model_checkpoint_artifacts.metadata.size_bytes", text: "file 7200 bytes, weights 4000 bytes.", observed: 1.8, threshold: 1.8 }]);
    expect(detectSizeVsParams(metadata(7196))).toEqual([]);
    expect(detectSizeVsParams(metadata(18_000))).toHaveLength(1);
    expect(detectSizeVsParams(metadata(18_004))).toEqual([]);
    expect(detectSizeVsParams(metadata(12_000, { hasOptimizerState: false }))).toEqual([]);
    expect(detectSizeVsParams(metadata(12_000, { hasOptimizerState: true }))).toHaveLength(1);
  });

  it("the Adam note only strictly between 2.5 and 3.6 ×", () => {
    expect(only(detectSizeVsParams(metadata(12_000))).description).toContain("(Adam keeps two moments per parameter, ≈3×)");
    expect(only(detectSizeVsParams(metadata(10_000))).description).not.toContain("Adam");
    expect(only(detectSizeVsParams(metadata(14_400))).description).not.toContain("Adam");
    expect(only(detectSizeVsParams(metadata(12_000))).description).toContain("The file is 3× the size of the model weights (4000 bytes)");
  });

  it("scanned: optimizer tensors of more than half the weights' bytes, whatever the file size; the size alone is not enough", () => {
    const half = scannedInfo({ tensors: [W(), moment("exp_avg", [32, 32])], sizeBytes: 3 * 8192 });
    expect(detectSizeVsParams(half)).toEqual([]);
    const more = scannedInfo({ tensors: [W(), moment("exp_avg", [33, 32])], sizeBytes: 2 * 8192 });
    const f = only(detectSizeVsParams(more));
    expect(f).toMatchObject({ severity: "info", confidence: 0.9 });
    expect(f.evidence[0]).toMatchObject({ artifact: "model_checkpoint_artifacts.checkpoint_path", text: "file 16384 bytes, weights 8192 bytes, optimizer tensors 4224 bytes.", observed: 2 });
    expect(detectSizeVsParams(scannedInfo({ tensors: [W()], sizeBytes: 3 * 8192 }))).toEqual([]);
  });
});

describe("CK-09 corrupt file", () => {
  const issue = (kind: IntegrityIssue["kind"], detail: string, extra: Partial<IntegrityIssue> = {}): IntegrityIssue => ({ kind, detail, ...extra });

  it("truncated is critical, named by its first detail, with the other faults as evidence but not the trailing bytes", () => {
    const f = only(detectCorruptFile(scannedInfo({ issues: [issue("trailing", "tail"), issue("truncated", "ends at 10 of 80 bytes", { expectedBytes: 80, actualBytes: 10 }), issue("hole", "gap")] })));
    expect(f).toMatchObject({ severity: "critical", confidence: 0.95, title: "Checkpoint file is truncated" });
    expect(f.description).toContain("(ends at 10 of 80 bytes)");
    expect(f.evidence).toEqual([
      { rule_id: "CK-09", artifact: "model_checkpoint_artifacts.checkpoint_path", text: "ends at 10 of 80 bytes", observed: 10, threshold: 80 },
      { rule_id: "CK-09", artifact: "model_checkpoint_artifacts.checkpoint_path", text: "gap", observed: "hole", threshold: null },
    ]);
  });

  it("other faults are high, the first named and the kinds of the rest listed once; trailing bytes join their evidence", () => {
    const f = only(detectCorruptFile(scannedInfo({ issues: [issue("hole", "gap at 100"), issue("overlap", "a"), issue("overlap", "b"), issue("size_mismatch", "c"), issue("trailing", "tail")] })));
    expect(f).toMatchObject({ severity: "high", confidence: 0.9, title: "Checkpoint file is malformed" });
    expect(f.description).toContain("(hole: gap at 100; 3 more: overlap, size_mismatch)");
    expect(f.evidence.map((e) => e.text)).toEqual(["gap at 100", "a", "b", "c", "tail"]);
    const single = only(detectCorruptFile(scannedInfo({ issues: [issue("bad_header", "bad")] })));
    expect(single.description).toContain("(bad_header: bad)");
  });

  it("trailing bytes alone are low; evidence stops at 8; no issue, no finding", () => {
    const f = only(detectCorruptFile(scannedInfo({ issues: Array.from({ length: 9 }, (_, i) => issue("trailing", `t${i}`)) })));
    expect(f).toMatchObject({ severity: "low", title: "Checkpoint file has unexplained trailing bytes" });
    expect(f.evidence).toHaveLength(8);
    expect(detectCorruptFile(scannedInfo())).toEqual([]);
  });
});

describe("CK-11 parameter count vs num_parameters", () => {
  const counted = (declaredParameters: number | null) => detectParamCountMismatch(scannedInfo({ tensors: [tensor("fc.weight", [100, 10])], declaredParameters }));

  it("fires more than 1 % of the declared count apart, either way, not at 1 %", () => {
    const f = only(counted(1011));
    expect(f).toMatchObject({ severity: "medium", confidence: 0.75 });
    expect(f.description).toContain("hold 1000 parameters but the metadata says 1011 (1.088 % apart)");
    expect(f.evidence).toEqual([{ rule_id: "CK-11", artifact: "model_checkpoint_artifacts.metadata.num_parameters", text: "counted 1000, declared 1011.", observed: 1000, threshold: 1011 }]);
    expect(counted(1010)).toEqual([]);
    expect(counted(991)).toEqual([]);
    expect(counted(990)).toHaveLength(1);
  });

  it("nothing without a declared count or a complete table", () => {
    expect(counted(null)).toEqual([]);
    expect(counted(0)).toEqual([]);
    expect(detectParamCountMismatch(scannedInfo({ tensors: [W()], tensorsComplete: false, declaredParameters: 5 }))).toEqual([]);
  });
});
