import { describe, expect, it } from "vitest";
import { clientScanFacts } from "../../../nodes/checkpoint/client-scan.js";

describe("clientScanFacts (metadata.scan from a client that scanned the file itself)", () => {
  it("classifies every import by this service's policy, whatever verdict the client attached", () => {
    const facts = clientScanFacts({
      scan: {
        pickles: [{ entry: "archive/data.pkl", protocol: 2, bytes: 120, imports: [{ module: "os", name: "system", opcode: "GLOBAL", count: 1, safety: "safe" }, { module: "torch._utils", name: "_rebuild_tensor_v2", opcode: "GLOBAL", count: 4 }], ext_codes: [], error: null, partial: false }],
        unverified: [{ entry: "x.7z", reason: "it is a compressed archive" }],
        issues: [{ kind: "truncated", detail: "ends at 100 of 200 bytes", expected_bytes: 200, actual_bytes: 100 }],
        training_state: "optimizer",
      },
    });
    expect(facts?.pickles[0]?.globals.map((g) => [`${g.module}.${g.name}`, g.safety, g.count])).toEqual([
      ["os.system", "dangerous", 1],
      ["torch._utils._rebuild_tensor_v2", "safe", 4],
    ]);
    expect(facts?.unverified).toEqual([{ entry: "x.7z", reason: "it is a compressed archive" }]);
    expect(facts?.issues).toEqual([{ kind: "truncated", detail: "ends at 100 of 200 bytes", expectedBytes: 200, actualBytes: 100 }]);
    expect(facts?.trainingState).toBe("optimizer");
  });

  it("drops malformed entries instead of failing, and is null without a scan block", () => {
    const facts = clientScanFacts({ scan: { pickles: [{ entry: 3 }, { entry: "ok.pkl", imports: [{ module: "builtins" }, { module: "builtins", name: "eval" }] }], issues: [{ kind: "exploded", detail: "?" }], training_state: "weird" } });
    expect(facts?.pickles.map((p) => [p.entry, p.globals.map((g) => `${g.module}.${g.name}:${g.safety}`)])).toEqual([["ok.pkl", ["builtins.eval:dangerous"]]]);
    expect(facts?.issues).toEqual([]);
    expect(facts?.trainingState).toBeNull();
    expect(clientScanFacts({})).toBeNull();
  });
});
