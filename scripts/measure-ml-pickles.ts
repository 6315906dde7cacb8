// Puts this service's verdicts on the ml-pickles corpus (test/fixtures/checkpoint/ml-pickles/, written by
// scripts/fixtures/ml-pickles/generate.sh) beside picklescan's and modelscan's (tool-verdicts.json, written by the same
// script), as the markdown table of docs/checkpoints.md "Compared with modelscan and picklescan".
// Usage: npx tsx scripts/measure-ml-pickles.ts [--write-docs]   (exit 1 when a file either tool calls dangerous is
// not critical here, or a benign scikit-learn/joblib file is above low)
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Finding } from "../domain/result.js";
import { buildCheckpointInfo } from "../nodes/checkpoint/build-info.js";
import { detectCheckpointFindings } from "../nodes/checkpoint/detect.js";
import { scanCheckpointFile } from "../nodes/checkpoint/file/scan.js";

const FIXTURES = new URL("../test/fixtures/checkpoint/", import.meta.url).pathname;
/** The corpus and its holdout part (other estimators, seeds and payloads, never used to tune the policy). */
const PARTS = ["ml-pickles", "ml-pickles-holdout"];
const DOCS = new URL("../docs/checkpoints.md", import.meta.url).pathname;
const BEGIN = "<!-- ml-pickles table: scripts/measure-ml-pickles.ts -->";
const END = "<!-- /ml-pickles table -->";

interface ToolVerdict { verdict: string; found: string[]; errors: string[] }
type Tools = { picklescan: string; modelscan: string; files: Record<string, { picklescan: ToolVerdict; modelscan: ToolVerdict }> };
type Labels = { files: Record<string, { kind: string; writer: string; payload: string | null }> };
const read = <T>(part: string, file: string): T => JSON.parse(readFileSync(`${FIXTURES}${part}/${file}`, "utf8"));

const ORDER = ["critical", "high", "medium", "low", "info"];
const worst = (findings: readonly Finding[]) => findings.map((f) => f.severity).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0] ?? "none";
/** The finding that sets the file's grade, by id: what the table shows beside the severity. */
const gradeOf = (findings: readonly Finding[]) => {
  const top = worst(findings);
  return `${top}${top === "none" ? "" : ` (${[...new Set(findings.filter((f) => f.severity === top).map((f) => f.id.replace("checkpoint.", "")))].join(", ")})`}`;
};
const tool = (t: ToolVerdict) => (t.verdict === "dangerous" ? `**dangerous** (${t.found.join(", ")})` : t.verdict === "error" ? "parse error" : t.verdict);

const rows: string[] = [];
const gaps: string[] = [];
let versions = "";
for (const part of PARTS) {
  const tools = read<Tools>(part, "tool-verdicts.json");
  const labels = read<Labels>(part, "labels.json");
  versions = `picklescan ${tools.picklescan} | modelscan ${tools.modelscan}`;
  for (const file of Object.keys(tools.files)) {
    const name = part === "ml-pickles" ? file : `holdout: ${file}`;
    const path = `${FIXTURES}${part}/${file}`;
    const scan = await scanCheckpointFile(path);
    const findings = detectCheckpointFindings(buildCheckpointInfo(path, {}, { scan, note: null, maxScanBytes: null }));
    const t = tools.files[file]!;
    const label = labels.files[file];
    const kind = label?.kind ?? "benign (trainer)";
    if ((t.picklescan.verdict === "dangerous" || t.modelscan.verdict === "dangerous") && worst(findings) !== "critical") gaps.push(`${name}: a tool calls it dangerous, not critical here`);
    if (kind === "hostile" && worst(findings) !== "critical") gaps.push(`${name}: hostile, not critical here`);
    if (kind.startsWith("benign") && ORDER.indexOf(worst(findings)) < ORDER.indexOf("low")) gaps.push(`${name}: benign, ${worst(findings)} here`);
    rows.push(`| ${name} | ${kind}${label?.payload ? ` (${label.payload})` : ""} | ${gradeOf(findings)} | ${tool(t.picklescan)} | ${tool(t.modelscan)} |`);
  }
}

const table = [
  `| file | what it is | this service | ${versions} |`,
  "|---|---|---|---|---|",
  ...rows,
].join("\n");
console.log(table);
console.log(gaps.length === 0 ? "\nNo gap: every file either tool calls dangerous is critical here, every hostile file is critical, every benign file is at most low." : `\nGaps:\n${gaps.join("\n")}`);

if (parseArgs({ options: { "write-docs": { type: "boolean" } } }).values["write-docs"]) {
  const docs = readFileSync(DOCS, "utf8");
  const start = docs.indexOf(BEGIN);
  const end = docs.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/checkpoints.md has no ${BEGIN} … ${END} block`);
  writeFileSync(DOCS, `${docs.slice(0, start + BEGIN.length)}\n${table}\n${docs.slice(end)}`);
}
process.exitCode = gaps.length === 0 ? 0 : 1;
