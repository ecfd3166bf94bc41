#!/usr/bin/env node
// Where a server's CPU went, from a .cpuprofile that `npm run bench -- --profile` wrote:
// the top functions by self time, and self time summed per package or source file.
//
//   node bench/profile-top.mjs build-bench/profiles/<name>.cpuprofile [--top=25] [--inclusive=fnA,fnB]
//
// --inclusive adds the time spent in and under the named functions (synchronous
// callees only: work resumed after an await is sampled under the microtask, not the caller).
import { readFileSync } from "node:fs";

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-top.mjs <file.cpuprofile> [--top=25] [--inclusive=fnA,fnB]");
  process.exit(2);
}
const top = Number(rest.find((arg) => arg.startsWith("--top="))?.slice(6) ?? 25);
const inclusive =
  rest
    .find((arg) => arg.startsWith("--inclusive="))
    ?.slice(12)
    .split(",") ?? [];
const profile = JSON.parse(readFileSync(file, "utf8"));

// Self time per node: samples × the mean interval between them.
const interval = (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length);
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length * interval;

function where(url) {
  if (!url) return "(native)";
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const parts = url.slice(modules + "node_modules/".length).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (url.startsWith("node:")) return url;
  return url.replace(/^file:\/\/.*?\/(build-bench|build)\//, "$1/");
}

const byFunction = new Map();
const byPlace = new Map();
for (const node of profile.nodes) {
  const ms = (hits.get(node.id) ?? 0) * interval;
  if (!ms) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const place = where(url);
  const key = `${functionName || "(anonymous)"}  ${place}${url ? `:${lineNumber + 1}` : ""}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
  byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
}

function print(title, map) {
  console.log(`\n${title}`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${key}`);
  }
}

const idle = [...profile.nodes]
  .filter((node) => node.callFrame.functionName === "(idle)")
  .reduce((sum, node) => sum + (hits.get(node.id) ?? 0) * interval, 0);
console.log(`${file}: ${(total / 1000).toFixed(1)} s sampled, ${(idle / 1000).toFixed(1)} s of it idle`);
print("Self time by package or file", byPlace);
print("Self time by function", byFunction);

if (inclusive.length) {
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const under = new Map(inclusive.map((name) => [name, 0]));
  for (const [id, count] of hits) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const name = byId.get(at).callFrame.functionName;
      if (under.has(name) && !seen.has(name)) {
        seen.add(name);
        under.set(name, under.get(name) + count * interval);
      }
    }
  }
  print("Time in and under (synchronous callees)", under);
}
