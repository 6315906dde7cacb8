import type { RequestHandler } from "express";

/** Request counters and latency sums per route and status, rendered in Prometheus text format. */
export interface Metrics {
  middleware: RequestHandler;
  /** Gauges sampled at scrape time (in-flight analyses, cache hit/miss counters …). */
  addGauges(source: () => Record<string, number>): void;
  render(): string;
}

export function createMetrics(): Metrics {
  const counts = new Map<string, { n: number; seconds: number }>();
  const sources: Array<() => Record<string, number>> = [];
  return {
    middleware: (req, res, next) => {
      const started = performance.now();
      res.on("finish", () => {
        const route = (req.route?.path as string | undefined) ?? "unmatched";
        const key = `method="${req.method}",route="${Array.isArray(route) ? route[0] : route}",status="${res.statusCode}"`;
        const c = counts.get(key) ?? { n: 0, seconds: 0 };
        c.n++;
        c.seconds += (performance.now() - started) / 1000;
        counts.set(key, c);
      });
      next();
    },
    addGauges: (source) => {
      sources.push(source);
    },
    render: () => {
      const lines = ["# TYPE http_requests_total counter", "# TYPE http_request_seconds_sum counter"];
      for (const [labels, c] of counts) {
        lines.push(`http_requests_total{${labels}} ${c.n}`, `http_request_seconds_sum{${labels}} ${c.seconds.toFixed(6)}`);
      }
      for (const source of sources) {
        for (const [name, value] of Object.entries(source())) lines.push(`# TYPE ${name} gauge`, `${name} ${value}`);
      }
      return lines.join("\n") + "\n";
    },
  };
}
