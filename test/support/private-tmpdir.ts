import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** tsx's own compile cache and IPC folder (`tsx-<uid>`), made by every process the tests start with tsx: a tool's cache, not a test's leftover. */
const TSX_CACHE = /^tsx-\d+$/;

/**
 * vitest globalSetup: the test run gets a temp directory of its own (TMPDIR, read by os.tmpdir() in every worker
 * and in the processes tests start), removed when the run ends, so a run leaves nothing in the system's temp
 * directory. What a test or the service under test forgot to remove fails the run, named on stderr.
 */
export default function privateTmpdir(): () => void {
  // Each project of the run lists this setup; the first makes the directory and removes it at the end.
  if (process.env.ML_DIAGNOSIS_TEST_TMPDIR) return () => {};
  const previous = process.env.TMPDIR;
  const dir = mkdtempSync(join(tmpdir(), "ml-diagnosis-test-run-"));
  process.env.TMPDIR = dir;
  process.env.ML_DIAGNOSIS_TEST_TMPDIR = dir;
  return () => {
    delete process.env.ML_DIAGNOSIS_TEST_TMPDIR;
    const left = readdirSync(dir).filter((name) => !TSX_CACHE.test(name));
    if (left.length > 0) {
      process.stderr.write(`test run FAILED: ${left.length} entries left in the temp directory (removed now; remove them in the test that makes them): ${left.slice(0, 20).join(", ")}\n`);
      // A throw here is only logged by vitest; the exit code is what CI and npm test see.
      process.exitCode = 1;
    }
    rmSync(dir, { recursive: true, force: true });
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  };
}
