// Runs modelscan (0.8.8, from the corpus venv of scripts/fixtures/modelfiles/) and this service's scan on every file
// of the model-file corpus (test/fixtures/checkpoint/modelfiles/) and writes both verdicts, side by side, into
// docs/checkpoints.md between the `modelfiles-modelscan` markers. Exits 1 when a file modelscan reports any issue for
// is not critical here, or a healthy file gets high or critical here.
// Usage: bash scripts/fixtures/modelfiles/setup-venv.sh && npx tsx scripts/compare-modelfiles-modelscan.ts
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildCheckpointInfo } from "../nodes/checkpoint/build-info.js";
import { detectCheckpointFindings } from "../nodes/checkpoint/detect.js";
import { scanCheckpointFile } from "../nodes/checkpoint/file/scan.js";

const ROOT = new URL("../", import.meta.url).pathname;
const CORPUS = "test/fixtures/checkpoint/modelfiles";
const MODELSCAN = join(ROOT, ".cache/venv-modelfiles/bin/modelscan");
const DOC = join(ROOT, "docs/checkpoints.md");
const [START, END] = ["<!-- modelfiles-modelscan:start -->", "<!-- modelfiles-modelscan:end -->"];

/** Each item: what modelscan is given (a SavedModel is a folder), what this scan reads, and whether it is healthy. */
const ITEMS: Array<{ item: string; ours: string; healthy: boolean }> = [
  { item: "keras/benign.keras", ours: "keras/benign.keras", healthy: true },
  { item: "keras/benign.weights.h5", ours: "keras/benign.weights.h5", healthy: true },
  { item: "keras/legacy-benign.h5", ours: "keras/legacy-benign.h5", healthy: true },
  { item: "keras/lambda.keras", ours: "keras/lambda.keras", healthy: false },
  { item: "keras/legacy-lambda.h5", ours: "keras/legacy-lambda.h5", healthy: false },
  { item: "keras/legacy-nan.h5", ours: "keras/legacy-nan.h5", healthy: false },
  { item: "keras/custom-layer.keras", ours: "keras/custom-layer.keras", healthy: false },
  { item: "savedmodel/benign", ours: "savedmodel/benign/saved_model.pb", healthy: true },
  { item: "savedmodel/readfile", ours: "savedmodel/readfile/saved_model.pb", healthy: false },
  { item: "savedmodel/nan-variable", ours: "savedmodel/nan-variable/saved_model.pb", healthy: false },
  { item: "onnx/benign.onnx", ours: "onnx/benign.onnx", healthy: true },
  { item: "onnx/external", ours: "onnx/external/model.onnx", healthy: true },
  { item: "onnx/nan-initializer.onnx", ours: "onnx/nan-initializer.onnx", healthy: false },
  { item: "onnx/custom-domain.onnx", ours: "onnx/custom-domain.onnx", healthy: false },
  { item: "onnx/truncated.onnx", ours: "onnx/truncated.onnx", healthy: false },
  { item: "onnx/inconsistent.onnx", ours: "onnx/inconsistent.onnx", healthy: false },
  { item: "onnx/external-escape.onnx", ours: "onnx/external-escape.onnx", healthy: false },
  { item: "gguf/benign.gguf", ours: "gguf/benign.gguf", healthy: true },
  { item: "gguf/nan.gguf", ours: "gguf/nan.gguf", healthy: false },
  { item: "gguf/truncated.gguf", ours: "gguf/truncated.gguf", healthy: false },
];

interface Verdict {
  issues: string[];
  scanned: boolean;
}

function modelscan(path: string): Verdict {
  const out = join(mkdtempSync(join(tmpdir(), "modelscan-")), "report.json");
  spawnSync(MODELSCAN, ["-p", path, "-r", "json", "-o", out], { encoding: "utf8" });
  const report = JSON.parse(readFileSync(out, "utf8")) as { issues: Array<{ severity: string; operator: string }>; summary: { scanned?: { total_scanned?: number } } };
  return { issues: report.issues.map((i) => `${i.severity} ${i.operator}`), scanned: (report.summary.scanned?.total_scanned ?? 0) > 0 };
}

const RANK = ["critical", "high", "medium", "low", "info"];
const rows: string[] = [];
const gaps: string[] = [];
for (const { item, ours, healthy } of ITEMS) {
  const path = join(ROOT, CORPUS, ours);
  const scan = await scanCheckpointFile(path);
  const findings = detectCheckpointFindings(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null }));
  const worst = findings.map((f) => f.severity).sort((a, b) => RANK.indexOf(a) - RANK.indexOf(b))[0] ?? "none";
  const notable = findings.filter((f) => f.severity !== "info" && f.severity !== "low").map((f) => `${f.severity} \`${f.id}\``);
  const theirs = modelscan(join(ROOT, CORPUS, item));
  if (theirs.issues.length > 0 && worst !== "critical") gaps.push(`${item}: modelscan reports ${theirs.issues.join(", ")}, here ${worst}`);
  if (healthy && (worst === "critical" || worst === "high")) gaps.push(`${item}: healthy, but ${worst} here`);
  const them = theirs.issues.length > 0 ? theirs.issues.join(", ") : theirs.scanned ? "no issue" : "not scanned (format not supported)";
  rows.push(`| \`${item}\` | ${healthy ? "healthy" : "faulty/hostile"} | ${them} | ${notable.join(", ") || `${worst} only`} |`);
}
const version = spawnSync(MODELSCAN, ["--version"], { encoding: "utf8" }).stdout.trim();
const table = [
  START,
  `modelscan: \`${version}\`. Regenerate with \`npx tsx scripts/compare-modelfiles-modelscan.ts\`.`,
  "",
  "| file | kind | modelscan | this service (findings above low) |",
  "|---|---|---|---|",
  ...rows,
  END,
].join("\n");
const doc = readFileSync(DOC, "utf8");
writeFileSync(DOC, doc.includes(START) ? doc.slice(0, doc.indexOf(START)) + table + doc.slice(doc.indexOf(END) + END.length) : `${doc.trimEnd()}\n\n${table}\n`);
console.log(table);
if (gaps.length > 0) {
  console.error(`gaps:\n${gaps.join("\n")}`);
  process.exit(1);
}
