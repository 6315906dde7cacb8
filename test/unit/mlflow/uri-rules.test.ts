import { describe, expect, it } from "vitest";
import { mlflowUriProblem } from "../../../artifacts/mlflow/uri-rules.js";

describe("mlflowUriProblem", () => {
  it.each([
    "runs:/0a1b2c",
    "runs:/0a1b2c/lightning_logs/version_3/",
    "runs:/0a1b2c/checkpoints/epoch=3-step=400.ckpt",
    "models:/classifier/3",
    "models:/classifier@champion/model.safetensors",
    "models:/m-0123abcd",
    "mlflow-artifacts:/1/0a1b2c/artifacts/model.pt",
    "mlflow-artifacts://tracking.internal:5000/1/0a1b2c/artifacts/model.pt",
    "runs:/0a1b2c/reports/acc%20by%20class.json",
    "runs:/0a1b2c/v1.2..3/notes.txt",
  ])("accepts %j", (uri) => {
    expect(mlflowUriProblem(uri)).toBeNull();
  });

  it.each([
    ["runs:/0a1b2c/../other", "DOT_DOT_SEGMENT"],
    ["models:/classifier/../../x", "DOT_DOT_SEGMENT"],
    ["mlflow-artifacts://host/1/../../etc", "DOT_DOT_SEGMENT"],
    ["runs:/0a1b2c/%2e%2e/x", "ENCODED_CHARACTER"],
    ["runs:/0a1b2c/%2E%2E/x", "ENCODED_CHARACTER"],
    ["runs:/0a1b2c/%252e%252e/x", "ENCODED_CHARACTER"],
    ["runs:/0a1b2c/a%2Fb", "ENCODED_CHARACTER"],
    ["runs:/0a1b2c/a%5cb", "ENCODED_CHARACTER"],
    ["runs:/0a1b2c/a%00b", "ENCODED_CHARACTER"],
    ["runs:/0a1b2c//etc/passwd", "ABSOLUTE_PATH"],
    ["runs://0a1b2c/x", "ABSOLUTE_PATH"],
    ["mlflow-artifacts:////etc/passwd", "ABSOLUTE_PATH"],
    ["runs:/0a1b2c/C:/Windows", "ABSOLUTE_PATH"],
    ["runs:/0a1b2c/a\\b", "BACKSLASH"],
    ["runs:/0a1b2c/a\u0000b", "CONTROL_CHARACTER"],
    ["runs:/0a1b2c/a\rb", "CONTROL_CHARACTER"],
    ["s3://bucket/model.pt", "UNSUPPORTED_SCHEME"],
    ["file:///etc/passwd", "UNSUPPORTED_SCHEME"],
    ["dbfs:/models/x", "UNSUPPORTED_SCHEME"],
    ["relative/path.pt", "UNSUPPORTED_SCHEME"],
  ])("refuses %j (%s)", (uri, rule) => {
    expect(mlflowUriProblem(uri)?.rule).toBe(rule);
  });

  it("limits the schemes to those the field documents", () => {
    expect(mlflowUriProblem("models:/classifier/3", ["runs"])?.rule).toBe("UNSUPPORTED_SCHEME");
    expect(mlflowUriProblem("runs:/0a1b2c/x", ["runs"])).toBeNull();
  });
});
