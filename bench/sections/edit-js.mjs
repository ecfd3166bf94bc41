// The JavaScript the browser loads for the edit page of a new document: the
// module scripts and modulepreloads of the HTML, the route manifest, and what
// those import statically, plus what the head preloads for them to fetch (the
// page's message catalogue, JSON); each file gzipped on its own (zlib's default
// level, as a compressing proxy would send it) and summed. "On the wire" is what
// the server sends a browser that accepts brotli (the build's precompressed
// copies; a file under 1 kB goes as it is). The field kinds' chunks the form
// needs are among the head's modulepreloads (app/components/form/on-demand-fields.tsx).
// The bucket's validator module, which the page imports after hydration, is
// shown on its own row, and so is a form of text fields alone. The baseline is
// a bare React Router page (bench/baseline-app/, React and React Router alone),
// measured the same way: what any page of this stack loads before its own code.
import http from "node:http";
import { gzipSync } from "node:zlib";
import { startBarePageServer } from "../baselines/page-baseline.mjs";

const BUCKET = "exhibitions"; // the demo bucket that uses every field kind
const TEXT_BUCKET = "artists"; // a demo bucket of text, date and colour fields: no media, references or tags
// Issue 36 restated the budget against the stack's floor: the bare React Router page's JavaScript plus 70 kB gzipped.
const MAX_GZIP_ABOVE_BARE_KB = 70;

/** Script URLs of the page: modulepreload links, fetch preloads, module script src, and imports in inline module scripts. */
function scriptUrls(html) {
  const urls = new Set();
  for (const [, tag] of html.matchAll(/<link\b([^>]*)>/g)) {
    if (/rel="modulepreload"/.test(tag) || (/rel="preload"/.test(tag) && /as="fetch"/.test(tag))) urls.add(/href="([^"]+)"/.exec(tag)?.[1]);
  }
  for (const [, attributes, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (!/type="module"/.test(attributes)) continue;
    const src = /src="([^"]+)"/.exec(attributes)?.[1];
    if (src) urls.add(src);
    for (const [, url] of body.matchAll(/import\s*(?:[^"'()]*?from\s*)?["']([^"']+)["']/g)) urls.add(url);
    for (const [, url] of body.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) urls.add(url);
  }
  urls.delete(undefined);
  return urls;
}

/** Static imports of a built chunk (`import"./x.js"`, `from"./x.js"`), as absolute paths. */
function staticImports(code, fromPath) {
  const found = [];
  for (const [, specifier] of code.matchAll(/(?:\bfrom|\bimport)\s*["']([^"']+\.js)["']/g)) {
    found.push(new URL(specifier, `http://x${fromPath}`).pathname);
  }
  return found;
}

/** The bytes of the answer's body as sent (still compressed) to a browser that accepts brotli and gzip. */
function wireBytes(url, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { ...headers, "Accept-Encoding": "br, gzip" } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk) => (bytes += chunk.length));
      response.on("end", () =>
        response.statusCode === 200 ? resolve(bytes) : reject(new Error(`GET ${url} answered ${response.statusCode}`)),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

async function fetchText(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return response.text();
}

/** Every script the page at `pagePath` loads with it, and its catalogue: path → sizes. */
async function pageFiles(server, headers, pagePath) {
  const html = await fetchText(`${server.url}${pagePath}`, headers);
  const files = new Map(); // path → { raw, gzip, wire }
  const queue = [...scriptUrls(html)].map((url) => new URL(url, server.url).pathname);
  if (!queue.some((path) => path.includes("manifest"))) throw new Error(`${pagePath} names no route manifest`);
  while (queue.length) {
    const path = queue.shift();
    if (files.has(path)) continue;
    const code = await fetchText(`${server.url}${path}`, headers);
    const wire = await wireBytes(`${server.url}${path}`, headers);
    files.set(path, { raw: Buffer.byteLength(code), gzip: gzipSync(code).length, wire });
    if (path.endsWith(".js")) queue.push(...staticImports(code, path));
  }
  return { html, files };
}

/** Summed sizes in kB: { raw, gzip, wire }. */
function totals(files) {
  const sum = (key) => [...files.values()].reduce((total, file) => total + file[key], 0) / 1000;
  return { raw: sum("raw"), gzip: sum("gzip"), wire: sum("wire") };
}

/** The bare React Router page's JavaScript (React, React DOM, React Router, the route manifest): totals. */
async function bareBaseline(ctx) {
  const bare = await startBarePageServer(ctx);
  try {
    const { files } = await pageFiles(bare, {}, "/");
    const sizes = totals(files);
    ctx.log(`bare React Router page: ${files.size} files, ${sizes.gzip.toFixed(1)} kB gzipped, ${sizes.wire.toFixed(1)} kB on the wire`);
    return sizes;
  } finally {
    await bare.stop();
  }
}

export async function editJs(ctx) {
  const server = await ctx.sharedServer();
  const cookie = await ctx.signIn(server);
  const headers = { Cookie: cookie };
  const bare = await bareBaseline(ctx);
  const baseline = (key) => ({ label: "bare page", value: bare[key], as: "times" });
  const { html, files } = await pageFiles(server, headers, `/b/${BUCKET}/new`);

  const { raw, gzip: gzipKb, wire: wireKb } = totals(files);
  const largest = [...files]
    .sort((a, b) => b[1].gzip - a[1].gzip)
    .map(([path, file]) => `${path.replace(/^\/assets\//, "")} ${(file.gzip / 1000).toFixed(1)}`)
    .join(", ");
  ctx.log(`${files.size} files, ${raw.toFixed(0)} kB before gzip; gzipped (kB), largest first: ${largest}`);
  const largestOnWire = [...files]
    .sort((a, b) => b[1].wire - a[1].wire)
    .map(([path, file]) => `${path.replace(/^\/assets\//, "")} ${(file.wire / 1000).toFixed(1)}`)
    .join(", ");
  ctx.log(`on the wire (kB), largest first: ${largestOnWire}`);

  const rows = [
    {
      name: `/b/${BUCKET}/new JavaScript, gzipped (${files.size} files)`,
      value: gzipKb,
      unit: "kB",
      baseline: baseline("gzip"),
      budget: `≤ bare + ${MAX_GZIP_ABOVE_BARE_KB} kB (${(bare.gzip + MAX_GZIP_ABOVE_BARE_KB).toFixed(0)} kB)`,
      pass: gzipKb <= bare.gzip + MAX_GZIP_ABOVE_BARE_KB,
    },
    {
      name: `/b/${BUCKET}/new JavaScript, on the wire (brotli)`,
      value: wireKb,
      unit: "kB",
      baseline: baseline("wire"),
    },
  ];

  // A form without media, references or tags fetches none of their code (app/components/form/on-demand-fields.tsx).
  const { files: textFiles } = await pageFiles(server, headers, `/b/${TEXT_BUCKET}/new`);
  const text = totals(textFiles);
  rows.push(
    {
      name: `/b/${TEXT_BUCKET}/new JavaScript (text fields only), gzipped (${textFiles.size} files)`,
      value: text.gzip,
      unit: "kB",
      baseline: baseline("gzip"),
    },
    {
      name: `/b/${TEXT_BUCKET}/new JavaScript (text fields only), on the wire (brotli)`,
      value: text.wire,
      unit: "kB",
      baseline: baseline("wire"),
    },
  );

  const validatorUrl = /\/validators\/[^"\\]+/.exec(html)?.[0];
  if (validatorUrl) {
    const validator = await fetchText(`${server.url}${validatorUrl}`, headers);
    rows.push({
      name: `/b/${BUCKET}/new validator module, gzipped (after hydration)`,
      value: gzipSync(validator).length / 1000,
      unit: "kB",
    });
  }
  return rows;
}
