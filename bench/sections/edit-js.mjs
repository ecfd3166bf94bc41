// The JavaScript the browser loads for the edit page of a new document: the
// module scripts and modulepreloads of the HTML, the route manifest, and what
// those import statically; each file gzipped on its own (zlib's default level,
// as a compressing proxy would send it) and summed. The bucket's validator
// module, which the page imports after hydration, is shown on its own row.
// On the wire: the bytes the server sends for the same files to a browser that asks with
// `Accept-Encoding: gzip, deflate, br` (the build's precompressed copies), response bodies summed.
import { request } from "node:http";
import { gzipSync } from "node:zlib";

const BUCKET = "exhibitions"; // the demo bucket that uses every field kind
const MAX_GZIP_KB = 120;
const MAX_WIRE_KB = 130;
const BROWSER_ENCODINGS = "gzip, deflate, br";

/** The body bytes a browser receives for `url` (not decoded) and the Content-Encoding they came with. */
function wireBytes(url, headers) {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, "Accept-Encoding": BROWSER_ENCODINGS } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode, bytes, encoding: res.headers["content-encoding"] ?? "identity" }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/** Script URLs of the page: modulepreload links, module script src, and imports in inline module scripts. */
function scriptUrls(html) {
  const urls = new Set();
  for (const [, tag] of html.matchAll(/<link\b([^>]*)>/g)) {
    if (/rel="modulepreload"/.test(tag)) urls.add(/href="([^"]+)"/.exec(tag)?.[1]);
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

async function fetchText(url, headers) {
  const response = await fetch(url, { headers });
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
  return response.text();
}

export async function editJs(ctx) {
  const server = await ctx.sharedServer();
  const cookie = await ctx.signIn(server);
  const headers = { Cookie: cookie };
  const html = await fetchText(`${server.url}/b/${BUCKET}/new`, headers);

  const files = new Map(); // path → { raw, gzip }
  const queue = [...scriptUrls(html)].map((url) => new URL(url, server.url).pathname);
  if (!queue.some((path) => path.includes("manifest"))) throw new Error(`/b/${BUCKET}/new names no route manifest`);
  while (queue.length) {
    const path = queue.shift();
    if (files.has(path)) continue;
    const code = await fetchText(`${server.url}${path}`, headers);
    const wire = await wireBytes(`${server.url}${path}`, headers);
    if (wire.status !== 200) throw new Error(`GET ${path} with Accept-Encoding answered ${wire.status}`);
    files.set(path, { raw: Buffer.byteLength(code), gzip: gzipSync(code).length, wire: wire.bytes, encoding: wire.encoding });
    queue.push(...staticImports(code, path));
  }

  const sum = (key) => [...files.values()].reduce((total, file) => total + file[key], 0);
  const gzipKb = sum("gzip") / 1000;
  const largest = [...files]
    .sort((a, b) => b[1].gzip - a[1].gzip)
    .map(([path, file]) => `${path.replace(/^\/assets\//, "")} ${(file.gzip / 1000).toFixed(1)}`)
    .join(", ");
  ctx.log(`${files.size} files, ${(sum("raw") / 1000).toFixed(0)} kB before gzip; gzipped (kB), largest first: ${largest}`);
  const wireKb = sum("wire") / 1000;
  const encodings = new Map();
  for (const file of files.values()) encodings.set(file.encoding, (encodings.get(file.encoding) ?? 0) + 1);
  const encodingNote = [...encodings].map(([encoding, count]) => `${count} ${encoding}`).join(", ");

  const rows = [
    {
      name: `/b/${BUCKET}/new JavaScript, gzipped (${files.size} files)`,
      value: gzipKb,
      unit: "kB",
      budget: `<= ${MAX_GZIP_KB} kB`,
      pass: gzipKb <= MAX_GZIP_KB,
      note: `${(sum("raw") / 1000).toFixed(0)} kB before compression`,
    },
    {
      name: `/b/${BUCKET}/new JavaScript on the wire (Accept-Encoding: ${BROWSER_ENCODINGS})`,
      value: wireKb,
      unit: "kB",
      budget: `<= ${MAX_WIRE_KB} kB`,
      pass: wireKb <= MAX_WIRE_KB,
      note: `files sent as: ${encodingNote}`,
    },
  ];

  const validatorUrl = /\/validators\/[^"\\]+/.exec(html)?.[0];
  if (validatorUrl) {
    const validator = await fetchText(`${server.url}${validatorUrl}`, headers);
    rows.push({ name: `/b/${BUCKET}/new validator module, gzipped (after hydration)`, value: gzipSync(validator).length / 1000, unit: "kB" });
  }
  return rows;
}
