import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DOMAINS, QUERY_TYPES, sourceLine } from "../../../knowledge/document.js";
import { CorpusError, loadCorpus, parseDocument } from "../../../knowledge/load-corpus.js";
import { catalogDetectorIds, KNOWN_FINDINGS } from "./known-detectors.js";

const docs = loadCorpus();

describe("the curated corpus", () => {
  it("has at least 40 documents with unique kebab-case ids, covering every domain and query type", () => {
    expect(docs.length).toBeGreaterThanOrEqual(40);
    expect(new Set(docs.map((d) => d.id)).size).toBe(docs.length);
    expect(new Set(docs.map((d) => d.domain))).toEqual(new Set(DOMAINS));
    expect(new Set(docs.map((d) => d.query_type))).toEqual(new Set(QUERY_TYPES));
  });

  it("gives every source a title, a plausible year and a well-formed http(s) URL with a host", () => {
    const sources = docs.flatMap((d) => d.sources.map((s) => ({ doc: d.id, ...s })));
    expect(sources.length).toBeGreaterThan(docs.length);
    for (const s of sources) {
      expect(s.title.trim(), s.doc).not.toBe("");
      expect(s.year, s.doc).toBeGreaterThanOrEqual(1990);
      expect(s.year, s.doc).toBeLessThanOrEqual(2026);
      const url = new URL(s.url);
      expect(["http:", "https:"], `${s.doc}: ${s.url}`).toContain(url.protocol);
      expect(url.hostname, `${s.doc}: ${s.url}`).toMatch(/^[a-z0-9-]+(\.[a-z0-9-]+)+$/);
      expect(s.url, s.doc).not.toMatch(/\s/);
      expect(s.authors ?? s.organization, s.doc).toBeTruthy();
    }
  });

  it("keeps each snippet short and free of markdown emphasis", () => {
    for (const d of docs) {
      expect(d.snippet.length, d.id).toBeGreaterThan(40);
      expect(d.snippet.length, d.id).toBeLessThanOrEqual(281);
      expect(d.snippet, d.id).not.toMatch(/\*\*|`/);
    }
  });

  it("maps every known finding id to at least one document", () => {
    const mapped = new Set(docs.flatMap((d) => d.detectors));
    const unmapped = Object.keys(KNOWN_FINDINGS).filter((id) => !mapped.has(id));
    expect(unmapped).toEqual([]);
  });

  it("maps every id of the analyzers' catalogs that exist to at least one document", async () => {
    const mapped = new Set(docs.flatMap((d) => d.detectors));
    const fromCatalogs = await catalogDetectorIds();
    expect(fromCatalogs.filter((id) => !mapped.has(id))).toEqual([]);
  });

  it("names only finding ids that some analyzer emits", () => {
    const unknown = docs.flatMap((d) => d.detectors).filter((id) => !(id in KNOWN_FINDINGS));
    expect(unknown).toEqual([]);
  });

  it("writes a source line as 'authors (year). title.'", () => {
    expect(sourceLine({ title: "Efficient BackProp", authors: "Yann LeCun et al.", year: 1998, url: "http://x.org" })).toBe(
      "Yann LeCun et al. (1998). Efficient BackProp.",
    );
    expect(sourceLine({ title: "torch.load", organization: "PyTorch", year: 2026, url: "https://pytorch.org" })).toBe(
      "PyTorch (2026). torch.load.",
    );
  });
});

describe("corpus validation", () => {
  const front = (extra: string) =>
    `---\nid: a-doc\ntitle: A doc\ndomain: training\nquery_type: diagnostic\ntags: [x]\ndetectors: []\n${extra}---\nBody text.\n`;

  it("names the file and the field of a bad source", () => {
    const text = front("sources:\n  - title: T\n    authors: A\n    year: 2020\n    url: not a url\n");
    expect(() => parseDocument(text, "bad.md")).toThrow(/bad\.md: sources\.0\.url/);
  });

  it("requires authors or an organization for each source", () => {
    const text = front("sources:\n  - title: T\n    year: 2020\n    url: https://example.org/x\n");
    expect(() => parseDocument(text, "anon.md")).toThrow(/anon\.md: sources\.0: a source needs `authors` or `organization`/);
  });

  it("rejects unknown domains, missing front matter and duplicate ids", () => {
    const good = front("sources:\n  - title: T\n    organization: O\n    year: 2020\n    url: https://example.org/x\n");
    expect(() => parseDocument(good.replace("domain: training", "domain: cooking"), "d.md")).toThrow(/d\.md: domain/);
    expect(() => parseDocument("no front matter", "e.md")).toThrow(CorpusError);
    const dir = mkdtempSync(join(tmpdir(), "corpus-"));
    try {
      writeFileSync(join(dir, "one.md"), good);
      writeFileSync(join(dir, "two.md"), good);
      expect(() => loadCorpus(dir)).toThrow(/duplicate document id "a-doc"/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
