// Measures the run corpus of issue 35 end to end: every folder of test/fixtures/runcorpus/{tuning,holdout}/ sent
// through `ml-diagnose analyse <folder>` (the real client, in-process) to the real service started on a loopback
// port, scored against each split's labels.json. Prints the figures per split and, with --verbose, per folder.
// With --write, the figures go to test/fixtures/runcorpus/figures.json, which scripts/gen-detector-docs.ts publishes.
// Run: npx tsx scripts/measure-run-corpus.ts [--verbose] [--split tuning|holdout|holdout2] [--write]
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startService } from "../test/support/http-service.js";
import { analyseFolder, CORPUS_DIR, type ItemScore, loadCorpus, scoreItem, type Split, type SplitFigures, splitFigures, SPLITS } from "../test/support/run-corpus.js";

const args = process.argv.slice(2);
const verbose = args.includes("--verbose");
const only = args.includes("--split") ? (args[args.indexOf("--split") + 1] as Split) : null;

const pct = (a: number, b: number) => (b > 0 ? `${((100 * a) / b).toFixed(1)} %` : "–");

function line(s: ItemScore): string {
  const faults = s.faults.map((f) => `${f.ok ? "✓" : "✗"} ${f.ids[0]}≥${f.severity}${f.found ? ` (${f.found})` : ""}`).join("; ");
  const flags = [!s.served ? "NOT SERVED" : "", s.falseAlarms.length ? `FALSE HIGH: ${s.falseAlarms.join(", ")}` : "", s.wrongLead ? `LEADS WITH ${s.wrongLead}` : ""].filter(Boolean).join(" ");
  return `  ${s.item.name.padEnd(34)} ${s.item.label.healthy ? "healthy" : faults} ${flags}\n      findings: ${s.findings || "none"}`;
}

const figures: Partial<Record<Split, SplitFigures>> = {};
const svc = await startService();
try {
  for (const split of SPLITS.filter((s) => !only || s === only)) {
    const scores: ItemScore[] = [];
    for (const item of loadCorpus(split)) scores.push(scoreItem(item, await analyseFolder(item.dir, svc.url)));
    const f = splitFigures(scores);
    figures[split] = f;
    console.log(`${split}: ${f.folders} folders; served ${f.served}/${f.folders} (${pct(f.served, f.folders)}); faults found at their severity ${f.found}/${f.faults} (${pct(f.found, f.faults)}); healthy runs with a high/critical finding ${f.healthyWithHigh}/${f.healthy}; plateau-type lead on a labelled run ${f.wrongLeads}`);
    if (verbose) for (const s of scores) console.log(line(s));
  }
} finally {
  await svc.close();
}
if (args.includes("--write")) writeFileSync(join(CORPUS_DIR, "figures.json"), `${JSON.stringify(figures, null, 2)}\n`);
