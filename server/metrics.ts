import type { RequestHandler } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { SpanListener } from "./trace.js";

/**
 * The service's Prometheus metrics, one registry per runtime (tests run several services in one process): requests
 * by route and status, every graph node's duration, values sampled at scrape time, and prom-client's default
 * process and event-loop families. docs/api.md lists them.
 */
export interface Metrics {
  middleware: RequestHandler;
  /** Observes every node span of every analysis: analysis_node_duration_seconds{node, outcome}. */
  spans: SpanListener;
  /** A value read at scrape time that can go down (in-flight analyses, cache entries, ratios). */
  gauge(name: string, help: string, read: () => number): void;
  /** A count read at scrape time that only grows while the process lives (cache hits …); the name ends in _total. */
  counter(name: `${string}_total`, help: string, read: () => number): void;
  contentType: string;
  render(): Promise<string>;
}

// Node durations run from a millisecond detector to a model call bounded by its time-out (45 s by default).
const NODE_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 45, 90];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpLabels = ["method", "route", "status"] as const;
  const requests = new Counter({ name: "http_requests_total", help: "HTTP requests answered, by method, route pattern and status", labelNames: httpLabels, registers: [registry] });
  const requestSeconds = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from a request's arrival to the end of its answer, by method, route pattern and status",
    labelNames: httpLabels,
    buckets: HTTP_BUCKETS,
    registers: [registry],
  });
  const nodeSeconds = new Histogram({
    name: "analysis_node_duration_seconds",
    help: "Run time of each graph node (the analyzer agents and the steps around them) per analysis, by node and outcome (ok, error, timeout, aborted)",
    labelNames: ["node", "outcome"] as const,
    buckets: NODE_BUCKETS,
    registers: [registry],
  });
  return {
    middleware: (req, res, next) => {
      const stop = requestSeconds.startTimer();
      res.on("finish", () => {
        // The route pattern, never the raw path: one series per route, whatever clients send.
        const route = (req.route?.path as string | string[] | undefined) ?? "unmatched";
        const labels = { method: req.method, route: Array.isArray(route) ? route[0]! : route, status: String(res.statusCode) };
        requests.inc(labels);
        stop(labels);
      });
      next();
    },
    spans: { finished: (span) => nodeSeconds.observe({ node: span.node, outcome: span.outcome }, span.duration_ms / 1000) },
    gauge: (name, help, read) => {
      new Gauge({ name, help, registers: [registry], collect() { this.set(read()); } });
    },
    counter: (name, help, read) => {
      // prom-client counters only add: the source keeps the running count, the scrape copies it.
      new Counter({ name, help, registers: [registry], collect() { this.reset(); this.inc(read()); } });
    },
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
}
