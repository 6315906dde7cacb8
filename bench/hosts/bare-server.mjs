// Startup baseline: the smallest HTTP server Node can run, answering 200 on every path.
import { createServer } from "node:http";

createServer((_req, res) => res.end("ok")).listen(Number(process.argv[2]), "127.0.0.1");
