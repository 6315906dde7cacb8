// The worker-thread entry of the pool (workers/pool.ts). Plain JavaScript, so Node loads it whatever runs the
// parent: in the production build (dist/) the compiled task registry sits beside it; from the sources (`npm run
// dev`, vitest) it registers tsx to import the TypeScript one.
import { existsSync } from "node:fs";
import { move, transferableSymbol, valueSymbol } from "piscina";

const compiled = new URL("./tasks.js", import.meta.url);
const { TASKS } = existsSync(compiled) ? await import(compiled.href) : await importSources();

async function importSources() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("./tasks.ts");
}

/** Runs the named task; the buffers it lists are transferred back, not copied. */
export default async function runTask({ task, payload }) {
  const { value, transfer } = await TASKS[task](payload);
  return move({ [transferableSymbol]: transfer, [valueSymbol]: value });
}
