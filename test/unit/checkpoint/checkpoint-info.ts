import { expect } from "vitest";
import type { Finding } from "../../../domain/result.js";
import { classifyGlobal } from "../../../nodes/checkpoint/file/pickle-policy.js";
import type { PickleReport } from "../../../nodes/checkpoint/file/pickle-scan.js";
import type { CheckpointInfo, TensorRecord, TensorValues } from "../../../nodes/checkpoint/table.js";
import { metadataInfo } from "./fixtures.js";

/**
 * Hand-built detector inputs: the normalized table with nothing in it, then only what a case needs. Detectors are
 * pure functions of this table, so a test states its input without a file or a client payload in between.
 */
export const checkpointInfo = (overrides: Partial<CheckpointInfo> = {}): CheckpointInfo => ({ ...metadataInfo({}), ...overrides });

/** A scanned file's table (mode "scanned", every tensor present). */
export const scannedInfo = (overrides: Partial<CheckpointInfo> = {}): CheckpointInfo =>
  checkpointInfo({ path: "/models/model.pt", mode: "scanned", format: "torch_zip", tensorsComplete: true, ...overrides });

/** Healthy statistics of a fp32 weight: std near the He scale of a small layer, no zeros, finite. */
const HEALTHY: TensorValues = {
  nanCount: 0, infCount: 0, zeroFraction: 0, min: -0.9, max: 0.95, mean: 0, std: 0.25, maxAbs: 0.95, units: null, deadUnits: null, nonfiniteStats: null,
};

/** One tensor row; `shape` sets `numel`. Values default to healthy, `values: null` means none were read. */
export function tensor(name: string, shape: number[] | null, values: Partial<TensorValues> | null = {}, extra: Partial<TensorRecord> = {}): TensorRecord {
  return {
    name, dtype: "F32", rawDtype: "F32", shape, numel: shape ? shape.reduce((a, b) => a * b, 1) : null, group: "model", storage: null, requiresGrad: null,
    values: values === null ? null : { ...HEALTHY, ...values },
    ...extra,
  };
}

/** One pickle stream importing `globals` (module, name), each graded by the real trust policy. */
export function pickleReport(entry: string, globals: Array<[string, string]>, extra: Partial<PickleReport> = {}): PickleReport {
  return {
    entry, bytes: 1000, pickles: 1, protocol: 2,
    globals: globals.map(([module, name]) => ({ module, name, opcode: "GLOBAL" as const, count: 1, ...classifyGlobal(module, name) })),
    extCodes: [], versions: [], error: null, partial: false,
    ...extra,
  };
}

/** The one finding a detector raised; fails the test when it raised none or several. */
export function only(found: Finding[]): Finding {
  expect(found).toHaveLength(1);
  return found[0]!;
}
