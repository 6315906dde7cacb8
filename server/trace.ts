import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { NodeRun, NodeRunSink } from "../graph/node-runs.js";
import { isGroundingEvent } from "../llm/grounding/events.js";
import type { Span, SpanStart } from "../domain/trace.js";
import { AGENT_OF_NODE, type NodeName } from "../nodes/names.js";

export interface SpanListener {
  started?(start: SpanStart): void;
  /** What a node wrote to `config.writer` while it ran (analyzers write `{node, progress}`). */
  progress?(chunk: unknown): void;
  finished?(span: Span): void;
}

const NODE_OF_AGENT = new Map<string, NodeName>(Object.entries(AGENT_OF_NODE).map(([node, agent]) => [agent, node as NodeName]));
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Findings count and recorded errors of a node's state update ({agentResults, errors}). */
function readUpdate(update: unknown): { findings: number | null; error: string | null } {
  const u = update as { agentResults?: Record<string, { findings?: unknown[] }>; errors?: Record<string, string> } | undefined;
  const findings = u?.agentResults ? Object.values(u.agentResults).reduce((n, r) => n + (r.findings?.length ?? 0), 0) : null;
  const messages = u?.errors ? Object.values(u.errors) : [];
  return { findings, error: messages.length > 0 ? messages.join("; ") : null };
}

/**
 * Collects one analysis's per-node spans from the graph's node runs (graph/node-runs.ts), from when a node's code
 * starts to when it returns or throws, and passes on what nodes write as they run. With a language model it is also one of the run's LangChain callbacks,
 * for one event: the port announces each agent's grounding report from inside the agent's node, and the report
 * goes on that node's span. Listeners see starts and ends in order, as they happen.
 */
export class SpanCollector extends BaseCallbackHandler implements NodeRunSink {
  name = "span-collector";
  override awaitHandlers = true;
  // Its one callback is the grounding event: LangChain skips it for every node and model event of the run.
  override ignoreLLM = true;
  override ignoreChain = true;
  override ignoreAgent = true;
  override ignoreRetriever = true;
  readonly spans: Span[] = [];
  private readonly open = new Map<NodeName, { grounding?: Span["grounding"] }>();
  private readonly origin: number;

  constructor(
    private readonly listener: SpanListener = {},
    private readonly now: () => number = () => performance.now(),
  ) {
    super();
    this.origin = now();
  }

  /** Spans live on this instance, so a copy LangChain might make must be the instance itself. */
  override copy(): this {
    return this;
  }

  start(node: NodeName, step: number): NodeRun {
    const t = this.now();
    const start: SpanStart = { node, step, start_ms: round(t - this.origin) };
    const state: { grounding?: Span["grounding"] } = {};
    this.open.set(node, state);
    this.listener.started?.(start);
    const close = (outcome: Span["outcome"], findings: number | null, error: string | null) => {
      if (this.open.get(node) === state) this.open.delete(node);
      const span: Span = { ...start, duration_ms: round(this.now() - t), outcome, findings, error, ...(state.grounding && { grounding: state.grounding }) };
      this.spans.push(span);
      this.listener.finished?.(span);
    };
    return {
      progress: (chunk) => this.listener.progress?.(chunk),
      end: (update) => {
        const { findings, error } = readUpdate(update);
        // An analyzer past its budget returns what it kept with this error (nodes/analyzer.ts): a time-out, not a fault.
        close(error?.startsWith("timed out after") ? "timeout" : error ? "error" : "ok", findings, error);
      },
      fail: (err) => {
        const e = err as Error | undefined;
        close(e?.name === "AbortError" ? "aborted" : "error", null, e?.message ?? String(err));
      },
    };
  }

  /** The port announces a grounding report from inside the agent's node: it goes on that node's open span. */
  override handleCustomEvent(eventName: string, data: unknown): void {
    if (!isGroundingEvent(eventName, data)) return;
    const node = NODE_OF_AGENT.get(data.agent);
    const open = node && this.open.get(node);
    if (!open) return;
    const { checked, grounded, removed, reasons } = data.report;
    open.grounding = { checked, grounded, removed, reasons };
  }
}
