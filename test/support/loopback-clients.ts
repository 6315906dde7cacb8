import { request } from "node:http";
import { connect, type Socket } from "node:net";

/** What the server answered a raw request with (status null when the connection closed without an answer). */
export interface RawAnswer {
  status: number | null;
  headers: Record<string, string>;
  text: string;
}

export interface SlowBody {
  /** Resolves when the server answers and the connection ends (or the client closes it). */
  answer: Promise<RawAnswer>;
  close(): void;
}

export interface SlowBodyOptions {
  /** Source address on the loopback network (127.0.0.2, 127.0.0.3 …): each is another client to the server. */
  localAddress?: string;
  path?: string;
  /** Content-Length announced in the headers (the body never gets there). */
  declaredBytes?: number;
  /** One body byte (JSON whitespace after a "{") every this many ms. */
  everyMs?: number;
  headers?: Record<string, string>;
}

/** Reads the status line, headers and body text of the raw answer. */
function parseAnswer(raw: string): RawAnswer {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return { status: null, headers: {}, text: raw };
  const [statusLine, ...lines] = raw.slice(0, end).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine!.split(" ")[1]), headers, text: raw.slice(end + 4) };
}

/**
 * A slow client: sends a POST's headers at once, then its body one byte a second (a slow-loris upload), over its
 * own connection from `localAddress`. The answer is whatever the server sends before the connection ends.
 */
export function openSlowBody(url: string, options: SlowBodyOptions = {}): SlowBody {
  const { hostname, port } = new URL(url);
  const socket: Socket = connect({ host: hostname, port: Number(port), localAddress: options.localAddress });
  const headers = { host: `${hostname}:${port}`, "content-type": "application/json", "content-length": String(options.declaredBytes ?? 100_000), ...options.headers };
  socket.write(`POST ${options.path ?? "/v1/analyse"} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n{`);
  const trickle = setInterval(() => socket.writable && socket.write(" "), options.everyMs ?? 1000);
  let raw = "";
  socket.setEncoding("utf8");
  const answer = new Promise<RawAnswer>((resolve) => {
    const done = () => {
      clearInterval(trickle);
      socket.destroy();
      resolve(parseAnswer(raw));
    };
    // A whole answer ends the client, whether or not the server keeps the connection open.
    socket.on("data", (chunk: string) => {
      raw += chunk;
      const parsed = parseAnswer(raw);
      const length = Number(parsed.headers["content-length"]);
      if (parsed.status !== null && Buffer.byteLength(parsed.text) >= length) done();
    });
    socket.on("close", done);
    socket.on("error", () => {});
  });
  return {
    answer,
    close: () => {
      clearInterval(trickle);
      socket.destroy();
    },
  };
}

/** Loopback source addresses for `n` distinct clients, none of them 127.0.0.1 (the normal client's). */
export const loopbackClients = (n: number, first = 10): string[] => Array.from({ length: n }, (_, i) => `127.0.${Math.floor((first + i) / 250)}.${((first + i) % 250) + 2}`);

/** POSTs a JSON body from a given loopback source address (another client to the server) and reads the answer. */
export function postFrom(url: string, body: string | Buffer, localAddress: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", localAddress, headers: { "content-type": "application/json", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? null, headers: res.headers as Record<string, string>, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}
