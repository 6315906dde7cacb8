// Measures one `ml-diagnose watch` tick on a growing CSV log (issue #15): the append-only read of the rows a
// tick brings (client/watch, real files), then the re-analysis of the whole run as the service does it (artifact
// text joined, parsed, every training detector as a run still going, including detected_at_step), for logs of
// 10^4 … 10^6 rows × 6 metrics. Median of 3 ticks per size, each appending 1000 rows.
// Run: npx tsx scripts/measure-watch-tick.ts [largest rows]
import { appendFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HISTORY_METRICS, trainingHistory } from "../bench/data/training-history.js";
import { RunFollower } from "../client/watch/follow-run.js";
import { detectTrainingFindings } from "../nodes/training/detect.js";
import { parseTrainingArtifact } from "../nodes/training/parse/index.js";

const largest = Number(process.argv[2] ?? 1_000_000);
const sizes = [10_000, 100_000, 1_000_000].filter((n) => n <= largest);
const TICK_ROWS = 1000;
const TICKS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const rows of sizes) {
  const total = rows + TICKS * TICK_ROWS;
  const h = trainingHistory(total);
  const line = (i: number) => `${i},${HISTORY_METRICS.map((m) => h[m][i]).join(",")}\n`;
  const dir = await mkdtemp(join(tmpdir(), "watch-tick-"));
  const path = join(dir, "history.csv");
  const lines: string[] = [`step,${HISTORY_METRICS.join(",")}\n`];
  for (let i = 0; i < rows; i++) lines.push(line(i));
  await writeFile(path, lines.join(""));
  const follower = new RunFollower(dir);
  await follower.poll();
  const reads: number[] = [];
  const analyses: number[] = [];
  let findings = 0;
  for (let t = 0; t < TICKS; t++) {
    const from = rows + t * TICK_ROWS;
    await appendFile(path, Array.from({ length: TICK_ROWS }, (_, k) => line(from + k)).join(""));
    const t0 = performance.now();
    const poll = await follower.poll();
    const t1 = performance.now();
    const artifact = follower.artifact(true)!;
    const found = detectTrainingFindings(parseTrainingArtifact(artifact));
    const t2 = performance.now();
    if (poll.added !== TICK_ROWS) throw new Error(`tick read ${poll.added} rows, expected ${TICK_ROWS}`);
    reads.push(t1 - t0);
    analyses.push(t2 - t1);
    findings = found.length;
  }
  await rm(dir, { recursive: true, force: true });
  console.log(`${rows} rows × ${HISTORY_METRICS.length} metrics: read of ${TICK_ROWS} appended rows ${median(reads).toFixed(2)} ms, re-analysis ${median(analyses).toFixed(0)} ms, tick ${(median(reads) + median(analyses)).toFixed(0)} ms; ${findings} findings`);
}
