import { describe, expect, it } from "vitest";
import { parseTrainingArtifact } from "../../../nodes/training/parse/index.js";
import { sampleTrainingArtifact } from "../../support/training-run.js";

describe("Hugging Face trainer_state.json", () => {
  it("reads the llm-finetune-hf sample as given (a trainer_state.json object as metrics)", () => {
    const run = parseTrainingArtifact(sampleTrainingArtifact("llm-finetune-hf"));
    expect(run.format).toBe("hf_trainer_state");
    expect([...run.series.keys()]).toEqual(["grad_norm", "lr", "train/loss", "val/loss"]);
    const grad = run.series.get("grad_norm")!;
    expect(grad.values).toHaveLength(300);
    expect(Number.isNaN(grad.values[grad.steps.indexOf(2610)]!)).toBe(true);
    const train = run.series.get("train/loss")!;
    expect(train.steps[train.steps.length - 1]).toBe(3000);
    // The final summary entry (train_runtime, train_loss) is not a metric point.
    expect(train.values).toHaveLength(300);
    expect(train.values[train.values.length - 1]).toBeCloseTo(1.7383, 4);
    expect(run.series.get("val/loss")!.values).toHaveLength(15);
    expect(run.meta).toMatchObject({ bestStep: 2000, maxSteps: 3000, bestCheckpoint: "outputs/qwen2.5-1.5b-support-sft/checkpoint-2000", valSamples: 1200 });
    expect(run.params.fp16).toBe("True");
  });

  it("reads {format: hf_trainer_state, content} given as the file's text with a bare NaN", () => {
    const text = '{"global_step": 20, "log_history": [{"loss": 2.1, "grad_norm": NaN, "learning_rate": 1e-4, "epoch": 0.5, "step": 10}, {"eval_loss": 1.9, "eval_accuracy": 0.4, "eval_runtime": 2.0, "eval_samples_per_second": 50.0, "eval_steps_per_second": 6.2, "epoch": 1.0, "step": 20}, {"train_runtime": 12.0, "train_loss": 2.0, "total_flos": 1e12, "epoch": 1.0, "step": 20}]}';
    const run = parseTrainingArtifact({ metrics: { format: "hf_trainer_state", content: text } });
    expect([...run.series.keys()]).toEqual(["grad_norm", "lr", "train/loss", "val/accuracy", "val/loss"]);
    expect(run.series.get("val/loss")!.epochs![0]).toBe(1);
    expect(run.meta.valSamples).toBe(100);
  });

  it("is an analyzer error when log_history is missing", () => {
    expect(() => parseTrainingArtifact({ metrics: { format: "hf_trainer_state", content: { global_step: 3 } } })).toThrow(/log_history/);
  });
});
