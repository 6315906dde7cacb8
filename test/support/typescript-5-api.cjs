// Preloaded into the madge process of test/unit/import-circles.test.ts. madge reads TypeScript with
// typescript-estree, which needs TypeScript 5's compiler API; the project compiles with TypeScript 7, whose
// package has no such API. In that process, `typescript` is the `typescript-5` devDependency (an npm alias).
const Module = require("node:module");
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, request === "typescript" ? "typescript-5" : request, ...rest);
};
