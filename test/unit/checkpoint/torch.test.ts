import { describe, expect, it } from "vitest";
import { scanCheckpointFile } from "../../../nodes/checkpoint/file/scan.js";
import { expectedStats, fixture } from "./fixtures.js";

const reference = expectedStats("torch");
const TORCH_DTYPE: Record<string, string> = { "torch.float32": "F32", "torch.int64": "I64", "torch.bfloat16": "BF16", "torch.float16": "F16" };

describe("PyTorch archives (real torch output, parsed without unpickling)", () => {
  it.each([
    ["smallnet.pt", "torch_zip"],
    ["smallnet-torch2.pth", "torch_zip"],
    ["smallnet-legacy.pt", "torch_legacy"],
    ["mixed-precision.pt", "torch_zip"],
    ["smallnet-faults.pt", "torch_zip"],
  ])("%s (%s): tensor table and statistics match torch's", async (file, format) => {
    const scan = await scanCheckpointFile(fixture(`torch/${file}`));
    expect(scan.format).toBe(format);
    expect(scan.issues).toEqual([]);
    const expected = reference[file]!;
    expect(scan.tensors.map((t) => t.name)).toEqual(Object.keys(expected).sort((a, b) => scan.tensors.findIndex((t) => t.name === a) - scan.tensors.findIndex((t) => t.name === b)));
    for (const t of scan.tensors) {
      const e = expected[t.name] as { dtype: string; shape: number[]; nan: number; mean: number; std: number; min: number; max: number };
      expect([t.name, t.dtype, t.shape, t.stats!.nanCount]).toEqual([t.name, TORCH_DTYPE[e.dtype], e.shape, e.nan]);
      expect(t.stats!.mean).toBeCloseTo(e.mean, 6);
      expect(t.stats!.std).toBeCloseTo(e.std, 6);
      expect([t.stats!.min, t.stats!.max]).toEqual([expect.closeTo(e.min, 6), expect.closeTo(e.max, 6)]);
    }
  });

  it("takes the top folder from the first entry, not a hard-coded archive/", async () => {
    const scan = await scanCheckpointFile(fixture("torch/smallnet-torch2.pth"));
    expect(scan.pickles.map((p) => p.entry)).toEqual(["smallnet-torch2/data.pkl"]);
  });

  it("recognizes the format by content whatever the extension (.bin is a torch zip)", async () => {
    const scan = await scanCheckpointFile(fixture("torch/pytorch_model.bin"));
    expect(scan.format).toBe("torch_zip");
  });

  it("lists a tied weight under both names, sharing one storage", async () => {
    const scan = await scanCheckpointFile(fixture("torch/pytorch_model.bin"));
    const emb = scan.tensors.find((t) => t.name === "model.embed_tokens.weight")!;
    const head = scan.tensors.find((t) => t.name === "lm_head.weight")!;
    expect(head.storage).toBe(emb.storage);
    expect(head.stats).toEqual(emb.stats);
  });

  it("reads a Lightning checkpoint: run position, hyperparameters, callbacks and optimizer state", async () => {
    const scan = await scanCheckpointFile(fixture("torch/lightning.ckpt"));
    expect(scan.lightning).toMatchObject({
      epoch: 12, globalStep: 3900, version: "2.4.0", hasOptimizerStates: true, optimizerCount: 1, hasLrSchedulers: true, hasLoops: true,
      hyperParameters: { num_classes: 10, lr: 0.001, hidden_size: 32, batch_size: 16 },
      modelCheckpoint: { monitor: "val_loss", mode: "min", bestModelPath: "/runs/exp1/checkpoints/epoch=9-step=3250.ckpt", lastModelPath: "/runs/exp1/checkpoints/last.ckpt" },
      earlyStopping: { monitor: "val_loss", waitCount: 2, stoppedEpoch: 0, patience: 5 },
    });
    const inGroup = (g: string) => scan.tensors.filter((t) => t.group === g).map((t) => t.name);
    expect(inGroup("model")).toContain("model.classifier.weight");
    expect(inGroup("optimizer")).toContain("optimizer_states.0.state.4.exp_avg_sq");
    expect(inGroup("other").every((n) => n.startsWith("callbacks."))).toBe(true);
    const best = scan.tensors.find((t) => t.name.endsWith(".best_model_score"))!;
    expect(best.stats!.mean).toBeCloseTo(0.4312, 6);
  });

  it("reads a whole pickled model (torch.save(model)) as the model's tensors under state-dict names", async () => {
    const scan = await scanCheckpointFile(fixture("torch/whole-model.pt"));
    const plain = await scanCheckpointFile(fixture("torch/smallnet.pt"));
    expect(scan.tensors.map((t) => [t.name, t.group])).toEqual(plain.tensors.map((t) => [t.name, "model"]));
    const tier = (safety: string) => scan.pickles[0]!.globals.filter((g) => g.safety === safety).map((g) => `${g.module}.${g.name}`);
    expect(tier("suspicious")).toEqual(["__main__.SmallNet"]);
    expect(tier("library")).toEqual(expect.arrayContaining(["torch.nn.modules.conv.Conv2d"]));
  });

  it("reads a weights-only Lightning checkpoint as having no optimizer state", async () => {
    const scan = await scanCheckpointFile(fixture("torch/resume/last.ckpt"));
    expect(scan.lightning).toMatchObject({ hasOptimizerStates: false, modelCheckpoint: null, earlyStopping: null });
    expect(scan.pickles[0]!.entry).toBe("last/data.pkl");
  });
});
