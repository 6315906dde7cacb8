import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Finding } from "../../../domain/result.js";
import { buildCheckpointInfo } from "../../../nodes/checkpoint/build-info.js";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { aboveLow, byId, findingsOf, fixture, infoOf } from "./fixtures.js";

/**
 * The scikit-learn / joblib / boosting / pandas corpus (scripts/fixtures/ml-pickles/): files the libraries wrote,
 * hostile twins, and picklescan's and modelscan's verdicts on the same files (tool-verdicts.json).
 */
interface Label { kind: "benign" | "hostile" | "unread"; writer: string; payload: string | null; compress?: string }
const labels: { canary: string; versions: Record<string, string>; files: Record<string, Label> } = JSON.parse(readFileSync(fixture("ml-pickles/labels.json"), "utf8"));
interface ToolVerdict { verdict: "dangerous" | "clean" | "error" | "skipped"; found: string[] }
const tools: { files: Record<string, { picklescan: ToolVerdict; modelscan: ToolVerdict }> } = JSON.parse(readFileSync(fixture("ml-pickles/tool-verdicts.json"), "utf8"));

const files = (kind: Label["kind"]) => Object.entries(labels.files).filter(([, l]) => l.kind === kind).map(([name]) => name);
const findings = new Map<string, Finding[]>();

beforeAll(async () => {
  rmSync(labels.canary, { force: true });
  for (const name of Object.keys(labels.files)) findings.set(name, findingsOf(await infoOf(`ml-pickles/${name}`)));
});

const worst = (name: string) => {
  const order = ["critical", "high", "medium", "low", "info"];
  return findings.get(name)!.map((f) => f.severity).sort((a, b) => order.indexOf(a) - order.indexOf(b))[0] ?? "none";
};

describe("ml-pickles corpus: trust graded, nothing executed", () => {
  it("holds every kind of file", () => {
    expect(files("benign").length).toBeGreaterThanOrEqual(12);
    expect(files("hostile").length).toBeGreaterThanOrEqual(6);
    expect(files("unread").length).toBe(2);
  });

  it.each(files("benign"))("%s (benign) is at most low, graded as a known library's code", (name) => {
    expect(aboveLow(findings.get(name)!)).toEqual([]);
    const [library] = byId(findings.get(name)!, "checkpoint.library_pickle");
    expect(library?.severity).toBe("low");
    expect(library?.description).toMatch(/loading it runs this library's code, which is safe only with the same library version/);
  });

  it("names the scikit-learn version the estimators record", () => {
    for (const name of ["benign/sklearn-random-forest.joblib", "benign/sklearn-pipeline.joblib", "benign/sklearn-random-forest-zlib.joblib", "benign/sklearn-random-forest.pkl"]) {
      const [library] = byId(findings.get(name)!, "checkpoint.library_pickle");
      expect(library!.description).toContain(`scikit-learn ${labels.versions["scikit-learn"]}`);
    }
  });

  it.each(files("hostile"))("%s (hostile) is critical and names the payload's import", (name) => {
    const [unsafe] = byId(findings.get(name)!, "checkpoint.unsafe_pickle");
    expect(unsafe?.severity).toBe("critical");
    expect(unsafe?.description).toContain(labels.files[name]!.payload);
  });

  it.each(files("unread"))("%s (xz/lz4, which Node cannot decompress) is reported as not verified, never as safe", (name) => {
    const [unverified] = byId(findings.get(name)!, "checkpoint.unverified_content");
    expect(unverified?.severity).toBe("medium");
    expect(unverified?.description).toMatch(/could not look inside/);
  });

  it("ran no payload while scanning (the canary file was never created)", () => {
    expect(findings.size).toBe(Object.keys(labels.files).length);
    expect(existsSync(labels.canary)).toBe(false);
  });
});

describe("beside picklescan and modelscan on the same files", () => {
  const dangerousToATool = Object.entries(tools.files).filter(([, t]) => t.picklescan.verdict === "dangerous" || t.modelscan.verdict === "dangerous").map(([n]) => n);

  it("is critical on every file either tool calls dangerous", () => {
    expect(dangerousToATool.length).toBeGreaterThan(0);
    for (const name of dangerousToATool) expect([name, worst(name)]).toEqual([name, "critical"]);
  });

  it("finds the payloads both tools miss behind joblib's raw arrays", () => {
    const missed = files("hostile").filter((n) => !dangerousToATool.includes(n));
    expect(missed).toEqual(expect.arrayContaining(["hostile/object-array-nested.joblib", "hostile/sklearn-pipeline-step.joblib"]));
    for (const name of missed) expect(worst(name)).toBe("critical");
  });

  it("keeps every benign scikit-learn/joblib file at most low, where both tools fail to parse most of them", () => {
    const joblibFiles = files("benign").filter((n) => labels.files[n]!.writer === "joblib.dump" || n.includes("sklearn"));
    expect(joblibFiles.filter((n) => tools.files[n]!.picklescan.verdict === "error").length).toBeGreaterThan(3);
    for (const name of joblibFiles) expect(["low", "info", "none"]).toContain(worst(name));
  });
});

describe("joblib's layout", () => {
  it("reads a joblib file to its STOP, past every numeric array, without a parse error", async () => {
    const scan = await scanCheckpointFile(fixture("ml-pickles/benign/sklearn-random-forest.joblib"));
    expect(scan.pickles).toEqual([expect.objectContaining({ error: null, pickles: 1, partial: false })]);
    expect(scan.pickles[0]!.globals.map((g) => `${g.module}.${g.name}`)).toContain("joblib.numpy_pickle.NumpyArrayWrapper");
  });

  it("scans a zlib-compressed joblib file's decompressed stream", async () => {
    const scan = await scanCheckpointFile(fixture("ml-pickles/benign/sklearn-random-forest-zlib.joblib"));
    expect(scan.format).toBe("pickle");
    expect(scan.pickles[0]).toMatchObject({ entry: "sklearn-random-forest-zlib.joblib (zlib)", error: null });
  });

  describe("a payload that only pickle.load would run", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "joblib-plain-"));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /**
     * A wrapper (without alignment, as joblib ≤ 1.1 wrote it) declaring a 23-byte uint8 array whose bytes are the
     * opcodes `posix.system("x")`: joblib.load reads them as data, pickle.load of the same file runs them.
     */
    function wrapperHidingOpcodes(): Uint8Array {
      const text = (s: string) => Buffer.from(s, "latin1");
      const str = (s: string) => Buffer.concat([text("X"), Buffer.from(Uint32Array.of(s.length).buffer), text(s)]);
      const payload = Buffer.concat([text("cposix\nsystem\n"), str("x"), text("\x85R0")]);
      return Buffer.concat([
        text("\x80\x02cjoblib.numpy_pickle\nNumpyArrayWrapper\n)\x81}("),
        str("shape"), text(`K${String.fromCharCode(payload.length)}\x85`), str("order"), str("C"),
        str("dtype"), text("cnumpy\ndtype\n"), str("u1"), text("\x89\x88\x87R(K\x03"), str("|"), text("NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb"),
        text("ub"), payload, text("."),
      ]);
    }

    it("is critical though joblib's own reading imports only the wrapper and numpy.dtype", async () => {
      const path = join(dir, "model.joblib");
      writeFileSync(path, wrapperHidingOpcodes());
      const scan = await scanCheckpointFile(path);
      expect(scan.pickles[0]!.error).toBeNull();
      expect(scan.pickles[0]!.globals.map((g) => `${g.module}.${g.name}`).sort()).toEqual(["joblib.numpy_pickle.NumpyArrayWrapper", "numpy.dtype", "posix.system"]);
      const [unsafe] = byId(findingsOf(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null })), "checkpoint.unsafe_pickle");
      expect(unsafe?.severity).toBe("critical");
    });
  });
});

describe("the holdout part (other estimators, seeds, protocols and payloads; never used to tune the policy)", () => {
  const holdout: { canary: string; files: Record<string, Label> } = JSON.parse(readFileSync(fixture("ml-pickles-holdout/labels.json"), "utf8"));
  const holdoutTools: typeof tools = JSON.parse(readFileSync(fixture("ml-pickles-holdout/tool-verdicts.json"), "utf8"));
  const graded = new Map<string, Finding[]>();
  beforeAll(async () => {
    rmSync(holdout.canary, { force: true });
    for (const name of Object.keys(holdout.files)) graded.set(name, findingsOf(await infoOf(`ml-pickles-holdout/${name}`)));
  });
  const of = (kind: Label["kind"]) => Object.entries(holdout.files).filter(([, l]) => l.kind === kind).map(([n]) => n);

  it.each(of("benign"))("%s (benign) is at most low", (name) => {
    expect(aboveLow(graded.get(name)!)).toEqual([]);
  });

  it.each(of("hostile"))("%s (hostile) is critical and names the payload's import", (name) => {
    const [unsafe] = byId(graded.get(name)!, "checkpoint.unsafe_pickle");
    expect(unsafe?.severity).toBe("critical");
    expect(unsafe?.description).toContain(holdout.files[name]!.payload);
  });

  it("is critical wherever a tool says dangerous, and ran no payload", () => {
    const flagged = Object.entries(holdoutTools.files).filter(([, t]) => t.picklescan.verdict === "dangerous" || t.modelscan.verdict === "dangerous");
    expect(flagged.length).toBeGreaterThan(0);
    for (const [name] of flagged) expect(byId(graded.get(name)!, "checkpoint.unsafe_pickle")[0]?.severity).toBe("critical");
    expect(existsSync(holdout.canary)).toBe(false);
  });
});
