import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Dimensions of the fake embeddings: enough that unrelated texts rarely collide. */
const DIMENSIONS = 256;

/** A deterministic bag-of-words vector: each lower-cased word adds 1 at a hashed position (texts sharing words are close). */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const slot = createHash("sha256").update(word).digest().readUInt32BE(0) % DIMENSIONS;
    v[slot]! += 1;
  }
  return v;
}

export interface FakeEmbeddingsServer {
  /** Base URL to give as SERVICE_LLM_BASE_URL (ends in /v1). */
  baseUrl: string;
  /** Inputs embedded so far, one entry per request. */
  requests: Array<{ model: string; inputs: string[]; encoding: string }>;
  /** While true, every request answers 500. */
  failing: boolean;
  close(): Promise<void>;
}

/** A local OpenAI-compatible server answering POST /v1/embeddings deterministically (float or base64). */
export async function startFakeEmbeddings(): Promise<FakeEmbeddingsServer> {
  const state: FakeEmbeddingsServer = { baseUrl: "", requests: [], failing: false, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      if (state.failing) {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "embeddings offline" } }));
        return;
      }
      const body = JSON.parse(raw) as { model: string; input: string | string[]; encoding_format?: string };
      const inputs = Array.isArray(body.input) ? body.input : [body.input];
      const encoding = body.encoding_format ?? "float";
      state.requests.push({ model: body.model, inputs, encoding });
      const data = inputs.map((text, index) => {
        const vector = fakeEmbedding(text);
        const embedding = encoding === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
        return { object: "embedding", index, embedding };
      });
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
