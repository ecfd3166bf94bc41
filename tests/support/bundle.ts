import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import type { BundleManifest, RemovedList } from "@server/delivery/bundle";
import type { Doc } from "./delivery";

/* Offline bundles in tests: an archive read entry by entry, each hashed as it streams (never held whole unless asked). */

export interface ReadEntry {
  path: string;
  size: number;
  sha256: string;
  /** The bytes, for entries of at most `keepUpTo` bytes. */
  bytes?: Buffer;
}

export interface ReadBundle {
  entries: ReadEntry[];
  manifest: BundleManifest;
  /** A kept entry's JSON. */
  json(name: string): unknown;
  /** A document's file. */
  document(name: string): Doc;
  removed(): RemovedList;
  has(name: string): boolean;
}

/**
 * Reads a tar archive: every entry's size and SHA-256, the bytes of small ones (kept up to `keepUpTo`), written into
 * `into` when given. Fails unless manifest.json is the last entry.
 */
export async function readBundle(
  source: ReadableStream<Uint8Array> | NodeJS.ReadableStream,
  options: { keepUpTo?: number; into?: string } = {},
): Promise<ReadBundle> {
  const keepUpTo = options.keepUpTo ?? 1024 * 1024;
  const extract = tar.extract();
  const entries: ReadEntry[] = [];
  const reading = (async () => {
    for await (const entry of extract) {
      const name = entry.header.name;
      if (name.startsWith("/") || name.split("/").includes("..")) throw new Error(`unsafe path in the bundle: ${name}`);
      const hash = createHash("sha256");
      const kept: Buffer[] = [];
      let size = 0;
      const file = options.into
        ? (mkdirSync(path.dirname(path.join(options.into, name)), { recursive: true }), createWriteStream(path.join(options.into, name)))
        : null;
      for await (const chunk of entry as AsyncIterable<Buffer>) {
        hash.update(chunk);
        size += chunk.length;
        if (entry.header.size <= keepUpTo) kept.push(chunk);
        if (file && !file.write(chunk)) await new Promise<void>((resolve) => file.once("drain", () => resolve()));
      }
      if (file) await new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
      entries.push({
        path: name,
        size,
        sha256: hash.digest("hex"),
        ...(entry.header.size <= keepUpTo ? { bytes: Buffer.concat(kept) } : {}),
      });
    }
  })();
  const input = "getReader" in source ? Readable.fromWeb(source as import("node:stream/web").ReadableStream<Uint8Array>) : source;
  await Promise.all([pipeline(input, extract), reading]);
  const last = entries.at(-1);
  if (last?.path !== "manifest.json" || !last.bytes) throw new Error(`manifest.json is not the last entry (last: ${last?.path ?? "none"})`);
  const manifest = JSON.parse(last.bytes.toString("utf8")) as BundleManifest;
  const byName = new Map(entries.map((entry) => [entry.path, entry]));
  const json = (name: string): unknown => {
    const entry = byName.get(name);
    if (!entry?.bytes) throw new Error(`no kept entry ${name} in the bundle`);
    return JSON.parse(entry.bytes.toString("utf8"));
  };
  return {
    entries,
    manifest,
    has: (name) => byName.has(name),
    json,
    document: (name) => json(name) as Doc,
    removed: () => json("removed.json") as RemovedList,
  };
}

/** The manifest's files are exactly the archive's other entries, with their sizes and hashes. */
export function verifyManifest(bundle: ReadBundle): void {
  const others = bundle.entries.slice(0, -1).map(({ path: name, size, sha256 }) => ({ path: name, size, sha256 }));
  const listed = bundle.manifest.files.map(({ path: name, size, sha256 }) => ({ path: name, size, sha256 }));
  if (JSON.stringify(others) !== JSON.stringify(listed)) {
    throw new Error(`the manifest does not list the archive's entries:\n${JSON.stringify(listed)}\n${JSON.stringify(others)}`);
  }
}
