import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * How the server answers: a status and JSON body (fixed, or made from the request's headers, e.g. to echo them as
 * verbose servers do), or never (the request is held until its client leaves).
 */
export type CountingReply = { status: number; body: Record<string, unknown> | ((headers: http.IncomingHttpHeaders) => Record<string, unknown>) } | "hold";

export interface CountingServer {
  url: string;
  /** Paths of every request received, in arrival order. */
  received: string[];
  /** Requests held ("hold") whose client closed the connection while waiting. */
  abandoned: number;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server that stands where a tracking server would be configured and only records what reaches
 * it: tests prove a request was refused before any network call (nothing received), that the service gives up
 * a call its client no longer waits for (abandoned), or how it maps an answer such as 503.
 */
export async function startCountingServer(reply: CountingReply): Promise<CountingServer> {
  const state = { received: [] as string[], abandoned: 0 };
  const server = http.createServer((req, res) => {
    state.received.push(req.url ?? "");
    req.resume();
    if (reply === "hold") {
      res.on("close", () => {
        if (!res.writableFinished) state.abandoned++;
      });
      return;
    }
    const body = typeof reply.body === "function" ? reply.body(req.headers) : reply.body;
    res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return state.received;
    },
    get abandoned() {
      return state.abandoned;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL nothing listens on (a port just released): connections to it are refused. */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
