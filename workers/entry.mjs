// The worker-thread entry of the pool (workers/pool.ts). Plain JavaScript, so Node loads it whatever runs the
// parent (tsx for `npm start`, vitest in the tests); it registers tsx to import the TypeScript task registry.
import { move, transferableSymbol, valueSymbol } from "piscina";
import { register } from "tsx/esm/api";

register();
const { TASKS } = await import("./tasks.ts");

/** Runs the named task; the buffers it lists are transferred back, not copied. */
export default async function runTask({ task, payload }) {
  const { value, transfer } = await TASKS[task](payload);
  return move({ [transferableSymbol]: transfer, [valueSymbol]: value });
}
