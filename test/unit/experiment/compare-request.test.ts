import { describe, expect, it } from "vitest";
import { decodeCompareRequest, TooManyRunsError } from "../../../artifacts/compare-request.js";
import { RequestDecodeError } from "../../../artifacts/request.js";
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
