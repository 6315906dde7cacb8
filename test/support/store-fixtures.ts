import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/** test/fixtures/real/stores/, written by scripts/fixtures/real/generate-stores.sh with the real MLflow and W&B. */
export const STORES_DIR = new URL("../fixtures/real/stores/", import.meta.url).pathname;

/**
 * A temporary copy of one store fixture with its gzipped SQLite files unpacked (committed gzipped for size; the
 * bytes are MLflow's own). The caller removes it with `cleanup`.
 */
export function unpackStore(name: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `store-${name}-`));
  cpSync(join(STORES_DIR, name), dir, { recursive: true });
  const visit = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) visit(p);
      else if (p.endsWith(".gz")) {
        writeFileSync(p.slice(0, -3), gunzipSync(readFileSync(p)));
        rmSync(p);
      }
    }
  };
  visit(dir);
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The W&B run folders of the fixture, oldest first, by the run names run_stores.py gave them. */
export function wandbRunDirs(): Record<"healthy" | "overfit" | "diverged" | "typed", string> {
  const root = join(STORES_DIR, "wandb-runs", "wandb");
  const dirs = readdirSync(root).filter((d) => d.startsWith("offline-run-")).sort().map((d) => join(root, d));
  const [healthy, overfit, diverged, typed] = dirs;
  return { healthy: healthy!, overfit: overfit!, diverged: diverged!, typed: typed! };
}
