import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { ChainValues } from "@langchain/core/utils/types";
import { isGroundingEvent } from "../llm/grounding/events.js";
import type { Span, SpanStart } from "../domain/trace.js";
import { NODE, type NodeName } from "../nodes/names.js";

export interface SpanListener {
  started?(start: SpanStart): void;
  finished?(span: Span): void;
}

const GRAPH_NODES = new Set<string>(Object.values(NODE));
const round = (ms: number) => Math.round(ms * 10) / 10;

/** Findings count and recorded errors of a node's state update ({agentResults, errors}). */
function readUpdate(outputs: ChainValues): { findings: number | null; error: string | null } {
  const results = outputs?.agentResults as Record<string, { findings?: unknown[] }> | undefined;
  const errors = outputs?.errors as Record<string, string> | undefined;
  const findings = results ? Object.values(results).reduce((n, r) => n + (r.findings?.length ?? 0), 0) : null;
  const messages = errors ? Object.values(errors) : [];
  return { findings, error: messages.length > 0 ? messages.join("; ") : null };
}

/**
 * Collects per-node spans from LangChain callbacks (LANGGRAPH.md §3): the chain run whose name equals its
 * `langgraph_node` is the node itself. Unlike the `debug`/`tasks` streams, whose times are taken when a superstep
 * is scheduled, these times start when the node's code starts, so queueing under maxConcurrency is not counted.
 * The handler is awaited inline so the clock is read when the event happens and listeners see events in order.
 */
export class SpanCollector extends BaseCallbackHandler {
  name = "span-collector";
  override awaitHandlers = true;
  readonly spans: Span[] = [];
  private readonly open = new Map<string, SpanStart & { t: number; grounding?: Span["grounding"] }>();
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

  // @langchain/core 1.4 calls this as (chain, inputs, runId, parentRunId, tags, metadata, runType, runName):
  // its d.ts names the 4th and 7th parameters differently, so they are named here as they arrive.
  override handleChainStart(
    _chain: unknown,
    _inputs: ChainValues,
    runId: string,
    _parentRunId?: string,
    _tags?: string[],
    metadata?: Record<string, unknown>,
    _runType?: string,
    runName?: string,
  ): void {
    const node = metadata?.langgraph_node;
    if (typeof node !== "string" || node !== runName || !GRAPH_NODES.has(node)) return;
    const t = this.now();
    const start: SpanStart = { node: node as NodeName, step: Number(metadata?.langgraph_step ?? 0), start_ms: round(t - this.origin) };
    this.open.set(runId, { ...start, t });
    this.listener.started?.(start);
  }

  /** The port announces a grounding report from inside the node's run: the event's run is the node's. */
  override handleCustomEvent(eventName: string, data: unknown, runId: string): void {
    const open = this.open.get(runId);
    if (!open || !isGroundingEvent(eventName, data)) return;
    const { checked, grounded, removed, reasons } = data.report;
    open.grounding = { checked, grounded, removed, reasons };
  }

  override handleChainEnd(outputs: ChainValues, runId: string): void {
    const { findings, error } = readUpdate(outputs);
    // An analyzer past its budget returns what it kept with this error (nodes/analyzer.ts): a time-out, not a fault.
    this.close(runId, error?.startsWith("timed out after") ? "timeout" : error ? "error" : "ok", findings, error);
  }

  override handleChainError(err: Error, runId: string): void {
    this.close(runId, err?.name === "AbortError" ? "aborted" : "error", null, err?.message ?? String(err));
  }

  private close(runId: string, outcome: Span["outcome"], findings: number | null, error: string | null): void {
    const open = this.open.get(runId);
    if (!open) return;
    this.open.delete(runId);
    const { t, grounding, ...start } = open;
    const span: Span = { ...start, duration_ms: round(this.now() - t), outcome, findings, error, ...(grounding && { grounding }) };
    this.spans.push(span);
    this.listener.finished?.(span);
  }
}
