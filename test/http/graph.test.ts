import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYZER_NODES, NODE } from "../../nodes/names.js";
import { type RunningService, startService } from "../support/http-service.js";

describe("GET /v1/graph", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SERVICE_LOG_LEVEL: "silent" });
  });
  afterAll(() => svc.close());

  it("describes the graph as JSON: seven nodes between start and end, Send edges to every analyzer and only them", async () => {
    const res = await fetch(`${svc.url}/v1/graph`);
    expect(res.status).toBe(200);
    const graph = await res.json();
    expect(graph.nodes.filter((n: { kind: string }) => n.kind === "node").map((n: { id: string }) => n.id).sort()).toEqual(Object.values(NODE).sort());
    expect(graph.nodes.filter((n: { kind: string }) => n.kind !== "node").map((n: { id: string }) => n.id).sort()).toEqual(["__end__", "__start__"]);
    const conditional = graph.edges.filter((e: { conditional: boolean }) => e.conditional);
    expect(conditional.map((e: { source: string }) => e.source)).toEqual(ANALYZER_NODES.map(() => "route"));
    expect(conditional.map((e: { target: string }) => e.target).sort()).toEqual([...ANALYZER_NODES].sort());
    const plain = graph.edges.filter((e: { conditional: boolean }) => !e.conditional).map((e: { source: string; target: string }) => `${e.source}->${e.target}`);
    expect(plain.sort()).toEqual(
      ["__start__->route", ...ANALYZER_NODES.map((a) => `${a}->integrate`), "integrate->advise", "advise->__end__"].sort(),
    );
  });

  it("draws the same graph as Mermaid text with ?format=mermaid or Accept: text/plain", async () => {
    const byQuery = await fetch(`${svc.url}/v1/graph?format=mermaid`);
    const byAccept = await fetch(`${svc.url}/v1/graph`, { headers: { accept: "text/plain" } });
    expect(byQuery.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await byQuery.text();
    expect(await byAccept.text()).toBe(text);
    expect(text).toMatch(/^%%\{init:.*\}%%\ngraph TD;/);
    const dotted = [...text.matchAll(/^\s*(\w+) -\.-> (\w+);$/gm)].map((m) => `${m[1]}->${m[2]}`);
    expect(dotted.sort()).toEqual(ANALYZER_NODES.map((a) => `route->${a}`).sort());
    for (const node of Object.values(NODE)) expect(text).toMatch(new RegExp(`^\\s*${node}\\(${node}\\)$`, "m"));
    // Each analyzer's errorHandler is an internal LangGraph node; it is not drawn.
    expect(text).not.toContain("__error_handler__");
    expect(text).not.toMatch(/route -\.-> (integrate|advise|__end__)/);
  });

  it("rejects an unknown format with a 400 naming the parameter", async () => {
    const res = await fetch(`${svc.url}/v1/graph?format=png`);
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe('Error decoding request: format: expected "mermaid" or "json", received "png"');
  });
});
