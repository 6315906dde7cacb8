import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../config/logger.js";
import { createKnowledgeBase } from "../../../knowledge/create.js";
import { indexCorpus, readSnapshot, SNAPSHOT_FILE, writeSnapshot } from "../../../knowledge/snapshot.js";
import { answersOf } from "../../support/knowledge-answers.js";

const settings = { SERVICE_EMBEDDINGS_MODEL_NAME: undefined, SERVICE_LLM_TIMEOUT_MS: 1000, SERVICE_LLM_MAX_RETRIES: 0 };

describe("the knowledge snapshot the production build writes", () => {
  it("reads back the documents and an index that answers every query as the one built from the corpus", () => {
    const built = indexCorpus();
    const dir = mkdtempSync(join(tmpdir(), "knowledge-snapshot-"));
    const file = join(dir, "corpus-index.json");
    writeSnapshot(built, file);
    const restored = readSnapshot(file);
    rmSync(dir, { recursive: true });
    expect(restored).not.toBeNull();
    expect(restored!.docs).toEqual(built.docs);
    const answers = answersOf(restored!);
    expect(Object.values(answers).some((ranked) => ranked.length > 0)).toBe(true);
    expect(answers).toEqual(answersOf(built));
  });

  it("is absent from the sources, so a start from them indexes the corpus it reads", () => {
    expect(existsSync(SNAPSHOT_FILE)).toBe(false);
    expect(readSnapshot()).toBeNull();
    const lines: string[] = [];
    createKnowledgeBase({ settings, llmConfig: null, logger: createLogger("info", {}, (line) => lines.push(line)) });
    expect(lines.map((l) => JSON.parse(l))).toContainEqual(expect.objectContaining({ msg: "knowledge base ready", documents: indexCorpus().docs.length, index: "corpus" }));
  });
});
