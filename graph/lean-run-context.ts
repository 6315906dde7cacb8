import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";

/** Where @langchain/core keeps a runnable's config inside the async-local store (getRunnableConfig reads it). */
const LC_CHILD_KEY = Symbol.for("lc:child_config");
/** Where it keeps context variables (setContextVariable), carried from the enclosing store into each child's. */
const CONTEXT_VARIABLES_KEY = Symbol.for("lc:context_variables");
/** The handler name of LangSmith's LangChainTracer, which LangChain adds when LANGSMITH_TRACING/LANGCHAIN_TRACING_V2 say so. */
const LANGSMITH_TRACER = "langchain_tracer";

type Provider = typeof AsyncLocalStorageProviderSingleton;
type Store = { extra?: Record<symbol, unknown>; [CONTEXT_VARIABLES_KEY]?: unknown };

let installed = false;

/** Whether a run's callbacks (a handler list or a CallbackManager) carry LangSmith's tracer. */
function carriesTracer(callbacks: unknown): boolean {
  const handlers = Array.isArray(callbacks) ? callbacks : (callbacks as { handlers?: unknown[] } | undefined)?.handlers;
  return handlers?.some((h) => (h as { name?: unknown } | null)?.name === LANGSMITH_TRACER) ?? false;
}

/**
 * Makes LangChain's per-runnable context cheap when nothing traces. @langchain/core 1.4 wraps every runnable call
 * (each node, channel write and edge: about 50 per analysis) in `runWithConfig`, which, with no tracer in the
 * callbacks, builds a LangSmith `RunTree` that is never sent (a v7 uuid from crypto random bytes, a microsecond
 * date string, environment reads) only to carry the runnable's config to `getRunnableConfig`: about a sixth of
 * the CPU of an offline analysis (BENCHMARKS.md, http_overhead). Without a tracer the store here carries the same
 * config and context variables in a plain object; with one (LangSmith tracing on: LangChain adds its tracer to
 * the run's callbacks from its own environment variables) the library's own code runs, unchanged. Process-wide
 * and idempotent: the provider is the library's singleton.
 */
export function useLeanRunContext(): void {
  if (installed) return;
  const provider: Provider = AsyncLocalStorageProviderSingleton;
  if (typeof provider.runWithConfig !== "function" || typeof provider.getInstance !== "function") {
    throw new Error("@langchain/core's AsyncLocalStorageProviderSingleton changed shape: graph/lean-run-context.ts needs updating");
  }
  const libraryRun = provider.runWithConfig;
  installed = true;
  provider.runWithConfig = function leanRunWithConfig<T>(config: { callbacks?: unknown } | undefined, callback: () => T, avoidCreatingRootRunTree?: boolean): T {
    if (carriesTracer(config?.callbacks)) return libraryRun.call(this, config, callback, avoidCreatingRootRunTree) as T;
    const storage = this.getInstance();
    const previous = storage.getStore() as Store | undefined;
    let store: Store | undefined = avoidCreatingRootRunTree ? undefined : { extra: { [LC_CHILD_KEY]: config } };
    if (previous?.[CONTEXT_VARIABLES_KEY] !== undefined) {
      store ??= {};
      store[CONTEXT_VARIABLES_KEY] = previous[CONTEXT_VARIABLES_KEY];
    }
    return storage.run(store, callback);
  };
}
