/**
 * Collects garbage every `everyMs` until the returned function is called: a time-out held only weakly (an
 * AbortSignal.timeout inside AbortSignal.any) would be collected and never fire. Needs `--expose-gc`, which the
 * forked test workers get (vitest.config.ts).
 */
export function collectGarbageRepeatedly(everyMs = 20): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("gc() is not exposed: run the tests with --expose-gc (vitest.config.ts execArgv)");
  gc();
  const timer = setInterval(gc, everyMs);
  return () => clearInterval(timer);
}
