// http_overhead host, under plain node: the real service (dist/server/main.js, exactly as `npm start` runs it,
// on PORT) and, in the same process and event loop, the baseline — an Express handler that parses and echoes
// the JSON body — on the port given as the first argument.
import { once } from "node:events";
import express from "express";

const echoPort = Number(process.argv[2]);
if (!Number.isInteger(echoPort) || echoPort <= 0) throw new Error("usage: service-with-echo.ts <echo port>");

const echo = express();
echo.disable("x-powered-by");
echo.post("/echo", express.json({ limit: "64mb" }), (req, res) => {
  res.json(req.body);
});
echo.get("/", (_req, res) => {
  res.send("ok");
});
await once(echo.listen(echoPort, "127.0.0.1"), "listening");

await import("../../dist/server/main.js");
