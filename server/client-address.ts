import type { Request } from "express";
import { isIP } from "node:net";

/**
 * The address of the client behind a request, for per-client limits. Without trusted proxies it is the socket's
 * remote address. Behind `trustedProxies` proxies, each of which appends the address it received from to
 * X-Forwarded-For, it is the entry that many places from the right of [...X-Forwarded-For, socket address]:
 * entries further left were written by the client itself and could be anything.
 */
export function clientAddress(req: Request, trustedProxies: number): string {
  const socket = normalize(req.socket.remoteAddress ?? "unknown");
  if (trustedProxies === 0) return socket;
  const forwarded = (req.headers["x-forwarded-for"] ?? "")
    .toString()
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  const chain = [...forwarded, socket];
  const entry = chain[Math.max(0, chain.length - 1 - trustedProxies)]!;
  return isIP(normalize(entry)) ? normalize(entry) : socket;
}

/** IPv4 clients of a dual-stack socket arrive as ::ffff:a.b.c.d; one client, one key. */
const normalize = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, "");
