#!/usr/bin/env node
// A bare React Router page (bench/baseline-app/, built into BASELINE_BUILD_DIR) served the way server/http.ts
// serves Vitrine: sirv for the client's files first, then React Router's request handler through
// @remix-run/node-fetch-server on node:http. No compression, no session, no database, no security headers.
// Environment: PORT, HOST, BASELINE_BUILD_DIR.
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestListener } from "@remix-run/node-fetch-server";
import { createRequestHandler } from "react-router";
import sirv from "sirv";

const buildDir = process.env.BASELINE_BUILD_DIR;
const build = await import(pathToFileURL(path.join(buildDir, "server", "index.js")).href);
const handle = createRequestHandler(build, "production");
const fetchListener = createRequestListener((request) => {
  if (new URL(request.url).pathname === "/healthz") return Response.json({ status: "ok" });
  return handle(request, {});
});
const serveStatic = sirv(path.join(buildDir, "client"), {
  etag: true,
  brotli: true,
  gzip: true,
  setHeaders(res, pathname) {
    res.setHeader("Cache-Control", pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "public, max-age=3600");
  },
});

const server = createServer((req, res) => {
  if (req.method === "GET" || req.method === "HEAD") serveStatic(req, res, () => fetchListener(req, res));
  else fetchListener(req, res);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => server.close(() => process.exit(0)));
