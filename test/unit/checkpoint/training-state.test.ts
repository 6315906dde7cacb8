import { describe, expect, it } from "vitest";
import { detectCheckpointFindings } from "../../../nodes/checkpoint/detect.js";
import { aboveLow, byId, findingsOf, ids, infoOf } from "./fixtures.js";

const WEIGHT_DETECTORS = ["checkpoint.all_zero_tensor", "checkpoint.constant_tensor", "checkpoint.exploding_weights", "checkpoint.dead_units"];
const hf = (file: string) => `folders/hf-trainer/checkpoint-4/${file}`;

describe("training-state files are recognized for what they are", () => {
  it("optimizer.pt is Adam state, not weights: no weight detector runs on its moments", async () => {
    const info = await infoOf(hf("optimizer.pt"));
    expect(info.trainingState).toBe("optimizer");
    expect(new Set(info.tensors.map((t) => t.group))).toEqual(new Set(["optimizer"]));
    expect(aboveLow(findingsOf(info))).toEqual([]);
    expect(ids(findingsOf(info))).toEqual([]);
    // The hard negative bites: the same moments read as weights set off the weight detectors.
    const asWeights = detectCheckpointFindings({ ...info, trainingState: null, tensors: info.tensors.map((t) => ({ ...t, group: "model" as const })) });
    expect(ids(asWeights).filter((id) => WEIGHT_DETECTORS.includes(id)).length).toBeGreaterThan(0);
  });

  it("NaN/Inf in the Adam moments is still critical, with text saying it is the optimizer state", async () => {
    const [f] = byId(findingsOf(await infoOf("folders/hf-nonfinite-optimizer/checkpoint-4/optimizer.pt")), "checkpoint.nonfinite_weights");
    expect(f).toMatchObject({ severity: "critical", title: "Optimizer state holds non-finite values" });
    expect(f!.description).toMatch(/resuming/);
    expect(f!.evidence.map((e) => e.text).join(" ")).toContain("state.2.exp_avg_sq (optimizer)");
  });

  it.each([
    ["scheduler.pt", "scheduler"],
    ["rng_state.pth", "rng_state"],
  ])("%s is %s: silent, and its tensors are not model weights", async (file, state) => {
    const info = await infoOf(hf(file));
    expect(info.trainingState).toBe(state);
    expect(info.tensors.every((t) => t.group !== "model")).toBe(true);
    expect(ids(findingsOf(info))).toEqual([]);
  });

  it("a model file is not taken for training state", async () => {
    expect((await infoOf(hf("model.safetensors"))).trainingState).toBeNull();
    expect((await infoOf("torch/lightning.ckpt")).trainingState).toBeNull();
    expect((await infoOf("torch/smallnet.pt")).trainingState).toBeNull();
  });
});
