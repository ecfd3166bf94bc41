// The production build: where it lives, whether it matches the sources, and building it quietly.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** What the build reads: a change to any of these calls for a new build. Tests are not part of the build. */
export const BUILD_INPUTS = {
  directories: ["app", "core", "server", "workers", "locales", "public"],
  files: [
    "package.json",
    "package-lock.json",
    "react-router.config.ts",
    "vite.config.ts",
    "scripts/vite-react-router-production.ts",
    "tsconfig.json",
  ],
  ignored: /\.test\.tsx?$/,
};

// Kept inside the build folder, so a clean build (which empties the folder first) never leaves a stale one behind.
const FINGERPRINT_FILE = "sources.sha256";

export function buildDirectory(env = process.env, root = ROOT) {
  return path.resolve(root, env.VITRINE_BUILD_DIR ?? "build");
}

/**
 * A hash of the build's inputs by content, so a git checkout that touches files without changing them (or restores
 * an older version with an older timestamp) still gets the right answer.
 */
export function sourceFingerprint(root = ROOT) {
  const hash = createHash("sha256");
  const files = [
    ...BUILD_INPUTS.directories.flatMap((directory) => filesUnder(root, directory)),
    ...BUILD_INPUTS.files.filter((file) => existsSync(path.join(root, file))),
  ].filter((file) => !BUILD_INPUTS.ignored.test(file));
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function filesUnder(root, directory) {
  if (!existsSync(path.join(root, directory))) return [];
  return readdirSync(path.join(root, directory), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(directory, entry.name);
    if (entry.isDirectory()) return filesUnder(root, relative);
    return entry.isFile() ? [relative] : [];
  });
}

/** Whether `buildDir` holds a server build made from the sources as they are now, and if not, why. */
export function buildStatus(buildDir, root = ROOT) {
  const fingerprint = sourceFingerprint(root);
  if (!existsSync(path.join(buildDir, "server", "index.js"))) return { current: false, reason: "no build yet", fingerprint };
  const stored = readStoredFingerprint(buildDir);
  if (stored === fingerprint) return { current: true, reason: "up to date", fingerprint };
  return { current: false, reason: stored ? "the sources changed since the last build" : "the build's sources are unknown", fingerprint };
}

export function readStoredFingerprint(buildDir) {
  const file = path.join(buildDir, FINGERPRINT_FILE);
  return existsSync(file) ? readFileSync(file, "utf8").trim() : null;
}

export function writeStoredFingerprint(buildDir, fingerprint) {
  writeFileSync(path.join(buildDir, FINGERPRINT_FILE), `${fingerprint}\n`);
}

/**
 * Runs `react-router build` into `buildDir` with its output captured: `summary` is one line; `output` (the whole
 * log) is for when it fails. On success it records the fingerprint of the sources it was started from, so a file
 * changed during the build still calls for the next one.
 */
export function buildProduction(buildDir, root = ROOT) {
  const fingerprint = sourceFingerprint(root);
  const started = performance.now();
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "react-router.mjs"), "build"], {
    cwd: root,
    // A production build whatever NODE_ENV the caller runs with (vitest, for one, sets "test").
    env: { ...process.env, NODE_ENV: "production", VITRINE_BUILD_DIR: buildDir },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}${result.error ? `\n${result.error.message}` : ""}`;
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) return { ok: false, output, summary: `The build failed after ${seconds.toFixed(1)} s.` };
  const compressed = precompress(path.join(buildDir, "client"));
  writeStoredFingerprint(buildDir, fingerprint);
  return { ok: true, output, summary: `${summarise(output, seconds, buildDir, root)} ${compressed}` };
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|html|webmanifest)$/;

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text asset over 1 kB, once per build, at the highest
 * levels: the static server (sirv) sends them to browsers that accept them, so no request pays for compression.
 */
export function precompress(clientDir) {
  let original = 0;
  let brotli = 0;
  for (const file of filesUnder(clientDir, ".")) {
    if (!COMPRESSIBLE.test(file)) continue;
    const absolute = path.join(clientDir, file);
    const content = readFileSync(absolute);
    if (content.length < 1024) continue;
    const br = brotliCompressSync(content, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length },
    });
    writeFileSync(`${absolute}.br`, br);
    writeFileSync(`${absolute}.gz`, gzipSync(content, { level: 9 }));
    original += content.length;
    brotli += br.length;
  }
  return `Assets precompressed: ${(original / 1024).toFixed(0)} kB → ${(brotli / 1024).toFixed(0)} kB brotli.`;
}

function summarise(output, seconds, buildDir, root) {
  const [client, server] = [...output.matchAll(/(\d+) modules transformed/g)].map((match) => match[1]);
  const modules = client && server ? ` (client ${client} modules, server ${server} modules)` : "";
  return `Built in ${seconds.toFixed(1)} s${modules} into ${path.relative(root, buildDir) || "."}/.`;
}
