import { describe, expect, it } from "vitest";
import { stepFromCheckpointName } from "../../../nodes/checkpoint/node.js";

describe("stepFromCheckpointName", () => {
  it("reads the step of a Hugging Face Trainer checkpoint directory", () => {
    expect(stepFromCheckpointName("outputs/qwen2.5-1.5b-support-sft/checkpoint-3000")).toBe(3000);
    expect(stepFromCheckpointName(null, "runs:/abc/checkpoint-1200/model.safetensors")).toBe(1200);
  });

  it("ignores names that only contain the word", () => {
    expect(stepFromCheckpointName("my-checkpoint-v2.ckpt", "last.ckpt", undefined)).toBeNull();
    expect(stepFromCheckpointName("checkpoint-best")).toBeNull();
  });
});
