import { describe, expect, it } from "vitest";
import { runTask, sharedPool } from "../../../workers/pool.js";

describe("the worker pool's own errors", () => {
  it("turns an error that belongs to no task (a late answer of an aborted task) into a warning, not an uncaught exception", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const late = new Error("Unexpected message from Worker: { taskId: 66, result: [], error: null, time: null }");
      expect(() => sharedPool().emit("error", late)).not.toThrow();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([`worker pool: ${late.message}`]);
    } finally {
      process.off("warning", onWarning);
    }
    // The pool still runs tasks afterwards.
    const parsed = await runTask("parseJson", new TextEncoder().encode('{"a":[1,2]}'));
    expect(parsed.value).toEqual({ a: [1, 2] });
  });
});
