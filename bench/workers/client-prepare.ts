// Worker for client_prepare: runs `ml-diagnose analyse <path> --dry-run` in-process (the real command: detection,
// local checkpoint scan, request assembly, validation, serialization; nothing is sent), `repeats` times, in a
// process of its own so the peak RSS is the client's. argv: <path> <repeats>. Sends one PrepareRun over IPC.
import { main } from "../../client/main.js";
import { since } from "../lib/stats.js";

export interface PrepareRun {
  ms: number[];
  /** Bytes of the request JSON the last run built. */
  requestBytes: number;
  exitCode: number;
  idleRssBytes: number;
  peakRssBytes: number;
}

const peakRss = () => process.resourceUsage().maxRSS * 1024;
const [path, repeatsArg] = process.argv.slice(2);
const repeats = Number(repeatsArg);
if (!path || !(repeats > 0)) throw new Error("usage: client-prepare.ts <path> <repeats>");

const idleRssBytes = peakRss();
const ms: number[] = [];
let requestBytes = 0;
let exitCode = 0;
for (let i = 0; i < repeats; i++) {
  let size = 0;
  const started = performance.now();
  exitCode = await main(["analyse", path, "--dry-run", "-q"], {
    stdout: { write: (t: string) => (size += Buffer.byteLength(t)) },
    stderr: { write: (t: string) => process.stderr.write(t) },
    env: {},
  });
  ms.push(since(started));
  requestBytes = size;
}
const run: PrepareRun = { ms, requestBytes, exitCode, idleRssBytes, peakRssBytes: peakRss() };
process.send!(run);
