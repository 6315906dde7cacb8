import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postJson, type RunningService, startService } from "../support/http-service.js";

describe("the served OpenAPI document declares what each route requires", () => {
  let svc: RunningService;
  let doc: any;
  beforeAll(async () => {
    svc = await startService();
    doc = await (await fetch(`${svc.url}/openapi.json`)).json();
  });
  afterAll(() => svc.close());

  it("GET /v1/knowledge: q required, the others optional, with their bounds; without q the route answers 400", async () => {
    const params = Object.fromEntries(doc.paths["/v1/knowledge"].get.parameters.map((p: any) => [p.name, p]));
    expect(Object.keys(params).sort()).toEqual(["domain", "limit", "q", "type"]);
    expect(params.q).toMatchObject({ in: "query", required: true, schema: { type: "string", minLength: 1, maxLength: 1000 } });
    expect(params.limit).toMatchObject({ required: false, schema: { minimum: 1, maximum: 50 } });
    expect(params.domain.schema.enum.length).toBeGreaterThan(1);
    expect((await fetch(`${svc.url}/v1/knowledge`)).status).toBe(400);
    expect((await fetch(`${svc.url}/v1/knowledge?q=overfitting`)).status).toBe(200);
  });

  it("GET /v1/graph: format is json or mermaid", () => {
    expect(doc.paths["/v1/graph"].get.parameters).toEqual([{ name: "format", in: "query", required: false, schema: { type: "string", enum: ["json", "mermaid"] } }]);
  });

  it("analysis bodies must name something to analyze, as the routes answer", async () => {
    for (const path of ["/v1/analyse", "/v1/analyze", "/v1/report"]) {
      const schema = doc.paths[path].post.requestBody.content["application/json"].schema;
      // One non-empty artifact object at least; no run reference on a service without a tracking server.
      expect(schema.anyOf.map((alternative: { required: string[] }) => alternative.required[0]), path).toEqual([
        "dataset_artifacts", "checks_artifacts", "deepchecks_artifacts", "training_artifacts", "model_checkpoint_artifacts",
      ]);
      expect(schema.anyOf[0].properties.dataset_artifacts).toEqual({ type: "object", minProperties: 1 });
      expect(schema.properties.mlflow.type).toBe("null");
      expect(schema.not.required).toEqual(["checks_artifacts", "deepchecks_artifacts"]);
      expect(schema.properties.dataset_name.anyOf?.[0]?.maxLength ?? schema.properties.dataset_name.maxLength).toBe(1000);
      for (const body of [{}, { training_artifacts: {}, dataset_name: "d" }]) {
        const res = await postJson(`${svc.url}${path}`, body);
        expect(res.status).toBe(400);
        expect(res.json.detail).toMatch(/^Error decoding request: \(body\): nothing to analyze/);
      }
      const both = await postJson(`${svc.url}${path}`, { checks_artifacts: { checks: [] }, deepchecks_artifacts: { checks: [] } });
      expect(both.json.detail).toMatch(/^Error decoding request: deepchecks_artifacts: give either/);
      const run = await postJson(`${svc.url}${path}`, { mlflow: { run_id: "abc" } });
      expect(run.json.code).toBe("MLFLOW_NOT_CONFIGURED");
    }
  });
});
