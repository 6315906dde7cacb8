import { describe, expect, it } from "vitest";
import { decodeCompareRequest, TooManyRunsError } from "../../../artifacts/compare-request.js";
import { expandExperimentRuns } from "../../../artifacts/mlflow/experiment-runs.js";
import { RequestDecodeError } from "../../../artifacts/request.js";
import { loadServiceSettings } from "../../../config/env.js";
import { Deadline } from "../../../graph/deadline.js";
import { resolveObjective } from "../../../nodes/experiment/objective.js";

const run = (name: string, extra: Record<string, unknown> = {}) => ({ name, params: { lr: 0.1 }, training_artifacts: { metrics: { val_loss: [1, 0.5] } }, ...extra });
const decode = (body: unknown, max = 500) => decodeCompareRequest(body, "req-1", max);

describe("POST /v1/compare decoding", () => {
  it("decodes inline runs into per-run analysis contexts, run-level params joined to the training artifact", () => {
    const c = decode({ runs: [run("a"), run("b", { training_artifacts: { metrics: { val_loss: [2] }, params: { lr: 0.2 } } })], baseline: "a", dataset_name: "d" });
    expect(c.runs.map((r) => r.name)).toEqual(["a", "b"]);
    expect(c.runs[0]!.context.artifacts[0]!.payload.params).toEqual({ lr: 0.1 });
    expect(c.runs[1]!.context.artifacts[0]!.payload.params).toEqual({ lr: 0.2 });
    expect(c.runs[0]!.context.datasetName).toBe("d");
    expect(c.baseline).toBe("a");
  });

  it("names unnamed runs by position", () => {
    const c = decode({ runs: [{ training_artifacts: { metrics: { val_loss: [1] } } }] });
    expect(c.runs[0]!.name).toBe("run-1");
  });

  it.each([
    [{ runs: [] }, /^runs: at least one run is needed/],
    [{ runs: [run("a"), run("a")] }, /^runs\[1\]\.name: "a" names two runs/],
    [{ runs: [run("a")], baseline: "main" }, /^baseline: "main" names none of the runs \(a\)/],
    [{ runs: [run("a", { training_artifacts: { metrics: { val_loss: ["x"] } } })] }, /^runs\[0\]\.training_artifacts\.metrics\.val_loss\[0\]: expected a number/],
    [{ runs: [{ name: "a" }] }, /^runs\[0\]: nothing to analyze/],
    [{ runs: [run("a")], objective: { metric: "custom_thing" } }, /^objective\.direction: the name "custom_thing" does not say/],
  ])("refuses %j with a message naming the field", (body, message) => {
    expect(() => decode(body)).toThrow(RequestDecodeError);
    expect(() => decode(body)).toThrow(message);
  });

  it("refuses more runs than the limit before decoding any, naming the limit", () => {
    const err = (() => {
      try {
        decode({ runs: [run("a"), run("b"), 42] }, 2);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(TooManyRunsError);
    expect((err as TooManyRunsError).status).toBe(413);
    expect((err as Error).message).toMatch(/3 runs exceed the limit of 2 runs per comparison \(SERVICE_MAX_COMPARE_RUNS\)/);
  });
});

describe("runs selected on the tracking server", () => {
  it("keeps an experiment or run-id selector for expansion and checks the baseline only once names are known", () => {
    const c = decode({ runs: [run("a"), { mlflow: { experiment: "sweep", filter: "params.lr = '0.1'", max_runs: 5 } }, { mlflow: { run_ids: ["abc123"] } }], baseline: "abc123" });
    expect(c.runs.map((r) => r.name)).toEqual(["a"]);
    expect(c.selectors).toEqual([
      { index: 1, selector: { experiment: "sweep", filter: "params.lr = '0.1'", max_runs: 5 } },
      { index: 2, selector: { run_ids: ["abc123"] } },
    ]);
    expect(c.baseline).toBe("abc123");
  });

  it("decodes a single-run reference (experiment + run_name) as one run, as /v1/analyse does", () => {
    const c = decode({ runs: [{ name: "main", mlflow: { experiment: "sweep", run_name: "main" } }] });
    expect(c.selectors).toEqual([]);
    expect(c.runs[0]!.context.mlflow).toEqual({ experiment: "sweep", run_name: "main" });
  });

  it("refuses a malformed selector naming the field", () => {
    expect(() => decode({ runs: [{ mlflow: { experiment: "sweep", max_runs: 0 } }] })).toThrow(/^runs\[0\]\.mlflow/);
    expect(() => decode({ runs: [{ mlflow: { run_ids: ["../etc"] } }] })).toThrow(/expected an MLflow run id/);
  });

  it("needs a tracking server to expand them: 400 naming SERVICE_MLFLOW_TRACKING_URI", async () => {
    const c = decode({ runs: [{ mlflow: { experiment: "sweep" } }] });
    const settings = loadServiceSettings({});
    await expect(expandExperimentRuns(c, { settings, deadline: new Deadline() })).rejects.toMatchObject({ status: 400, code: "MLFLOW_NOT_CONFIGURED" });
  });
});

describe("objective", () => {
  const summary = (name: string) => ({ name }) as never;
  it("infers validation loss first, then accuracy, from the names most runs logged", () => {
    expect(resolveObjective(null, [[summary("val/accuracy"), summary("val/loss")], [summary("val/loss")]])).toEqual({ metric: "val/loss", direction: "minimize", inferred: true });
    expect(resolveObjective(null, [[summary("val/accuracy")], [summary("val/accuracy")]])).toEqual({ metric: "val/accuracy", direction: "maximize", inferred: true });
    expect(resolveObjective(null, [[summary("train/loss")]])).toBeNull();
  });

  it("normalizes a requested metric and takes its direction from its name unless given", () => {
    expect(resolveObjective({ metric: "eval_accuracy" }, [])).toEqual({ metric: "val/accuracy", direction: "maximize", inferred: false });
    expect(resolveObjective({ metric: "val_loss", direction: "maximize" }, [])).toEqual({ metric: "val/loss", direction: "maximize", inferred: false });
  });
});
