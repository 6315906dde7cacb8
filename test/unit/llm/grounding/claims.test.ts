import { describe, expect, it } from "vitest";
import { citedIds } from "../../../../llm/grounding/cited-ids.js";
import { checkSentence, claimedSeverity } from "../../../../llm/grounding/claims.js";
import { collectEvidence } from "../../../../llm/grounding/evidence.js";
import { joinSentences, splitSentences } from "../../../../llm/grounding/sentences.js";
import { randomTexts } from "./random-text.js";

const shown = {
  findings: [
    { id: "training.overfitting", severity: "high", evidence: [{ rule_id: "TH-13", text: "val loss rose from 0.41 to 0.58 after epoch 12", observed: 0.58 }] },
    { id: "dataset.class_imbalance", severity: "medium", evidence: [{ rule_id: "DS-02", observed: 12.5 }] },
  ],
};
const evidence = collectEvidence(shown);

describe("splitSentences", () => {
  it("splits at sentence ends and line breaks, not at decimal points or ids, and joins back", () => {
    const text = "Loss 0.41 rose. See training.overfitting!\nNext line。終わり";
    const parts = splitSentences(text);
    expect(parts.map((s) => s.text)).toEqual(["Loss 0.41 rose.", "See training.overfitting!", "Next line。", "終わり"]);
    expect(joinSentences(parts)).toBe(text);
  });

  it("joins every sentence kept back into the text trimmed (what groundText returns for an intact text)", () => {
    const alphabet = ["a", "Z", "7", " ", "  ", ".", "!", "?", "…", "。", "！", "\n", "\t", "\u00a0", "\u3000", "\ufeff", ",", "0.5"];
    for (const text of randomTexts(alphabet, 20_000, 30)) {
      const kept = splitSentences(text).filter((s) => s.text.trim());
      expect(joinSentences(kept), JSON.stringify(text)).toBe(text.trim());
    }
  });
});

describe("checkSentence", () => {
  it("passes sentences whose numbers, ids and severity words hold", () => {
    expect(checkSentence("Validation loss rose from 0.41 to 0.58 after epoch 12 (training.overfitting, TH-13).", evidence, "high")).toBeNull();
    expect(checkSentence("La perte de validation passe de 0,41 à 0,58 après l'époque 12.", evidence, "high")).toBeNull();
    expect(checkSentence("training.overfitting has high severity.", evidence, "medium")).toBeNull();
  });

  it("names the first failing claim: an unknown id, an invented number, an inflated severity", () => {
    expect(checkSentence("See training.made_up.", evidence, "high")).toBe("unknown_id");
    expect(checkSentence("Rule TH-99 fired.", evidence, "high")).toBe("unknown_id");
    expect(checkSentence("Validation loss rose by 987.65 % after epoch 6173.", evidence, "high")).toBe("number");
    expect(checkSentence("La pérdida subió 1.234,5 puntos.", evidence, "high")).toBe("number");
    expect(checkSentence("This is a critical problem.", evidence, "high")).toBe("severity");
    expect(checkSentence("training.overfitting is critical.", evidence, "critical")).toBe("severity");
    expect(checkSentence("dataset.class_imbalance has high severity.", evidence, "high")).toBe("severity");
  });

  it("checks a number against the quantity named just before it", () => {
    const named = collectEvidence({ digest: { weight_std: 0.02, nan_count: 1, classes: { "canned goods": 25, bakery: 127 } } });
    expect(checkSentence("weight_std is 0.02 and nan_count is 1.", named, "info")).toBeNull();
    expect(checkSentence("weight_std is 1.", named, "info")).toBe("number");
    expect(checkSentence("La valeur de canned goods s'établit à 127.", named, "info")).toBe("number");
    expect(checkSentence("El valor de canned goods se sitúa en 25.", named, "info")).toBeNull();
  });

  it("checks a named number of a sentence that cites findings against those findings' values of that field", () => {
    // 12.5 is dataset.class_imbalance's observed value, not training.overfitting's.
    expect(checkSentence("training.overfitting: observed 12.5.", evidence, "high")).toBe("number");
    expect(checkSentence("training.overfitting: observed 0.58.", evidence, "high")).toBeNull();
    expect(checkSentence("dataset.class_imbalance: observed 12.5, see TH-13.", evidence, "high")).toBeNull();
    // Citing no finding, or findings without that field, any value of the field shown stands.
    expect(checkSentence("The observed value is 12.5.", evidence, "high")).toBeNull();
    const withDigest = collectEvidence({ ...shown, digest: { best_epoch: 12 } });
    expect(checkSentence("training.overfitting: best_epoch 12.", withDigest, "high")).toBeNull();
  });

  it("checks a named number against the item the sentence names: a series, a tensor, a recommendation's finding", () => {
    const items = collectEvidence({
      findings: [{ id: "cross.leak", severity: "high", evidence: [{ rule_id: "XA-11<CK-02", observed: 2048 }] }],
      recommendations: [{ priority: 1, finding_ids: ["dataset.missing_values"] }, { priority: 2, finding_ids: ["training.overfitting"] }],
      digest: {
        series: [{ name: "train/loss", min: [34, 0.386] }, { name: "val/loss", min: [12, 0.41] }],
        tensors: [{ name: "conv1.weight", shape: [64, 3, 7, 7] }, { name: "fc.weight", shape: [1000, 512] }],
      },
    });
    // True of another item only: train/loss's min, fc.weight's shape, the other recommendation's priority.
    expect(checkSentence("For val/loss, the min stands at 0.386.", items, "info")).toBe("number");
    expect(checkSentence("For val/loss, the min stands at 0.41.", items, "info")).toBeNull();
    expect(checkSentence("Le shape de conv1.weight vaut 512.", items, "info")).toBe("number");
    expect(checkSentence("Le shape de conv1.weight vaut 64.", items, "info")).toBeNull();
    expect(checkSentence("For dataset.missing_values, priority 2 applies.", items, "info")).toBe("number");
    expect(checkSentence("For dataset.missing_values, priority 1 applies.", items, "info")).toBeNull();
    // Explanation across items stays: a value of any item named, in the language's format.
    expect(checkSentence("Pour val/loss, le min vaut 0,41 ; pour cross.leak, observed 2 048.", items, "info")).toBeNull();
    expect(checkSentence("For val/loss and cross.leak, observed 2,048 values.", items, "info")).toBeNull();
    // Naming no item, any value of the field stands; a rule joined from others may be cited whole or in parts.
    expect(checkSentence("The min stands at 0.386.", items, "info")).toBeNull();
    expect(checkSentence("CK-02 observed 2,048 values (XA-11<CK-02).", items, "info")).toBeNull();
  });

  it("binds a number put at a position to the point there, and an aggregation word to its field", () => {
    const series = collectEvidence({
      digest: {
        series: [
          { name: "val/loss", first: [0, 0.92], last: [29, 0.58], min: [12, 0.41], shape: [[0, 0.92], [7, 0.47], [12, 0.41], [29, 0.58]] },
          { name: "train/loss", min: [29, 0.12], shape: [[0, 0.95], [7, 0.33], [29, 0.12]] },
        ],
        findings: [{ rule_id: "TH-17", window: [1, 29] }, { rule_id: "TH-17", window: [11, 29] }],
      },
    });
    expect(checkSentence("For val/loss, the value of shape stands at 0.47 at step 7.", series, "info")).toBeNull();
    expect(checkSentence("Pour val/loss, la valeur vaut 0,41 à l'étape 12.", series, "info")).toBeNull();
    // Another point of the same curve (0.41 is val/loss at step 12, 0.47 at step 7), or a step it does not have.
    expect(checkSentence("For val/loss, the value of shape stands at 0.41 at step 7.", series, "info")).toBe("number");
    expect(checkSentence("Para val/loss, el valor se sitúa en 0,47 en el paso 9.", series, "info")).toBe("number");
    expect(checkSentence("For val/loss, the min stands at 0.41 at step 29.", series, "info")).toBe("number");
    // A window is a pair too; "after epoch 12" does not say the value is the one at epoch 12.
    expect(checkSentence("For TH-17, the window stands at 29 at step 11.", series, "info")).toBeNull();
    expect(checkSentence("For TH-17, the window stands at 29 at step 12.", series, "info")).toBe("number");
    expect(checkSentence("Validation loss rose to 0.58 after epoch 12.", series, "info")).toBeNull();
    // "final" quotes `last`, "lowest" `min`: val/loss's last is 0.58, 0.41 is its min.
    expect(checkSentence("For val/loss, the final value is 0.58.", series, "info")).toBeNull();
    expect(checkSentence("For val/loss, the final value is 0.41.", series, "info")).toBe("number");
    expect(checkSentence("Pour val/loss, la valeur minimale est 0,41.", series, "info")).toBeNull();
    expect(checkSentence("For val/loss, the lowest value is 0.58.", series, "info")).toBe("number");
  });

  it("reads ids and severity words", () => {
    expect(citedIds("see training.overfitting and TH-13.")).toEqual(["training.overfitting", "TH-13"]);
    expect(claimedSeverity("un problème critique")).toBe("critical");
    expect(claimedSeverity("gravedad alta")).toBe("high");
    expect(claimedSeverity("a high learning rate")).toBeNull();
  });
});
