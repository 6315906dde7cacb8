import { Router } from "express";
import type { AnalysisGraph } from "../../graph/build.js";
import { ServiceError } from "../errors.js";

/** The graph as JSON: LangGraph's node ids, and edges with `conditional` marking the Send fan-out. */
export interface GraphDescription {
  nodes: { id: string; kind: "start" | "end" | "node" }[];
  edges: { source: string; target: string; conditional: boolean }[];
}

/**
 * The graph as drawn for people: LangGraph lists each analyzer's `errorHandler` as an extra node
 * (`__error_handler__analyzeDataset`, no edges); it is part of the analyzer, so it is left out.
 */
export function drawableGraph(graph: AnalysisGraph) {
  const drawn = graph.getGraph();
  for (const node of Object.values(drawn.nodes)) {
    if (node.id.startsWith("__error_handler__")) drawn.removeNode(node);
  }
  return drawn;
}

/** Nodes and edges of the compiled graph. */
export function describeGraph(graph: AnalysisGraph): GraphDescription {
  const drawn = drawableGraph(graph);
  const kind = (id: string) => (id === "__start__" ? "start" : id === "__end__" ? "end" : "node");
  return {
    nodes: Object.keys(drawn.nodes).map((id) => ({ id, kind: kind(id) })),
    edges: drawn.edges.map((e) => ({ source: e.source, target: e.target, conditional: e.conditional === true })),
  };
}

/** GET /v1/graph: JSON nodes and edges by default, Mermaid text with `?format=mermaid` or `Accept: text/plain`. */
export function createGraphRouter(graph: AnalysisGraph): Router {
  const router = Router();
  // The compiled graph never changes, so both forms are built once. drawMermaid is local text; never use
  // drawMermaidPng, which sends the graph to a remote renderer (LANGGRAPH.md §5).
  const mermaid = drawableGraph(graph).drawMermaid();
  const description = describeGraph(graph);
  router.get("/v1/graph", (req, res) => {
    const { format } = req.query;
    if (format !== undefined && format !== "mermaid" && format !== "json") {
      throw new ServiceError("BAD_REQUEST", 400, `format: expected "mermaid" or "json", received ${JSON.stringify(format)}`);
    }
    const asMermaid = format === "mermaid" || (format === undefined && req.accepts(["application/json", "text/plain"]) === "text/plain");
    res.vary("Accept");
    if (asMermaid) res.type("text/plain; charset=utf-8").send(mermaid);
    else res.json(description);
  });
  return router;
}
