import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { NodeName } from "../nodes/names.js";

/** One run of a graph node: told what the node writes as it goes, and how it ended (its update, or what it threw). */
export interface NodeRun {
  progress(chunk: unknown): void;
  end(update: unknown): void;
  fail(error: unknown): void;
}

/** Told when each node of an analysis starts (server/trace.ts turns the runs into spans, metrics and SSE events). */
export interface NodeRunSink {
  start(node: NodeName, step: number): NodeRun;
}

type NodeFunction<I, O> = (input: I, config: LangGraphRunnableConfig) => O | Promise<O>;

/**
 * The node, reporting each of its runs to the sink in the run's deps (`nodeRuns`), timed from when its own code
 * starts to when it returns or throws, so queueing under maxConcurrency is not counted; what the node writes to
 * `config.writer` (progress) goes to the same run, so a listener hears start, progress and end in their order.
 * Node spans used to come from LangChain callbacks, which cost every runnable of the run (about 50 per analysis:
 * each channel write and edge too) a callback manager, a run id and a serialized description, for the 7 that are
 * nodes. Without a sink (LangGraph's own tools, a comparison's runs) the node runs as it is.
 */
export function reportingRuns<I, O>(node: NodeName, fn: NodeFunction<I, O>): (input: I, config: LangGraphRunnableConfig) => Promise<O> {
  return async (input, config) => {
    const sink = (config.context as { nodeRuns?: NodeRunSink } | undefined)?.nodeRuns;
    if (!sink) return fn(input, config);
    const run = sink.start(node, Number(config.metadata?.langgraph_step ?? 0));
    try {
      const update = await fn(input, { ...config, writer: (chunk: unknown) => run.progress(chunk) });
      run.end(update);
      return update;
    } catch (err) {
      run.fail(err);
      throw err;
    }
  };
}
