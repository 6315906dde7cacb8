import { describe, expect, it } from "vitest";
import { decodeAnalysisRequest, RequestDecodeError } from "../../../artifacts/request.js";
import { sampleTrainingArtifact } from "../../support/training-run.js";

const decode = (training_artifacts: unknown) => decodeAnalysisRequest({ training_artifacts }, "req-1");
const decodeError = (training_artifacts: unknown) => {
  try {
    decode(training_artifacts);
  } catch (err) {
    expect(err).toBeInstanceOf(RequestDecodeError);
    return (err as Error).message;
  }
  throw new Error("expected a decode error");
};

describe("training_artifacts request schema", () => {
  it.each(["full-image-classification", "llm-finetune-hf", "tabular-healthy", "tabular-drift-evidently", "mlflow-logged-dataset"])(
    "accepts the %s sample",
    (name) => {
      expect(decode(sampleTrainingArtifact(name)).artifacts).toHaveLength(1);
    },
  );

  it("accepts every shape, MLflow's non-finite strings and bare NaN", () => {
    expect(() => decode({ metrics: { loss: [1, "NaN", Number.NaN, null, "Infinity"] } })).not.toThrow();
    expect(() => decode({ metrics: { format: "tfevents", content_base64: "AAAA" } })).not.toThrow();
    expect(() => decode({ metrics_values: { key: ["loss"], value: [0.3], step: [1] } })).not.toThrow();
    expect(() => decode({ metrics: [{ epoch: 0, loss: 0.5, run_id: "abc" }] })).not.toThrow();
  });

  it("rejects a metric value that is not a number, naming its path", () => {
    expect(decodeError({ metrics: { val_loss: [0.5, 0.4, 0.3, "low"] } })).toMatch(/^training_artifacts\.metrics\.val_loss\[3\]: expected a number/);
    expect(decodeError({ metrics: { val_loss: [{ step: 0, value: { v: 1 } }] } })).toMatch(/^training_artifacts\.metrics\.val_loss\[0\]\.value: expected a number/);
    expect(decodeError({ metrics: [{ key: "loss", value: "x", step: 0 }] })).toMatch(/^training_artifacts\.metrics\[0\]\.value: expected a number/);
    expect(decodeError({ metrics: [{ epoch: 0, val_acc: "ok" }] })).toMatch(/^training_artifacts\.metrics\[0\]\.val_acc: expected a number/);
    expect(decodeError({ metrics_values: { loss: [0.1, true] } })).toMatch(/^training_artifacts\.metrics_values\.loss\[1\]: expected a number/);
  });

  it("rejects an unknown content format and content of the wrong type", () => {
    expect(decodeError({ metrics: { format: "parquet", content: "" } })).toMatch(/training_artifacts\.metrics\.format: unknown format "parquet"/);
    expect(decodeError({ metrics: { format: "lightning_csv", content: 42 } })).toMatch(/training_artifacts\.metrics\.content: expected the lightning_csv text/);
    expect(decodeError({ metrics: 12 })).toMatch(/training_artifacts\.metrics: expected an object or a list of rows/);
  });
});
