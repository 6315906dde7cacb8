import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * vitest globalSetup: the test run gets a temp directory of its own (TMPDIR, read by os.tmpdir() in every worker
 * and in the processes tests start), removed when the run ends, so a run leaves nothing in the system's temp
 * directory. What a test forgot to remove is named on stderr, so the test can be fixed.
 */
export default function privateTmpdir(): () => void {
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "ml-diagnosis-test-run-"));
  process.env.TMPDIR = dir;
  return () => {
    const left = readdirSync(dir);
    if (left.length > 0) {
      process.stderr.write(`test run: ${left.length} entries left in the temp directory, removed now: ${left.slice(0, 20).join(", ")}\n`);
    }
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
